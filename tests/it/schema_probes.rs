//! Schemas as tool authors write them: the cases where a gate is easy to get wrong, each
//! checked against what the specification says (and, for verdicts, the `jsonschema` crate).

use serde_json::{json, Value};
use toolargs::{Code, Spec, UnknownPolicy};

use crate::common::validator;

fn load(schema: Value) -> Spec {
    Spec::from_schema(&schema).unwrap_or_else(|e| panic!("{schema}: {e}"))
}

/// The verdict on `instance`, sent as JSON text (a decoded string would be read as the text
/// of the arguments): `Ok((args, rules))` or `Err(codes)`.
fn verdict(spec: &Spec, instance: &Value) -> Result<(Value, Vec<String>), Vec<Code>> {
    match spec.parse(instance.to_string().as_str()) {
        Ok(p) => Ok((
            p.args,
            p.repairs.iter().map(|r| r.rule.to_string()).collect(),
        )),
        Err(r) => Err(r.errors().iter().map(|e| e.code).collect()),
    }
}

/// Accepted as sent, and valid to `jsonschema` too.
fn clean(schema: &Value, instance: Value) {
    let spec = load(schema.clone());
    assert_eq!(
        verdict(&spec, &instance),
        Ok((instance.clone(), vec![])),
        "{schema} {instance}"
    );
    assert!(validator(schema).is_valid(&instance), "{schema} {instance}");
}

/// Rejected with `code`, and invalid to `jsonschema` too.
fn rejected(schema: &Value, instance: Value, code: Code) {
    rejected_by_spec(schema, &instance, code);
    assert!(
        !validator(schema).is_valid(&instance),
        "{schema} {instance}"
    );
}

/// Rejected with `code`, where `jsonschema` 0.33 itself errs (it compares integers beyond
/// 2^53 through floats).
fn rejected_by_spec(schema: &Value, instance: &Value, code: Code) {
    let spec = load(schema.clone());
    let got = verdict(&spec, instance);
    assert!(
        matches!(&got, Err(codes) if codes.contains(&code)),
        "{schema} {instance}: {got:?}"
    );
}

#[test]
fn null_never_bypasses_another_keyword() {
    let nullable_enum = json!({"type": ["string", "null"], "enum": ["a", "b"]});
    rejected(&nullable_enum, Value::Null, Code::Enum);
    let enum_with_null = json!({"type": "string", "enum": ["a", null]});
    rejected(&enum_with_null, Value::Null, Code::Type);
    let const_null = json!({"type": "integer", "const": null});
    rejected(&const_null, Value::Null, Code::Type);
}

#[test]
fn type_is_checked_next_to_enum_and_const() {
    let schema = json!({"type": "integer", "enum": ["a", 1]});
    // "a" is not an integer, and no integer reading of it exists.
    rejected(&schema, json!("a"), Code::AmbiguousInteger);
    rejected(&schema, json!(true), Code::Type);
    clean(&schema, json!(1));
    let schema = json!({"type": "string", "enum": ["ab", "abcdef"], "maxLength": 3});
    rejected(&schema, json!("abcdef"), Code::Length);
    clean(&schema, json!("ab"));
}

#[test]
fn enum_and_const_use_json_equality() {
    clean(&json!({"enum": [[1]]}), json!([1.0]));
    clean(
        &json!({"const": {"a": [1, {"b": 2}]}}),
        json!({"a": [1.0, {"b": 2.0}]}),
    );
    rejected_by_spec(
        &json!({"const": 9007199254740993_u64}),
        &json!(9007199254740992_u64),
        Code::Enum,
    );
    clean(
        &json!({"const": 9007199254740993_u64}),
        json!(9007199254740993_u64),
    );
    rejected(&json!({"enum": [false]}), json!(0), Code::Enum);
}

#[test]
fn one_of_means_exactly_one() {
    let schema = json!({"oneOf": [{"type": "integer"}, {"minimum": 2}]});
    rejected(&schema, json!(3), Code::AmbiguousVariant);
    clean(&schema, json!(1));
    clean(&schema, json!(2.5));
}

#[test]
fn a_default_does_not_satisfy_required() {
    let schema = json!({
        "type": "object",
        "properties": {"limit": {"type": "integer", "default": 10}},
        "required": ["limit"]
    });
    rejected(&schema, json!({}), Code::Missing);
    let optional =
        json!({"type": "object", "properties": {"limit": {"type": "integer", "default": 10}}});
    let spec = load(optional);
    assert_eq!(
        verdict(&spec, &json!({})),
        Ok((json!({"limit": 10}), vec![]))
    );
}

