//! The dynamic front door: a `Spec` loaded from a JSON Schema parses like the derived type.

use crate::common::{base, payload, IssueRefund};
use proptest::prelude::*;
use serde_json::{json, Value};
use toolargs::{Effect, ParseOptions, RawArgs, Spec, ToolArgs, UnknownPolicy};

/// The refund tool's contract, written by hand as a tool from another stack would be.
const REFUND_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "order_id": {"type": "string", "pattern": "^ord_[A-Za-z0-9]{8}$"},
    "amount_cents": {"type": "integer", "minimum": 1, "maximum": 50000},
    "notify_customer": {"type": "boolean", "default": false},
    "reason": {"type": "string", "enum": ["damaged", "late", "duplicate", "other"]},
    "tags": {"type": "array", "items": {"type": "string"}, "default": []},
    "effective_date": {"type": "string", "format": "date"}
  },
  "required": ["order_id", "amount_cents", "reason"],
  "additionalProperties": false
}"#;

fn refund_spec() -> Spec {
    Spec::from_json(REFUND_SCHEMA).unwrap()
}

type Outcome = Result<(Value, Vec<(String, String, Value, Value)>), Vec<(String, String)>>;

fn derived(raw: RawArgs<'_>) -> Outcome {
    match toolargs::parse_with::<IssueRefund>(&raw, &ParseOptions::DEFAULT) {
        Ok(p) => Ok((
            p.args.to_json(),
            p.repairs
                .into_iter()
                .map(|r| (r.path, r.rule.to_string(), r.before, r.after))
                .collect(),
        )),
        Err(r) => Err(r
            .errors()
            .iter()
            .map(|e| (e.code.to_string(), e.path.clone()))
            .collect()),
    }
}

fn dynamic(spec: &Spec, raw: RawArgs<'_>) -> Outcome {
    match spec.parse_with(&raw, &ParseOptions::DEFAULT) {
        Ok(p) => Ok((
            p.args,
            p.repairs
                .into_iter()
                .map(|r| (r.path, r.rule.to_string(), r.before, r.after))
                .collect(),
        )),
        Err(r) => Err(r
            .errors()
            .iter()
            .map(|e| (e.code.to_string(), e.path.clone()))
            .collect()),
    }
}

/// The seed's calls plus a few of every kind.
fn cases() -> Vec<String> {
    let mut cases = vec![
        base().to_string(),
        format!("```json\n{}\n```", base()),
        Value::String(base().to_string()).to_string(),
        "[]".into(),
        "nope".into(),
        r#"{"a":1,"a":2}"#.into(),
    ];
    for (field, value) in [
        ("amount_cents", json!("1999")),
        ("amount_cents", json!(1999.0)),
        ("notify_customer", json!("true")),
        ("notify_customer", json!("FALSE")),
        ("reason", json!("Damaged")),
        ("tags", json!("fragile")),
        ("notify_customer", Value::Null),
        ("effective_date", Value::Null),
        ("amount_cents", json!("19.99")),
        ("amount_cents", json!("1,999")),
        ("amount_cents", json!("1e3")),
        ("amount_cents", json!(" 1999")),
        ("amount_cents", json!("01999")),
        ("amount_cents", json!(19.99)),
        ("amount_cents", json!(true)),
        ("amount_cents", json!(0)),
        ("amount_cents", json!(50001)),
        ("notify_customer", json!("yes")),
        ("notify_customer", json!(1)),
        ("order_id", json!(12345678)),
        ("order_id", json!("ORD_A1b2C3d4")),
        ("reason", json!("broken")),
        ("reason", Value::Null),
        ("tags", json!("fragile, gift")),
        ("tags", json!("[\"fragile\"]")),
        ("effective_date", json!("03/04/2026")),
        ("effective_date", json!("2026-02-30")),
        ("tags", json!(["fragile", 3])),
        ("amount", json!(1999)),
        ("tags", json!({"a": 1})),
    ] {
        cases.push(payload(field, value));
    }
    cases
}

#[test]
fn hand_written_schema_matches_the_derived_parser_case_for_case() {
    let spec = refund_spec();
    for raw in cases() {
        assert_eq!(
            dynamic(&spec, RawArgs::from(raw.as_str())),
            derived(RawArgs::from(raw.as_str())),
            "{raw}"
        );
    }
}

fn sorted(outcome: Outcome) -> Outcome {
    match outcome {
        Ok((v, mut r)) => {
            r.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
            Ok((v, r))
        }
        Err(mut e) => {
            e.sort();
            Err(e)
        }
    }
}

