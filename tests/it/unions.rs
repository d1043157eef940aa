//! Unions: enums with data, tagged (`tag = "type"`) or untagged. A tagged union reads its tag
//! as a string enum and its variant's fields as a struct's; an untagged one follows the
//! one-meaning rule. Each parses clean, repaired and rejected calls with stable codes and
//! paths, writes a canonical form that reads back clean, and states a schema that agrees.

use jsonschema::Validator;
use serde_json::{json, Value};
use toolargs::{Code, Rule, ToolArgs};

fn validator<T: ToolArgs>() -> Validator {
    crate::common::validator_ignoring_formats(&T::json_schema())
}

fn clean<T: ToolArgs + PartialEq + std::fmt::Debug>(payload: Value) -> T {
    let parsed = T::parse(payload.to_string()).expect("parses");
    assert!(parsed.is_clean(), "{payload}: {:?}", parsed.repairs);
    assert!(validator::<T>().is_valid(&payload), "{payload}");
    round_trip(&parsed.args);
    parsed.args
}

fn round_trip<T: ToolArgs + PartialEq + std::fmt::Debug>(value: &T) {
    let json = value.to_json();
    let again = T::parse(json.to_string()).expect("the canonical form parses");
    assert!(again.is_clean(), "{json}: {:?}", again.repairs);
    assert_eq!(&again.args, value);
    assert!(validator::<T>().is_valid(&json), "{json}");
}

fn rejected<T: ToolArgs + std::fmt::Debug>(
    payload: Value,
    code: Code,
    path: &str,
    schema_can_say: bool,
) -> toolargs::Rejection {
    let rejection = T::parse(payload.to_string()).expect_err("rejected");
    assert!(
        rejection
            .errors()
            .iter()
            .any(|e| e.code == code && e.path == path),
        "{payload}: {:?}",
        rejection.errors()
    );
    if schema_can_say {
        assert!(!validator::<T>().is_valid(&payload), "{payload}");
    }
    rejection
}

/// What a computer-use tool does next.
#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(tag = "type")]
enum Action {
    Click {
        #[arg(min = 0)]
        x: i64,
        #[arg(min = 0)]
        y: i64,
    },
    #[arg(rename = "type")]
    TypeText {
        #[arg(min_len = 1)]
        text: String,
    },
    Scroll {
        dx: i64,
        dy: i64,
    },
    /// Capture the screen.
    Screenshot,
}

#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(effect = "external", unknown = "reject")]
struct Computer {
    action: Action,
    note: Option<String>,
}

#[test]
fn a_tagged_union_reads_the_variant_its_tag_names() {
    let args: Computer = clean(json!({"action": {"type": "click", "x": 10, "y": 20}}));
    assert_eq!(args.action, Action::Click { x: 10, y: 20 });
    let args: Computer = clean(json!({"action": {"type": "type", "text": "hello"}}));
    assert_eq!(
        args.action,
        Action::TypeText {
            text: "hello".into()
        }
    );
    let args: Computer = clean(json!({"action": {"type": "screenshot"}, "note": "n"}));
    assert_eq!(args.action, Action::Screenshot);
    // The tag need not come first.
    let args: Computer = clean(json!({"action": {"dx": 1, "type": "scroll", "dy": -3}}));
    assert_eq!(args.action, Action::Scroll { dx: 1, dy: -3 });
}

#[test]
fn the_canonical_form_writes_the_tag_first() {
    let value = Computer {
        action: Action::Scroll { dx: 1, dy: 2 },
        note: None,
    };
    assert_eq!(
        value.to_json().to_string(),
        r#"{"action":{"type":"scroll","dx":1,"dy":2}}"#
    );
    round_trip(&value);
}

