//! Ghost arguments: unknown keys stripped or blocked at every depth, by the tool's effect.

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use toolargs::{Effect, ParseOptions, RawArgs, ToolArgs, UnknownPolicy};

/// Send an email.
#[derive(ToolArgs, Debug, PartialEq)]
#[toolargs(effect = "external")]
struct SendEmail {
    to: String,
    subject: String,
    body: String,
    priority: Option<Priority>,
    options: Option<EmailOptions>,
    #[arg(default)]
    attachments: Vec<Attachment>,
}

#[derive(ToolArgs, Debug, PartialEq)]
enum Priority {
    Low,
    Normal,
    High,
}

#[derive(ToolArgs, Debug, PartialEq)]
struct EmailOptions {
    track_opens: Option<bool>,
}

#[derive(ToolArgs, Debug, PartialEq)]
struct Attachment {
    name: String,
    size: u32,
}

#[derive(ToolArgs, Debug, PartialEq)]
#[toolargs(effect = "read_only")]
struct Lookup {
    name: String,
    inner: Inner,
}

#[derive(ToolArgs, Debug, PartialEq)]
struct Inner {
    value: i64,
}

fn parse(
    raw: &Value,
    policy: UnknownPolicy,
) -> Result<toolargs::Parsed<SendEmail>, toolargs::Rejection> {
    let options = ParseOptions::DEFAULT.with_unknown(policy);
    toolargs::parse_with::<SendEmail>(&RawArgs::from(raw), &options)
}

/// (verdict, stripped paths, error code+paths) for one call.
fn verdict(raw: &Value, policy: UnknownPolicy) -> (&'static str, Vec<String>, Vec<String>) {
    match parse(raw, policy) {
        Ok(p) => (
            "ALLOW",
            p.repairs
                .iter()
                .filter(|r| r.rule == "strip_unknown_field")
                .map(|r| r.path.clone())
                .collect(),
            vec![],
        ),
        Err(r) => (
            "BLOCK",
            vec![],
            r.errors()
                .iter()
                .map(|e| format!("{} {}", e.code, e.path))
                .collect(),
        ),
    }
}

#[test]
fn the_six_calls_under_both_policies() {
    let calls = [
        json!({"to": "a@example.com", "subject": "Q3", "body": "attached"}),
        json!({"to": "a@example.com", "subject": "Q3", "body": "attached", "cc": "someone@example.org"}),
        json!({"to": "a@example.com", "subject": "Q3", "body": "x", "options": {"track_opens": false, "bcc_all": true}}),
        json!({"to": ["a@example.com"], "subject": "Q3", "body": "x"}),
        json!({"to": "a@example.com", "subject": "Q3", "body": "x", "priority": "urgent"}),
        json!({"to": "a@example.com", "body": "x"}),
    ];
    let strip: Vec<_> = calls
        .iter()
        .map(|c| verdict(c, UnknownPolicy::Strip))
        .collect();
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        strip,
        [
            ("ALLOW", s(&[]), s(&[])),
            ("ALLOW", s(&["$.cc"]), s(&[])),
            ("ALLOW", s(&["$.options.bcc_all"]), s(&[])),
            ("BLOCK", s(&[]), s(&["type $.to"])),
            ("BLOCK", s(&[]), s(&["enum $.priority"])),
            ("BLOCK", s(&[]), s(&["missing $.subject"])),
        ]
    );
    let block: Vec<_> = calls
        .iter()
        .map(|c| verdict(c, UnknownPolicy::Reject))
        .collect();
    assert_eq!(
        block,
        [
            ("ALLOW", s(&[]), s(&[])),
            ("BLOCK", s(&[]), s(&["unknown_field $.cc"])),
            ("BLOCK", s(&[]), s(&["unknown_field $.options.bcc_all"])),
            ("BLOCK", s(&[]), s(&["type $.to"])),
            ("BLOCK", s(&[]), s(&["enum $.priority"])),
            ("BLOCK", s(&[]), s(&["missing $.subject"])),
        ]
    );
    // What runs after stripping is exactly the declared part.
    let stripped = parse(&calls[2], UnknownPolicy::Strip).unwrap();
    assert_eq!(
        stripped.args.to_json(),
        json!({"to": "a@example.com", "subject": "Q3", "body": "x", "options": {"track_opens": false}, "attachments": []})
    );
    assert_eq!(stripped.repairs[0].before, json!(true));
    assert_eq!(stripped.repairs[0].after, Value::Null);
}

#[test]
fn the_default_policy_follows_the_effect() {
    assert_eq!(
        (SendEmail::EFFECT, SendEmail::UNKNOWN),
        (Effect::External, UnknownPolicy::Reject)
    );
    assert_eq!(
        (Lookup::EFFECT, Lookup::UNKNOWN),
        (Effect::ReadOnly, UnknownPolicy::Strip)
    );
    assert_eq!(Effect::default(), Effect::Destructive);
    assert_eq!(
        Effect::Destructive.default_unknown_policy(),
        UnknownPolicy::Reject
    );
    assert_eq!(
        Effect::Additive.default_unknown_policy(),
        UnknownPolicy::Reject
    );
    assert_eq!(
        Effect::ReadOnly.mcp_annotations(),
        json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false})
    );
    assert_eq!(
        Effect::External.mcp_annotations()["openWorldHint"],
        json!(true)
    );
    assert_eq!(Effect::from_name("read_only"), Some(Effect::ReadOnly));
}