#[test]
fn the_derived_schema_loads_back_into_an_equivalent_spec() {
    // A Value's members come back in alphabetical order, so compare without order.
    let spec = Spec::from_schema(&IssueRefund::json_schema()).unwrap();
    for raw in cases() {
        assert_eq!(
            sorted(dynamic(&spec, RawArgs::from(raw.as_str()))),
            sorted(derived(RawArgs::from(raw.as_str()))),
            "{raw}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    #[test]
    fn derived_and_dynamic_agree_on_generated_calls(
        amount in prop_oneof![Just(json!(1999)), Just(json!("1999")), Just(json!(1.5)), Just(json!("x")), Just(Value::Null), (-5i64..60000).prop_map(Value::from)],
        notify in prop_oneof![Just(json!(true)), Just(json!("True")), Just(json!("no")), Just(Value::Null), Just(json!(0))],
        reason in prop_oneof![Just(json!("late")), Just(json!("LATE")), Just(json!("Lat")), Just(json!(1))],
        tags in prop_oneof![Just(json!([])), Just(json!("a")), Just(json!("a;b")), Just(json!(["a", null])), Just(Value::Null)],
        extra in proptest::option::of("[a-z]{1,6}"),
    ) {
        let mut call = json!({"order_id": "ord_A1b2C3d4", "amount_cents": amount, "notify_customer": notify, "reason": reason, "tags": tags});
        if let Some(key) = extra {
            call[key] = json!(1);
        }
        let text = call.to_string();
        let spec = refund_spec();
        prop_assert_eq!(dynamic(&spec, RawArgs::from(text.as_str())), derived(RawArgs::from(text.as_str())));
    }
}

#[test]
fn schemas_the_gate_would_enforce_less_strictly_do_not_load() {
    for (schema, pointer, words) in [
        (
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}),
            "/properties/a/$ref",
            "does not resolve",
        ),
        (
            json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}),
            "/properties/a/$ref",
            "remote references",
        ),
        (
            json!({"$dynamicRef": "#node"}),
            "/$dynamicRef",
            "dynamic scope",
        ),
        (json!({"type": "text"}), "/type", "unknown type `text`"),
        (
            json!({"type": "string", "pattern": "(?<"}),
            "/pattern",
            "ECMA-262",
        ),
        (
            json!({"type": "integer", "minimum": "1"}),
            "/minimum",
            "number",
        ),
        (json!({"multipleOf": 0}), "/multipleOf", "greater than 0"),
        (json!({"minLength": -1}), "/minLength", "non-negative"),
        (json!({"enum": "a"}), "/enum", "array"),
        (json!({"allOf": []}), "/allOf", "empty"),
        (json!(1), "", "JSON object or a boolean"),
    ] {
        let err = Spec::from_schema(&schema).unwrap_err();
        assert_eq!(err.pointer, pointer, "{schema}: {err}");
        assert!(err.to_string().contains(words), "{schema}: {err}");
    }
}