#[test]
fn patterns_are_ecma_262() {
    let digits = json!({"type": "string", "pattern": "^\\d+$"});
    clean(&digits, json!("1999"));
    // Arabic-Indic digits are `\d` to Rust's Unicode classes, not to ECMA-262.
    rejected(&digits, json!("١٩٩٩"), Code::Pattern);
    let word = json!({"type": "string", "pattern": "^\\w+$"});
    rejected(&word, json!("é"), Code::Pattern);
    // Lookahead and backreferences are ECMA-262 too.
    clean(&json!({"pattern": "^(?=.*[0-9])(a|1)+$"}), json!("a1"));
    clean(&json!({"pattern": "^(ab)\\1$"}), json!("abab"));
}

#[test]
fn numbers_are_compared_exactly() {
    clean(&json!({"multipleOf": 0.1}), json!(0.3));
    rejected(&json!({"multipleOf": 0.1}), json!(0.35), Code::NotMultiple);
    // -2 = -4 × 0.5 (`jsonschema` 0.33 says otherwise for negative integers).
    let half = load(json!({"type": "integer", "multipleOf": 0.5}));
    assert_eq!(verdict(&half, &json!(-2)), Ok((json!(-2), vec![])));
    rejected_by_spec(
        &json!({"maximum": 9007199254740992_u64}),
        &json!(9007199254740993_u64),
        Code::OutOfRange,
    );
    rejected(
        &json!({"exclusiveMinimum": 1.5}),
        json!(1.5),
        Code::OutOfRange,
    );
    clean(&json!({"exclusiveMinimum": 1.5}), json!(1.5000001));
}

#[test]
fn lengths_count_code_points() {
    let schema = json!({"type": "string", "maxLength": 2});
    clean(&schema, json!("💩💩"));
    rejected(&schema, json!("💩💩💩"), Code::Length);
}

#[test]
fn an_object_without_properties_accepts_any_keys() {
    let schema = json!({
        "type": "object",
        "properties": {"filters": {"type": "object"}, "metadata": {"type": "object", "additionalProperties": {"type": "string"}}},
    });
    let spec = load(schema.clone());
    let call = json!({"filters": {"status": "open", "n": [1, 2]}, "metadata": {"team": "a"}});
    assert_eq!(verdict(&spec, &call), Ok((call.clone(), vec![])));
    // `additionalProperties` types the keys of a free-form object.
    let bad = json!({"metadata": {"team": 1}});
    assert_eq!(verdict(&spec, &bad), Err(vec![Code::Type]));
    // Where properties are declared, the tool's unknown-key policy still holds.
    assert_eq!(
        verdict(&spec, &json!({"filter": {}})),
        Err(vec![Code::UnknownField])
    );
}

#[test]
fn a_schema_without_type_accepts_what_its_keywords_allow() {
    let any = json!({"type": "object", "properties": {"value": {}}, "required": ["value"]});
    for value in [
        json!(1),
        json!("x"),
        json!(null),
        json!([1, {"a": 2}]),
        json!({"k": true}),
    ] {
        clean(&any, json!({"value": value}));
    }
    let bounded = json!({"minimum": 5});
    clean(&bounded, json!("not a number"));
    rejected(&bounded, json!(4), Code::OutOfRange);
}

#[test]
fn python_none_defaults_make_a_field_optional() {
    // FastMCP writes `x: str = None` as a string schema with a null default.
    let schema = json!({
        "type": "object",
        "properties": {"cursor": {"type": "string", "default": null}},
    });
    let spec = load(schema.clone());
    assert!(spec.warnings().is_empty(), "{:?}", spec.warnings());
    assert_eq!(verdict(&spec, &json!({})), Ok((json!({}), vec![])));
    // The field may be left out, but null is not a string: a strict validator rejects the
    // call as sent, so it is a repair (the field left out), not a clean call.
    let sent = json!({"cursor": null});
    assert!(!jsonschema::is_valid(&schema, &sent));
    assert_eq!(
        verdict(&spec, &sent),
        Ok((json!({}), vec!["null_to_absent".to_owned()]))
    );
    let quiet = toolargs::ParseOptions::DEFAULT.with_null_as_absent(true);
    let parsed = spec.parse_with(&(&sent).into(), &quiet).unwrap();
    assert!(parsed.is_clean());
    assert_eq!(
        verdict(&spec, &json!({"cursor": "abc"})),
        Ok((json!({"cursor": "abc"}), vec![]))
    );
}