#[test]
fn array_items_and_optional_structs_are_checked_too() {
    let raw = json!({"to": "a", "subject": "b", "body": "c",
                     "attachments": [{"name": "x.pdf", "size": 1}, {"name": "y.pdf", "size": 2, "url": "http://evil"}]});
    let rejection = parse(&raw, UnknownPolicy::Reject).unwrap_err();
    assert_eq!(rejection.errors()[0].path, "$.attachments[1].url");
    assert_eq!(rejection.errors()[0].code, "unknown_field");
    let parsed = parse(&raw, UnknownPolicy::Strip).unwrap();
    assert_eq!(parsed.repairs[0].path, "$.attachments[1].url");
    assert_eq!(parsed.repairs[0].before, json!("http://evil"));
}

#[test]
fn a_key_known_at_one_level_is_unknown_at_another() {
    let raw = json!({"name": "n", "value": 2, "inner": {"value": 1, "name": "x"}});
    let parsed = Lookup::parse(&raw).unwrap();
    assert_eq!(
        parsed
            .repairs
            .iter()
            .map(|r| r.path.as_str())
            .collect::<Vec<_>>(),
        ["$.value", "$.inner.name"]
    );
    assert_eq!(
        parsed.args,
        Lookup {
            name: "n".into(),
            inner: Inner { value: 1 }
        }
    );
    let options = ParseOptions::DEFAULT.with_unknown(UnknownPolicy::Reject);
    let rejection = toolargs::parse_with::<Lookup>(&RawArgs::from(&raw), &options).unwrap_err();
    let paths: Vec<&str> = rejection.errors().iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths, ["$.value", "$.inner.name"]);
    assert!(
        rejection.errors()[1]
            .message
            .ends_with("accepted fields: value"),
        "{}",
        rejection.errors()[1].message
    );
}

#[test]
fn duplicate_keys_inside_nested_objects_are_rejected_under_both_policies() {
    let raw =
        r#"{"to":"a","subject":"b","body":"c","options":{"track_opens":true,"track_opens":false}}"#;
    for policy in [UnknownPolicy::Strip, UnknownPolicy::Reject] {
        let options = ParseOptions::DEFAULT.with_unknown(policy);
        let rejection =
            toolargs::parse_with::<SendEmail>(&RawArgs::from(raw), &options).unwrap_err();
        assert_eq!(rejection.errors()[0].code, "duplicate_key");
        assert_eq!(rejection.errors()[0].path, "$.options.track_opens");
    }
}

/// A valid call with invented keys sprinkled at every level.
fn call_with_ghosts() -> impl Strategy<Value = (Value, usize)> {
    let ghost = (
        "[a-z]{1,8}",
        prop_oneof![
            Just(json!(1)),
            Just(json!("x")),
            Just(json!({"deep": [1, 2]})),
            Just(Value::Null)
        ],
    );
    (
        proptest::collection::vec(ghost.clone(), 0..3),
        proptest::collection::vec(ghost.clone(), 0..3),
        proptest::collection::vec(ghost, 0..3),
        any::<bool>(),
    )
        .prop_map(|(top, options, item, with_options)| {
            let declared = ["to", "subject", "body", "priority", "options", "attachments", "track_opens", "name", "size"];
            let mut added = 0;
            let mut add = |map: &mut Map<String, Value>, extras: Vec<(String, Value)>| {
                for (k, v) in extras {
                    if !declared.contains(&k.as_str()) && !map.contains_key(&k) {
                        map.insert(k, v);
                        added += 1;
                    }
                }
            };
            let mut call = json!({"to": "a@example.com", "subject": "s", "body": "b", "priority": "high",
                                  "attachments": [{"name": "f", "size": 3}]});
            if with_options {
                let mut o = Map::new();
                o.insert("track_opens".into(), json!(true));
                add(&mut o, options);
                call["options"] = Value::Object(o);
            }
            add(call["attachments"][0].as_object_mut().unwrap(), item);
            add(call.as_object_mut().unwrap(), top);
            (call, added)
        })
}

proptest! {
    #[test]
    fn stripping_is_idempotent_and_keeps_every_declared_key((call, added) in call_with_ghosts()) {
        let parsed = parse(&call, UnknownPolicy::Strip).unwrap();
        prop_assert_eq!(parsed.repairs.len(), added);
        prop_assert!(parsed.repairs.iter().all(|r| r.rule == "strip_unknown_field"));
        let canonical = parsed.args.to_json();
        for key in ["to", "subject", "body", "priority", "attachments"] {
            prop_assert!(canonical.get(key).is_some(), "{} was removed", key);
        }
        prop_assert_eq!(&canonical["attachments"][0], &json!({"name": "f", "size": 3}));
        prop_assert_eq!(canonical.get("options").is_some(), call.get("options").is_some());
        let again = parse(&canonical, UnknownPolicy::Strip).unwrap();
        prop_assert!(again.repairs.is_empty());
        prop_assert_eq!(again.args, parsed.args);
        // Under the reject policy the same call is blocked once per invented key.
        match parse(&call, UnknownPolicy::Reject) {
            Ok(_) => prop_assert_eq!(added, 0),
            Err(r) => {
                prop_assert_eq!(r.errors().len(), added);
                prop_assert!(r.errors().iter().all(|e| e.code == "unknown_field"));
            }
        }
    }
}