#[test]
fn annotations_and_unknown_keywords_load_with_warnings() {
    let spec = Spec::from_schema(&json!({
        "type": "object",
        "title": "t", "description": "d", "$comment": "c", "examples": [{}],
        "properties": {
            "color": {"type": "string", "format": "color", "readOnly": true},
            "level": {"type": "integer", "x-order": 1, "propertyOrdering": ["a"]},
            "kind": {"type": "string", "enum": ["a", "A"]},
            "flag": {"type": "boolean", "default": "false"}
        }
    }))
    .unwrap();
    let warned: Vec<&str> = spec.warnings().iter().map(|w| w.pointer.as_str()).collect();
    assert_eq!(
        warned,
        [
            "/properties/color/format",
            "/properties/color/readOnly",
            "/properties/level/propertyOrdering",
            "/properties/kind/enum",
            "/properties/flag/default",
        ]
    );
    // The dropped default is not filled in; the case repair is off where it would be ambiguous.
    let parsed = spec.parse(r#"{"color": "no such color"}"#).unwrap();
    assert_eq!(parsed.args, json!({"color": "no such color"}));
    assert!(spec.parse(r#"{"kind": "B"}"#).is_err());
}

#[test]
fn tool_definitions_of_every_shape_load() {
    let parameters: Value = serde_json::from_str(REFUND_SCHEMA).unwrap();
    let shapes = [
        json!({"type": "function", "function": {"name": "issue_refund", "description": "Refund.", "parameters": parameters, "strict": false}}),
        json!({"type": "function", "name": "issue_refund", "description": "Refund.", "parameters": parameters}),
        json!({"name": "issue_refund", "description": "Refund.", "input_schema": parameters}),
        json!({"name": "issue_refund", "description": "Refund.", "inputSchema": parameters}),
        json!({"name": "issue_refund", "description": "Refund.", "parameters": parameters}),
    ];
    for definition in shapes {
        let spec = Spec::from_tool_definition(&definition).unwrap();
        assert_eq!(spec.name(), Some("issue_refund"));
        assert_eq!(spec.description(), Some("Refund."));
        assert_eq!(spec.unknown_policy(), UnknownPolicy::Reject);
        let parsed = spec.parse(payload("amount_cents", json!("1999"))).unwrap();
        assert_eq!(parsed.args["amount_cents"], json!(1999));
        let err = spec.parse(payload("amount", json!(1))).unwrap_err();
        assert_eq!(err.errors()[0].path, "$.amount");
    }
    let bare = Spec::from_tool_definition(&parameters).unwrap();
    assert_eq!(bare.name(), None);
    let no_args =
        Spec::from_tool_definition(&json!({"name": "ping", "description": "Ping."})).unwrap();
    assert!(no_args.parse("{}").unwrap().repairs.is_empty());
    assert_eq!(
        no_args.parse(r#"{"x":1}"#).unwrap_err().errors()[0].code,
        "unknown_field"
    );
}

#[test]
fn the_unknown_policy_comes_from_mcp_annotations_then_the_default() {
    let tool = |annotations: Option<Value>| {
        let mut def = json!({"name": "search", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}});
        if let Some(a) = annotations {
            def["annotations"] = a;
        }
        Spec::from_tool_definition(&def).unwrap()
    };
    let read_only = tool(Some(json!({"readOnlyHint": true})));
    assert_eq!(read_only.effect(), Some(Effect::ReadOnly));
    let parsed = read_only
        .parse(r#"{"q":"x","limit":5,"nested":{"a":1}}"#)
        .unwrap();
    assert_eq!(parsed.args, json!({"q": "x"}));
    assert_eq!(
        parsed
            .repairs
            .iter()
            .map(|r| r.path.as_str())
            .collect::<Vec<_>>(),
        ["$.limit", "$.nested"]
    );
    assert_eq!(parsed.repairs[1].before, json!({"a": 1}));

    let writes = tool(Some(
        json!({"readOnlyHint": false, "destructiveHint": false, "openWorldHint": false}),
    ));
    assert_eq!(writes.effect(), Some(Effect::Additive));
    assert_eq!(
        writes
            .clone()
            .with_default_unknown(UnknownPolicy::Strip)
            .unknown_policy(),
        UnknownPolicy::Reject
    );
    assert_eq!(tool(Some(json!({}))).effect(), Some(Effect::External));
    assert_eq!(tool(None).unknown_policy(), UnknownPolicy::Reject);
    assert_eq!(
        tool(None)
            .with_default_unknown(UnknownPolicy::Strip)
            .unknown_policy(),
        UnknownPolicy::Strip
    );
}

#[test]
fn nulls_anyof_refs_and_extra_properties() {
    let spec = Spec::from_schema(&json!({
        "type": "object",
        "$defs": {"item": {"type": "object", "properties": {"qty": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10}}, "required": ["qty"]}},
        "properties": {
            "note": {"type": ["string", "null"]},
            "when": {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}]},
            "kind": {"enum": ["a", "b", null]},
            "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
            "items": {"type": "array", "items": {"$ref": "#/$defs/item"}},
            "meta": {"type": "object", "additionalProperties": {"type": "integer"}},
            "free": {"type": "object", "additionalProperties": true}
        },
        "required": ["note", "when", "kind"]
    }))
    .unwrap();
    let parsed = spec.parse(r#"{"note":null,"when":null,"kind":null,"items":[{"qty":"9"}],"meta":{"x":"2"},"free":{"any":[1]}}"#).unwrap();
    assert_eq!(
        parsed.args,
        json!({"note": null, "when": null, "kind": null, "items": [{"qty": 9}], "meta": {"x": 2}, "free": {"any": [1]}})
    );
    assert_eq!(
        parsed
            .repairs
            .iter()
            .map(|r| (r.rule.as_str(), r.path.as_str()))
            .collect::<Vec<_>>(),
        [
            ("numeric_string_to_int", "$.items[0].qty"),
            ("numeric_string_to_int", "$.meta.x")
        ]
    );
    let err = spec.parse(r#"{"note":1,"when":"2026-03-04T10:00:00","kind":"c","ratio":0,"items":[{"qty":10}],"meta":{"x":"y"}}"#).unwrap_err();
    let got: Vec<(&str, &str)> = err
        .errors()
        .iter()
        .map(|e| (e.code.as_str(), e.path.as_str()))
        .collect();
    // Properties keep the order the schema declares them in, and so do the errors.
    assert_eq!(
        got,
        [
            ("type", "$.note"),
            ("ambiguous_datetime", "$.when"),
            ("enum", "$.kind"),
            ("out_of_range", "$.ratio"),
            ("out_of_range", "$.items[0].qty"),
            ("ambiguous_integer", "$.meta.x"),
        ]
    );
    let err = spec.parse(r#"{"note":"a","when":null}"#).unwrap_err();
    assert_eq!(err.errors()[0].path, "$.kind");
    assert_eq!(err.errors()[0].code, "missing");
}

#[test]
fn loaded_patterns_search_as_json_schema_does() {
    let spec = Spec::from_schema(&json!({"type": "object", "properties": {"code": {"type": "string", "pattern": "[0-9]{3}"}}})).unwrap();
    assert!(spec.parse(r#"{"code":"abc123def"}"#).is_ok());
    assert_eq!(
        spec.parse(r#"{"code":"ab12"}"#).unwrap_err().errors()[0].code,
        "pattern"
    );
}