#[test]
fn a_default_that_fails_its_schema_is_dropped_with_a_warning() {
    // BFCL writes booleans' defaults as strings.
    let spec = load(json!({
        "type": "object",
        "properties": {"verbose": {"type": "boolean", "default": "false"}}
    }));
    assert_eq!(spec.warnings().len(), 1);
    assert_eq!(spec.warnings()[0].pointer, "/properties/verbose/default");
    assert_eq!(verdict(&spec, &json!({})), Ok((json!({}), vec![])));
}

#[test]
fn unions_repair_only_with_one_meaning() {
    let number_or_string = json!({"anyOf": [{"type": "number"}, {"type": "string"}]});
    clean(&number_or_string, json!("19.99"));
    clean(&number_or_string, json!(19.99));
    let int_or_bool = json!({"type": "object", "properties": {"v": {"anyOf": [{"type": "integer"}, {"type": "boolean"}]}}});
    let spec = load(int_or_bool);
    assert_eq!(
        verdict(&spec, &json!({"v": "7"})),
        Ok((json!({"v": 7}), vec!["numeric_string_to_int".to_owned()]))
    );
    let int_or_number =
        json!({"anyOf": [{"type": "integer", "minimum": 10}, {"type": "number", "maximum": 5}]});
    let spec = load(int_or_number);
    assert_eq!(verdict(&spec, &json!("7")), Err(vec![Code::OutOfRange]));
    let two_readings =
        json!({"anyOf": [{"type": "integer"}, {"type": "array", "items": {"type": "string"}}]});
    let spec = load(two_readings);
    assert_eq!(
        verdict(&spec, &json!("7")),
        Err(vec![Code::AmbiguousVariant])
    );
    // Nothing under `not` is repaired: "5" is not an integer as sent.
    clean(&json!({"not": {"type": "integer"}}), json!("5"));
}

#[test]
fn all_of_branches_accept_the_same_repaired_value() {
    let schema = json!({"type": "object", "properties": {"n": {"allOf": [{"type": "integer"}, {"minimum": 5}]}}});
    let spec = load(schema);
    assert_eq!(
        verdict(&spec, &json!({"n": "7"})),
        Ok((json!({"n": 7}), vec!["numeric_string_to_int".to_owned()]))
    );
    assert_eq!(
        verdict(&spec, &json!({"n": "3"})),
        Err(vec![Code::OutOfRange])
    );
}

#[test]
fn formats_are_asserted_with_a_code_each() {
    for (format, good, bad, code) in [
        ("email", "a@example.com", "a@", Code::InvalidEmail),
        (
            "uuid",
            "2eb8aa08-aa98-11ea-b4aa-73b441d16380",
            "2eb8aa08",
            Code::InvalidUuid,
        ),
        (
            "uri",
            "https://example.com/a",
            "example.com/a",
            Code::InvalidUri,
        ),
        ("ipv4", "192.0.2.1", "192.0.2", Code::InvalidIpv4),
        ("ipv6", "2001:db8::1", "2001:db8:::1", Code::InvalidIpv6),
        (
            "hostname",
            "example.com",
            "-example.com",
            Code::InvalidHostname,
        ),
        ("time", "14:30:00Z", "14:30", Code::InvalidTime),
    ] {
        let schema = json!({"type": "string", "format": format});
        clean(&schema, json!(good));
        let spec = load(schema);
        assert_eq!(verdict(&spec, &json!(bad)), Err(vec![code]), "{format}");
    }
    let unknown = load(json!({"type": "string", "format": "color"}));
    assert_eq!(unknown.warnings().len(), 1);
    assert!(verdict(&unknown, &json!("anything")).is_ok());
}

