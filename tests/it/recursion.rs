//! Recursive types: `Box<T>`, a union that contains itself, and a struct whose children are
//! its own type. Their schemas refer to themselves through `$defs`/`$ref` instead of growing
//! without end, every dialect can show them, and input nested past `Limits::max_depth` is a
//! clean `too_deep` rejection, never a stack overflow.

use std::collections::BTreeMap;

use crate::common::validator_ignoring_formats as validator;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::strategy::Union;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{json, Value};
use toolargs::{Dialect, Limits, ParseOptions, ToolArgs};
use toolargs_core::provider::Provider;

/// A boolean filter over labels.
#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(tag = "op")]
enum Filter {
    /// Every filter holds.
    And { all: Vec<Filter> },
    /// Some filter holds.
    Or { any: Vec<Filter> },
    /// The filter does not hold.
    Not { not: Box<Filter> },
    /// A label has this value.
    Label { key: String, value: String },
}

/// Lists matching items.
#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(effect = "read_only", unknown = "reject")]
struct FindItems {
    filter: Option<Filter>,
    #[arg(min = 1, max = 100)]
    limit: Option<i64>,
}

/// A tree of named nodes.
#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(effect = "additive", unknown = "reject")]
struct Node {
    name: String,
    children: Vec<Self>,
    next: Option<Box<Node>>,
}

/// Two types that contain each other, neither directly itself.
#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(effect = "additive", unknown = "reject")]
struct Section {
    title: String,
    parts: Vec<Part>,
}

#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(effect = "additive", unknown = "reject")]
struct Part {
    text: String,
    section: Option<Section>,
}

fn label(key: &str, value: &str) -> Filter {
    Filter::Label {
        key: key.to_owned(),
        value: value.to_owned(),
    }
}

fn sample_calls() -> Vec<Value> {
    vec![
        json!({}),
        json!({"filter": {"op": "label", "key": "team", "value": "core"}, "limit": 5}),
        json!({"filter": {"op": "and", "all": [
            {"op": "label", "key": "team", "value": "core"},
            {"op": "not", "not": {"op": "or", "any": [
                {"op": "label", "key": "state", "value": "closed"},
                {"op": "and", "all": []}
            ]}}
        ]}}),
    ]
}