#[test]
fn a_tag_in_the_wrong_case_is_enum_casefold() {
    let parsed =
        Computer::parse(r#"{"action": {"type": "Click", "x": "3", "y": 4}}"#).expect("repaired");
    assert_eq!(parsed.args.action, Action::Click { x: 3, y: 4 });
    let rules: Vec<(&str, Rule)> = parsed
        .repairs
        .iter()
        .map(|r| (r.path.as_str(), r.rule))
        .collect();
    assert_eq!(
        rules,
        [
            ("$.action.type", Rule::EnumCasefold),
            ("$.action.x", Rule::NumericStringToInt)
        ]
    );
}

#[test]
fn a_tagged_union_rejects_with_paths() {
    let r = rejected::<Computer>(
        json!({"action": {"type": "drag", "x": 1, "y": 2}}),
        Code::Enum,
        "$.action.type",
        true,
    );
    assert!(r.errors()[0].message.contains("\"screenshot\""), "{r}");
    rejected::<Computer>(
        json!({"action": {"x": 1, "y": 2}}),
        Code::Missing,
        "$.action.type",
        true,
    );
    rejected::<Computer>(
        json!({"action": {"type": "click", "x": -1, "y": 2}}),
        Code::OutOfRange,
        "$.action.x",
        true,
    );
    rejected::<Computer>(
        json!({"action": {"type": "click", "x": 1}}),
        Code::Missing,
        "$.action.y",
        true,
    );
    // Another variant's field is unknown here.
    rejected::<Computer>(
        json!({"action": {"type": "click", "x": 1, "y": 2, "text": "a"}}),
        Code::UnknownField,
        "$.action.text",
        true,
    );
    rejected::<Computer>(
        json!({"action": {"type": 3}}),
        Code::Type,
        "$.action.type",
        true,
    );
    rejected::<Computer>(json!({"action": "click"}), Code::Type, "$.action", true);
}

#[test]
fn a_tagged_union_schema_is_any_of_tagged_objects() {
    let schema = Computer::json_schema();
    let action = &schema["properties"]["action"];
    let branches = action["anyOf"].as_array().expect("anyOf");
    assert_eq!(branches.len(), 4);
    assert_eq!(
        branches[0],
        json!({
            "type": "object",
            "properties": {
                "type": {"type": "string", "const": "click"},
                "x": {"type": "integer", "minimum": 0},
                "y": {"type": "integer", "minimum": 0},
            },
            "required": ["type", "x", "y"],
            "additionalProperties": false,
        })
    );
    assert_eq!(branches[3]["required"], json!(["type"]));
    // A variant's doc comment describes its branch.
    assert_eq!(branches[3]["description"], "Capture the screen.");
}

/// A value for a settings field: a number, some text, or a range.
#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(untagged)]
enum Setting {
    /// How many.
    Count(i64),
    Label(String),
    Range {
        low: i64,
        high: i64,
    },
}

#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(effect = "additive", unknown = "reject")]
struct Configure {
    value: Setting,
}

/// Two variants that read the same objects.
#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(untagged)]
enum Target {
    Point { x: i64, y: Option<i64> },
    Spot { x: i64 },
}

#[derive(ToolArgs, Debug, Clone, PartialEq)]
struct Aim {
    target: Target,
}

/// Two numeric readings: a numeric string repairs into both.
#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(untagged)]
enum Level {
    Whole(i64),
    Fraction(f64),
}

#[derive(ToolArgs, Debug, Clone, PartialEq)]
struct SetLevel {
    level: Level,
}

#[test]
fn an_untagged_union_reads_the_one_variant_that_fits() {
    let args: Configure = clean(json!({"value": 3}));
    assert_eq!(args.value, Setting::Count(3));
    let args: Configure = clean(json!({"value": "three"}));
    assert_eq!(args.value, Setting::Label("three".into()));
    let args: Configure = clean(json!({"value": {"low": 1, "high": 2}}));
    assert_eq!(args.value, Setting::Range { low: 1, high: 2 });
}

#[test]
fn as_is_beats_repaired() {
    // "1999" is a string as is; that it would also repair into an integer does not count.
    let parsed = Configure::parse(r#"{"value": "1999"}"#).expect("parses");
    assert!(parsed.is_clean(), "{:?}", parsed.repairs);
    assert_eq!(parsed.args.value, Setting::Label("1999".into()));
    // With no variant taking it as is, the one repaired reading wins and its repair is kept.
    let parsed = Configure::parse(r#"{"value": {"low": "1", "high": 2}}"#).expect("parses");
    assert_eq!(parsed.args.value, Setting::Range { low: 1, high: 2 });
    assert_eq!(parsed.repairs.len(), 1);
    assert_eq!(parsed.repairs[0].path, "$.value.low");
    assert_eq!(parsed.repairs[0].rule, Rule::NumericStringToInt);
}

#[test]
fn two_readings_at_one_level_are_ambiguous() {
    let r = rejected::<Aim>(
        json!({"target": {"x": 1}}),
        Code::AmbiguousVariant,
        "$.target",
        false,
    );
    assert!(r.errors()[0].message.contains("\"point\", \"spot\""), "{r}");
    // One variant as is settles it.
    let args: Aim = clean(json!({"target": {"x": 1, "y": 2}}));
    assert_eq!(args.target, Target::Point { x: 1, y: Some(2) });
    // Two repaired readings are as ambiguous as two clean ones; none is repaired away.
    let r = rejected::<SetLevel>(
        json!({"level": "1"}),
        Code::AmbiguousVariant,
        "$.level",
        true,
    );
    assert_eq!(r.errors().len(), 1, "{r}");
    assert_eq!(Code::AmbiguousVariant.as_str(), "ambiguous_variant");
}

#[test]
fn no_reading_reports_the_closest_variant() {
    // The range is two errors away, the scalars one each (an object is no integer): the
    // first of the closest, `count`, is reported, and only its errors.
    let r = rejected::<Configure>(
        json!({"value": {"low": "a", "high": "b"}}),
        Code::Type,
        "$.value",
        true,
    );
    assert_eq!(r.errors().len(), 1, "{r}");
    assert!(r.errors()[0].message.contains("integer"), "{r}");
    // A list is one `type` error for every variant: the first again.
    let r = rejected::<Configure>(json!({"value": [1]}), Code::Type, "$.value", true);
    assert_eq!(r.errors().len(), 1, "{r}");
    // In a tagged union inside an untagged one the inner paths survive.
    let r = rejected::<Aim>(
        json!({"target": {"x": "a"}}),
        Code::AmbiguousInteger,
        "$.target.x",
        true,
    );
    assert_eq!(r.errors().len(), 1, "{r}");
}

#[test]
fn an_untagged_union_schema_is_any_of_its_variants() {
    let schema = Configure::json_schema();
    assert_eq!(
        schema["properties"]["value"]["anyOf"],
        json!([
            {"type": "integer", "description": "How many."},
            {"type": "string"},
            {
                "type": "object",
                "properties": {"low": {"type": "integer"}, "high": {"type": "integer"}},
                "required": ["low", "high"],
                "additionalProperties": false,
            },
        ])
    );
}

#[derive(ToolArgs, Debug, Clone, PartialEq)]
struct Batch {
    actions: Vec<Action>,
    values: Vec<Setting>,
}

#[test]
fn unions_in_lists_keep_their_paths_and_read_back() {
    let args: Batch = clean(json!({
        "actions": [{"type": "screenshot"}, {"type": "click", "x": 1, "y": 1}],
        "values": [1, "a", {"low": 0, "high": 9}],
    }));
    assert_eq!(args.actions.len(), 2);
    rejected::<Batch>(
        json!({"actions": [{"type": "screenshot"}, {"type": "click", "x": "left", "y": 1}], "values": []}),
        Code::AmbiguousInteger,
        "$.actions[1].x",
        true,
    );
}

#[test]
fn a_deep_payload_for_a_union_is_too_deep() {
    let mut deep = String::new();
    for _ in 0..1000 {
        deep.push('[');
    }
    for _ in 0..1000 {
        deep.push(']');
    }
    for payload in [
        format!(r#"{{"actions": {deep}, "values": []}}"#),
        format!(r#"{{"actions": [], "values": {deep}}}"#),
        format!(r#"{{"actions": [], "values": [{{"low": {deep}, "high": 1}}]}}"#),
    ] {
        let rejection = Batch::parse(&payload).expect_err("too deep");
        assert!(rejection.has_code(Code::TooDeep), "{rejection}");
    }
}

#[test]
fn every_dialect_takes_a_union() {
    use toolargs::Dialect;
    // OpenAI strict mode: `anyOf` of strict objects (every property required, no other key),
    // still strict: true.
    let strict = Computer::tool_definition(Dialect::OpenAiChat { strict: true });
    assert_eq!(strict["function"]["strict"], true);
    let action = &strict["function"]["parameters"]["properties"]["action"];
    assert!(action.get("oneOf").is_none());
    assert_eq!(
        action["anyOf"][1],
        json!({
            "type": "object",
            "properties": {
                "type": {"type": "string", "const": "type"},
                "text": {"type": "string", "description": "At least 1 character."},
            },
            "required": ["type", "text"],
            "additionalProperties": false,
        })
    );
    // Gemini: no `const`, so the tag is a one-value `enum`; no `additionalProperties`.
    let gemini = Computer::tool_definition(Dialect::Gemini);
    let action = &gemini["parameters"]["properties"]["action"];
    assert_eq!(
        action["anyOf"][0],
        json!({
            "type": "object",
            "properties": {
                "type": {"type": "string", "enum": ["click"]},
                "x": {"type": "integer", "minimum": 0},
                "y": {"type": "integer", "minimum": 0},
            },
            "required": ["type", "x", "y"],
        })
    );
    assert!(!gemini.to_string().contains("const"));
    // Every dialect keeps the union.
    for dialect in Dialect::ALL {
        let text = Computer::tool_definition(dialect).to_string();
        assert!(
            text.contains("anyOf") && !text.contains("oneOf"),
            "{dialect:?}"
        );
    }
    // An optional union in strict mode takes `null` as one more branch.
    let strict = Configure2::tool_definition(Dialect::OpenAiChat { strict: true });
    let value = &strict["function"]["parameters"]["properties"]["value"]["anyOf"];
    assert_eq!(
        value.as_array().unwrap().last(),
        Some(&json!({"type": "null"}))
    );
    let gemini = Configure2::tool_definition(Dialect::Gemini);
    assert_eq!(
        gemini["parameters"]["properties"]["value"]["anyOf"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
}

#[derive(ToolArgs, Debug, Clone, PartialEq)]
struct Configure2 {
    value: Option<Setting>,
}