#[test]
fn references_recurse_and_keep_their_siblings() {
    let tree = json!({
        "$defs": {"node": {"type": "object", "properties": {
            "name": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}
        }, "required": ["name"]}},
        "$ref": "#/$defs/node",
        "description": "a tree",
        "default": {"name": "root"},
        "maxProperties": 2
    });
    clean(
        &tree,
        json!({"name": "a", "children": [{"name": "b", "children": []}]}),
    );
    rejected(
        &tree,
        json!({"name": "a", "children": [{"children": []}]}),
        Code::Missing,
    );
    let spec = load(tree);
    // Unknown keys are judged once the schemas that apply in place agree on the rest.
    assert_eq!(
        verdict(&spec, &json!({"name": "a", "extra": 1})).unwrap_err(),
        vec![Code::UnknownField]
    );
    assert_eq!(
        verdict(&spec, &json!({"name": "a", "children": [], "extra": 1})).unwrap_err(),
        vec![Code::PropertyCount]
    );
}

#[test]
fn sets_are_unique_by_json_equality() {
    let set = json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true});
    clean(&set, json!(["a", "b"]));
    rejected(&set, json!(["a", "a"]), Code::DuplicateItem);
    rejected(
        &json!({"uniqueItems": true}),
        json!([1, 1.0]),
        Code::DuplicateItem,
    );
    clean(&json!({"uniqueItems": false}), json!([1, 1]));
}

#[test]
fn enum_values_equal_but_for_case_lose_the_case_repair() {
    let spec = load(json!({"type": "string", "enum": ["GET", "get", "POST"]}));
    assert_eq!(spec.warnings().len(), 1);
    assert_eq!(verdict(&spec, &json!("get")), Ok((json!("get"), vec![])));
    assert_eq!(verdict(&spec, &json!("Get")), Err(vec![Code::Enum]));
    // Where it has one meaning, the repair stays.
    let spec = load(json!({"type": "string", "enum": ["GET", "POST"]}));
    assert_eq!(
        verdict(&spec, &json!("post")),
        Ok((json!("POST"), vec!["enum_casefold".to_owned()]))
    );
}

#[test]
fn draft_07_and_openapi_3_load() {
    let draft7 = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "definitions": {"pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "additionalItems": false}},
        "properties": {"p": {"$ref": "#/definitions/pair"}, "q": {"type": "integer"}},
        "dependencies": {"p": ["q"]}
    });
    let spec = load(draft7);
    assert!(verdict(&spec, &json!({"p": ["a", 1], "q": 1})).is_ok());
    assert!(verdict(&spec, &json!({"p": ["a", 1, 2], "q": 1})).is_err());
    assert_eq!(
        verdict(&spec, &json!({"p": ["a", 1]})),
        Err(vec![Code::Missing])
    );
    let openapi = json!({
        "type": "object",
        "properties": {"n": {"type": "integer", "nullable": true, "minimum": 0, "exclusiveMinimum": true}}
    });
    let spec = load(openapi);
    assert!(verdict(&spec, &json!({"n": null})).is_ok());
    assert!(verdict(&spec, &json!({"n": 0})).is_err());
    assert!(verdict(&spec, &json!({"n": 1})).is_ok());
}