#[test]
fn box_is_transparent() {
    #[derive(ToolArgs, Debug, PartialEq)]
    #[toolargs(effect = "read_only")]
    struct Boxed {
        #[arg(min = 0, max = 9)]
        n: Box<i64>,
        s: Option<Box<bool>>,
    }
    let parsed = Boxed::parse(r#"{"n": 3, "s": true}"#).expect("parses");
    assert!(parsed.is_clean());
    assert_eq!(*parsed.args.n, 3);
    assert_eq!(parsed.args.to_json(), json!({"n": 3, "s": true}));
    let schema = Boxed::json_schema();
    assert_eq!(
        schema["properties"]["n"],
        json!({"type": "integer", "minimum": 0, "maximum": 9})
    );
    assert!(schema.get("$defs").is_none());
    assert!(Boxed::parse(r#"{"n": 10}"#).is_err());
}

#[test]
fn a_recursive_union_is_a_definition_used_by_reference() {
    let schema = FindItems::json_schema();
    assert_eq!(
        schema["properties"]["filter"],
        json!({"$ref": "#/$defs/Filter"})
    );
    let filter = &schema["$defs"]["Filter"];
    assert_eq!(filter["description"], "A boolean filter over labels.");
    let branches = filter["anyOf"].as_array().expect("a union");
    assert_eq!(branches.len(), 4);
    assert_eq!(
        branches[0]["properties"]["all"],
        json!({"type": "array", "items": {"$ref": "#/$defs/Filter"}})
    );
    assert_eq!(
        branches[2]["properties"]["not"],
        json!({"$ref": "#/$defs/Filter"})
    );
    // The same schema twice: building it leaves nothing behind on the thread.
    assert_eq!(FindItems::json_schema(), schema);
    // `$defs` comes last, after the body.
    assert_eq!(
        schema.as_object().unwrap().keys().next_back().unwrap(),
        "$defs"
    );
}

#[test]
fn recursive_calls_parse_clean_and_validate() {
    let check = validator(&FindItems::json_schema());
    for call in sample_calls() {
        let parsed = FindItems::parse(call.to_string()).expect("parses");
        assert!(parsed.is_clean(), "{call}: {:?}", parsed.repairs);
        assert!(check.is_valid(&call), "{call}");
        let json = parsed.args.to_json();
        assert!(check.is_valid(&json), "{json}");
        let again = FindItems::parse(json.to_string()).expect("round trip");
        assert_eq!(again.args, parsed.args);
    }
    let parsed = FindItems::parse(sample_calls()[2].to_string()).unwrap();
    let Some(Filter::And { all }) = &parsed.args.filter else {
        panic!("an and");
    };
    assert_eq!(all[0], label("team", "core"));
}

#[test]
fn errors_deep_inside_carry_their_path() {
    let rejection = FindItems::parse(
        json!({"filter": {"op": "not", "not": {"op": "and", "all": [{"op": "label", "key": "k"}]}}})
            .to_string(),
    )
    .expect_err("value is missing");
    let e = &rejection.errors()[0];
    assert_eq!(e.code.to_string(), "missing");
    assert_eq!(e.path, "$.filter.not.all[0].value");
    // A repair deep inside is still a repair: the tag's case.
    let parsed = FindItems::parse(
        json!({"filter": {"op": "NOT", "not": {"op": "label", "key": "k", "value": "v"}}})
            .to_string(),
    )
    .expect("repaired");
    assert_eq!(parsed.repairs.len(), 1);
    assert_eq!(
        parsed.args.filter,
        Some(Filter::Not {
            not: Box::new(label("k", "v"))
        })
    );
}

#[test]
fn a_recursive_root_is_inline_and_defined() {
    let schema = Node::json_schema();
    assert_eq!(schema["type"], "object");
    assert_eq!(
        schema["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Node"})
    );
    assert_eq!(
        schema["properties"]["next"],
        json!({"$ref": "#/$defs/Node"})
    );
    assert_eq!(schema["$defs"]["Node"]["properties"], schema["properties"]);
    let call = json!({"name": "a", "children": [{"name": "b", "children": [], "next": {"name": "c", "children": []}}]});
    let parsed = Node::parse(call.to_string()).expect("parses");
    assert!(parsed.is_clean(), "{:?}", parsed.repairs);
    assert!(validator(&schema).is_valid(&call));
    assert!(!validator(&schema)
        .is_valid(&json!({"name": "a", "children": [{"name": 1, "children": []}]})));
}

#[test]
fn types_in_a_cycle_are_defined_once() {
    let schema = Section::json_schema();
    let defs = schema["$defs"].as_object().expect("defs");
    assert_eq!(defs.keys().collect::<Vec<_>>(), ["Section"]);
    // `Part` is not recursive on its own account: it stays inline inside `Section`.
    assert_eq!(
        schema["properties"]["parts"]["items"]["properties"]["section"],
        json!({"$ref": "#/$defs/Section"})
    );
    let part = Part::json_schema();
    assert_eq!(
        part["properties"]["section"]["properties"]["parts"]["items"],
        json!({"$ref": "#/$defs/Part"})
    );
    let call =
        json!({"title": "t", "parts": [{"text": "x", "section": {"title": "u", "parts": []}}]});
    assert!(Section::parse(call.to_string()).unwrap().is_clean());
    assert!(validator(&schema).is_valid(&call));
}

#[test]
fn the_schema_asked_of_a_nested_type_carries_its_definitions() {
    use toolargs::ext::ArgType;
    let schema = <Vec<Filter> as ArgType>::schema(&toolargs::ext::FieldSpec::NONE);
    // The outermost derived type is written out, with its `$defs`.
    assert!(schema["items"]["anyOf"].is_array());
    assert!(schema["items"]["$defs"]["Filter"].is_object());
}

#[test]
fn a_filter_nested_ten_thousand_deep_is_too_deep() {
    let mut text = String::new();
    for _ in 0..10_000 {
        text.push_str(r#"{"op": "not", "not": "#);
    }
    text.push_str(r#"{"op": "label", "key": "k", "value": "v"}"#);
    text.push_str(&"}".repeat(10_000));
    let call = format!(r#"{{"filter": {text}}}"#);
    let rejection = FindItems::parse(call.as_str()).expect_err("too deep");
    assert_eq!(rejection.errors().len(), 1);
    assert_eq!(rejection.errors()[0].code.to_string(), "too_deep");
}

#[test]
fn a_union_nested_a_thousand_deep_through_lists_is_too_deep() {
    let mut text = String::new();
    for _ in 0..1_000 {
        text.push_str(r#"{"op": "or", "any": ["#);
    }
    text.push_str(&"]}".repeat(1_000));
    let call = format!(r#"{{"filter": {text}}}"#);
    let rejection = FindItems::parse(call.as_str()).expect_err("too deep");
    assert_eq!(rejection.errors()[0].code.to_string(), "too_deep");
}

#[test]
fn nesting_within_the_limit_parses() {
    let mut filter = label("k", "v");
    for _ in 0..20 {
        filter = Filter::Not {
            not: Box::new(filter),
        };
    }
    let call = FindItems {
        filter: Some(filter),
        limit: None,
    };
    let parsed = FindItems::parse(call.to_json().to_string()).expect("parses");
    assert!(parsed.is_clean());
    assert_eq!(parsed.args, call);
}

#[test]
fn every_dialect_shows_a_recursive_tool() {
    let plain = FindItems::json_schema();
    for dialect in Dialect::ALL {
        let definition = FindItems::tool_definition(dialect);
        let text = definition.to_string();
        match dialect {
            Dialect::Gemini => assert!(
                definition.get("parameters").is_none()
                    && definition["parametersJsonSchema"]["$defs"]
                        .get("Filter")
                        .is_some(),
                "{text}"
            ),
            _ => assert!(
                text.contains("\"$defs\"") && text.contains("#/$defs/Filter"),
                "{dialect:?}: {text}"
            ),
        }
    }
    // Strict mode keeps strict objects inside the definitions too.
    let strict = FindItems::tool_definition(Dialect::OpenAiChat { strict: true });
    assert_eq!(strict["function"]["strict"], true);
    let parameters = &strict["function"]["parameters"];
    let not = &parameters["$defs"]["Filter"]["anyOf"][2];
    assert_eq!(not["additionalProperties"], false);
    assert_eq!(not["required"], json!(["op", "not"]));
    let _ = plain;
}

#[test]
fn gemini_is_sent_a_recursive_tool_as_json_schema() {
    // Gemini's OpenAPI subset has no `$ref`; its `parametersJsonSchema` field takes the plain
    // schema, references included.
    let definition = FindItems::tool_definition(Dialect::Gemini);
    let mut plain = FindItems::json_schema();
    let header = plain.as_object_mut().unwrap();
    header.shift_remove("$schema");
    header.shift_remove("title");
    header.shift_remove("description");
    assert_eq!(definition["parametersJsonSchema"], plain);
}

#[test]
fn calls_in_every_dialect_parse_clean() {
    for dialect in Dialect::ALL {
        let options = dialect.parse_options();
        for call in sample_calls() {
            let parsed =
                toolargs::parse_with::<FindItems>(&(&call).into(), &options).expect("parses");
            assert!(parsed.is_clean(), "{dialect:?}: {call}");
        }
        // Strict mode sends null for what it leaves out.
        let call = json!({"filter": {"op": "label", "key": "k", "value": "v"}, "limit": null});
        let parsed = toolargs::parse_with::<FindItems>(&(&call).into(), &options);
        assert_eq!(
            parsed.is_ok_and(|p| p.is_clean()),
            dialect.is_strict(),
            "{dialect:?}"
        );
    }
}

#[test]
fn a_map_of_a_hundred_thousand_keys_is_read_or_refused_in_linear_time() {
    #[derive(ToolArgs, Debug)]
    #[toolargs(effect = "read_only")]
    struct Tag {
        labels: BTreeMap<String, String>,
    }
    let mut text = String::from(r#"{"labels": {"#);
    for i in 0..100_000 {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&format!(r#""k{i}": "v""#));
    }
    text.push_str("}}");
    // The default limits refuse it at the object, before any key is read twice.
    let rejection = Tag::parse(text.as_str()).expect_err("too many keys");
    assert_eq!(rejection.errors().len(), 1);
    assert_eq!(rejection.errors()[0].code.to_string(), "too_many_keys");
    // Raised limits read every key once: duplicates through a hash set, entries into the map.
    let options = ParseOptions::DEFAULT.with_limits(Limits::DEFAULT.with_max_keys(200_000));
    let parsed = toolargs::parse_with::<Tag>(&text.as_str().into(), &options).expect("parses");
    assert!(parsed.is_clean());
    assert_eq!(parsed.args.labels.len(), 100_000);
}

/// Values `schema` accepts, following `$ref`s into `defs` at most `depth` times; past that, a
/// reference takes only the branches of its union that refer to nothing.
fn conforming(schema: &Value, defs: &Value, depth: u32) -> BoxedStrategy<Value> {
    if let Some(target) = schema.get("$ref").and_then(Value::as_str) {
        let name = target.strip_prefix("#/$defs/").expect("a local definition");
        let definition = &defs[name];
        if depth > 0 {
            return conforming(definition, defs, depth - 1);
        }
        let leaves: Vec<Value> = definition["anyOf"]
            .as_array()
            .expect("a recursive union")
            .iter()
            .filter(|b| !b.to_string().contains("$ref"))
            .cloned()
            .collect();
        return Union::new(leaves.iter().map(|b| conforming(b, defs, 0))).boxed();
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return proptest::sample::select(values.clone()).boxed();
    }
    if let Some(value) = schema.get("const") {
        return Just(value.clone()).boxed();
    }
    if let Some(branches) = schema.get("anyOf").and_then(Value::as_array) {
        return Union::new(branches.iter().map(|b| conforming(b, defs, depth))).boxed();
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t],
        Value::Array(types) => types.iter().filter_map(Value::as_str).collect(),
        other => panic!("a schema without a type: {other}"),
    };
    let of_type = |t: &str| -> BoxedStrategy<Value> {
        match t {
            "null" => Just(Value::Null).boxed(),
            "integer" => {
                let low = schema["minimum"].as_i64().unwrap_or(-1000);
                let high = schema["maximum"].as_i64().unwrap_or(1000);
                (low..=high).prop_map(Value::from).boxed()
            }
            "string" => "[a-z]{0,4}".prop_map(Value::from).boxed(),
            "array" => vec(conforming(&schema["items"], defs, depth), 0..=2)
                .prop_map(Value::Array)
                .boxed(),
            "object" => {
                let required = schema["required"].as_array().cloned().unwrap_or_default();
                let members: Vec<BoxedStrategy<Option<(String, Value)>>> = schema["properties"]
                    .as_object()
                    .expect("properties")
                    .iter()
                    .map(|(name, prop)| {
                        let name = name.clone();
                        let value = conforming(prop, defs, depth);
                        if required.contains(&Value::from(name.as_str())) {
                            value.prop_map(move |v| Some((name.clone(), v))).boxed()
                        } else {
                            proptest::option::of(value)
                                .prop_map(move |v| v.map(|v| (name.clone(), v)))
                                .boxed()
                        }
                    })
                    .collect();
                members
                    .prop_map(|m| Value::Object(m.into_iter().flatten().collect()))
                    .boxed()
            }
            other => panic!("unexpected type {other}"),
        }
    };
    Union::new(types.into_iter().map(of_type)).boxed()
}

#[test]
fn calls_conforming_to_a_recursive_schema_parse_clean() {
    let plain_check = validator(&FindItems::json_schema());
    for dialect in Dialect::ALL {
        let definition = FindItems::tool_definition(dialect);
        // Where the registry of providers says the dialect's provider keeps it.
        let schema = Provider::definition_parts(&definition)
            .1
            .cloned()
            .unwrap_or_default();
        let check = validator(&schema);
        let options = dialect.parse_options();
        let config = Config {
            cases: 128,
            failure_persistence: None,
            ..Config::default()
        };
        let strategy = conforming(&schema, &schema["$defs"], 3);
        let outcome = TestRunner::new(config).run(&strategy, |call| {
            prop_assert!(check.is_valid(&call), "the generator made {call}");
            let parsed =
                toolargs::parse_with::<FindItems>(&(&call).into(), &options).map_err(|e| {
                    TestCaseError::fail(format!("{dialect:?}: {call}: {}", e.for_model()))
                })?;
            prop_assert!(
                parsed.is_clean(),
                "{dialect:?}: {call}: {:?}",
                parsed.repairs
            );
            prop_assert!(plain_check.is_valid(&parsed.args.to_json()));
            Ok(())
        });
        if let Err(e) = outcome {
            panic!("{e}");
        }
    }
}

/// The dynamic loader keeps `$ref` as an edge of its graph, so a derived recursive schema
/// loads back and reads calls as the derived parser does, repairs and errors alike.
#[cfg(feature = "dynamic")]
#[test]
fn the_dynamic_loader_reads_a_recursive_schema_like_the_derived_parser() {
    let spec = toolargs::Spec::from_schema(&FindItems::json_schema()).expect("loads");
    let deep = {
        let mut filter = label("k", "v");
        for _ in 0..20 {
            filter = Filter::Not {
                not: Box::new(filter),
            };
        }
        FindItems {
            filter: Some(filter),
            limit: Some(5),
        }
    };
    for call in [
        deep.to_json(),
        serde_json::json!({"filter": {"op": "or", "any": [{"op": "label", "key": "k", "value": "v"}]}, "limit": "7"}),
        serde_json::json!({"filter": {"op": "or", "any": [{"op": "label", "key": "k"}]}}),
        serde_json::json!({"filter": {"op": "and", "all": [{"op": "not", "not": {"op": "label", "key": "k", "value": 1}}]}}),
    ] {
        let derived = FindItems::parse(&call);
        let dynamic = spec.parse(&call);
        match (derived, dynamic) {
            (Ok(d), Ok(s)) => {
                assert_eq!(s.args, d.args.to_json(), "{call}");
                assert_eq!(s.repairs, d.repairs, "{call}");
            }
            (Err(d), Err(s)) => {
                let codes = |r: &toolargs::Rejection| -> Vec<(String, String)> {
                    r.errors()
                        .iter()
                        .map(|e| (e.code.to_string(), e.path.clone()))
                        .collect()
                };
                assert_eq!(codes(&s), codes(&d), "{call}");
            }
            (d, s) => panic!("{call}: derived {d:?}, dynamic {s:?}"),
        }
    }
    assert!(toolargs::Spec::from_schema(&Node::json_schema()).is_ok());
}