#[test]
fn boolean_schemas_and_an_empty_tool() {
    let spec = load(json!({"type": "object", "properties": {"a": true, "b": false}}));
    assert!(verdict(&spec, &json!({"a": [1]})).is_ok());
    assert_eq!(
        verdict(&spec, &json!({"b": 1})),
        Err(vec![Code::NotAllowed])
    );
    // A tool that declares no parameters takes an empty object.
    let tool =
        Spec::from_tool_definition(&json!({"name": "now", "description": "The time."})).unwrap();
    assert!(tool.parse("{}").is_ok());
    assert!(tool.parse(r#"{"tz": "UTC"}"#).is_err());
    let stripping = tool.with_default_unknown(UnknownPolicy::Strip);
    assert!(stripping.parse(r#"{"tz": "UTC"}"#).is_ok());
}

#[test]
fn a_number_no_json_value_holds_is_never_passed_on_changed() {
    let big = "18446744073709551616";
    for schema in [
        json!({"type": "object", "additionalProperties": true}),
        json!({"type": "object"}),
        json!({"type": "object", "properties": {"v": {"type": "integer"}}}),
        json!({"type": "object", "properties": {"v": {}}}),
        json!({"type": "object", "properties": {"w": {}}, "additionalProperties": {}}),
    ] {
        let spec = load(schema.clone());
        let rejection = spec
            .parse(format!(r#"{{"v": {big}}}"#).as_str())
            .expect_err("lossy");
        // An integer schema reads integers within 64 bits, as a derived type's field does.
        let integer = schema["properties"]["v"]["type"] == "integer";
        let code = if integer {
            Code::OutOfRange
        } else {
            Code::LossyNumber
        };
        assert_eq!(rejection.errors()[0].code, code, "{schema}");
        // The largest integer a JSON value holds passes through as sent.
        let parsed = spec.parse(r#"{"v": 18446744073709551615}"#);
        if let Ok(parsed) = parsed {
            assert_eq!(
                parsed.args["v"],
                json!(18446744073709551615_u64),
                "{schema}"
            );
        }
    }
}

#[test]
fn a_schema_that_never_finishes_is_refused_or_stopped() {
    for schema in [
        json!({"$ref": "#"}),
        json!({"allOf": [{"$ref": "#/$defs/a"}], "$defs": {"a": {"anyOf": [{"$ref": "#"}]}}}),
        json!({"not": {"$ref": "#"}}),
    ] {
        let error = Spec::from_schema(&schema).expect_err("refused");
        assert!(
            error.to_string().contains("without end"),
            "{schema}: {error}"
        );
    }
    // Shared references that double the work at every level: stopped, not left running.
    let defs = crate::common::doubling_defs();
    let spec = load(json!({"$defs": defs, "$ref": "#/$defs/l0"}));
    let rejection = spec.parse("true").expect_err("too many steps");
    assert_eq!(rejection.errors()[0].code, Code::TooDeep);
}

#[test]
fn a_recursive_schema_reads_values_as_deep_as_the_limits_allow() {
    let spec = load(json!({"type": "array", "items": {"$ref": "#"}}));
    let depth = toolargs::Limits::default().max_depth;
    let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    assert!(spec.parse(text.as_str()).is_ok());
    let tree = load(
        json!({"anyOf": [{"type": "array", "items": {"$ref": "#"}}, {"type": "object", "additionalProperties": {"$ref": "#"}}]}),
    );
    let text = format!(
        "{}[]{}",
        "[{\"a\":".repeat(depth / 2 - 1),
        "}]".repeat(depth / 2 - 1)
    );
    assert!(tree.parse(text.as_str()).is_ok());
}

#[test]
fn judging_without_building_gives_the_same_verdict() {
    let schemas = [
        json!({"type": "object", "properties": {"n": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}, "flag": {"type": "boolean", "default": false}}, "required": ["n"]}),
        json!({"type": "object", "properties": {"v": {"anyOf": [{"type": "integer"}, {"type": "boolean"}]}}, "allOf": [{"required": ["v"]}]}),
        json!({"type": "array", "contains": {"type": "integer", "minimum": 3}, "items": {"type": ["integer", "string"]}}),
        json!({"type": "object", "unevaluatedProperties": false, "properties": {"a": {"type": "string"}}, "if": {"required": ["a"]}, "then": {"properties": {"b": {"type": "integer"}}}}),
    ];
    let instances = [
        json!({"n": "5", "tags": "x"}),
        json!({"n": 5, "tags": ["a", "a"]}),
        json!({"n": null, "flag": "true", "extra": 1}),
        json!({"v": "7"}),
        json!({"v": "yes"}),
        json!({}),
        json!([1, "2", 3]),
        json!(["a", 1]),
        json!({"a": "x", "b": "2"}),
        json!({"a": "x", "c": 1}),
    ];
    // Numbers no JSON reader keeps exactly, which only the text can carry.
    let lossy = [
        r#"{"n": 123456789012345678901234567890, "flag": true}"#,
        r#"{"n": 5, "extra": 1e400}"#,
        r#"[1e400, 3]"#,
        r#"{"v": -98765432109876543210}"#,
    ];
    let texts = instances
        .iter()
        .map(Value::to_string)
        .chain(lossy.map(String::from));
    let any = [json!({}), json!({"type": "number"})];
    let specs: Vec<_> = schemas
        .iter()
        .chain(&any)
        .map(|schema| (schema, load(schema.clone())))
        .collect();
    for text in texts {
        for (schema, spec) in &specs {
            let raw = toolargs::RawArgs::from(text.as_str());
            let built = spec.parse_with(&raw, &toolargs::ParseOptions::DEFAULT);
            let judged = spec.check_with(&raw, &toolargs::ParseOptions::DEFAULT);
            assert_eq!(built.map(|p| p.repairs), judged, "{schema} {text}");
        }
    }
}
