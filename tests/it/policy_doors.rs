//! One coercer decides each repair, whichever door a call comes through: a derived type and a
//! `Spec` loaded from that type's schema give the same verdict on the inputs each rule is
//! about, and the loaded schema's own reading (what a schema alone says) follows the
//! coercer's answer: a lone string for a list (`list::wraps_scalar`), an enum value in the
//! wrong case (`enumeration::casefold_allowed`), an integer written as a float
//! (`integer::is_integer_as_sent`, `integer::same_number`), and the envelope of the payload.

use chrono::NaiveDate;
use serde_json::{json, Value};
use toolargs::ext::coerce::enumeration::casefold_allowed;
use toolargs::ext::coerce::integer::same_number;
use toolargs::ext::coerce::list::wraps_scalar;
use toolargs::ext::coerce::ArgType;
use toolargs::{Parsed, RawArgs, Rejection, Rule, Spec, ToolArgs};

/// A value in one of two words.
#[derive(ToolArgs, Debug, Clone, Copy, PartialEq)]
enum Mode {
    Fast,
    Careful,
}

/// One field per rule.
#[derive(ToolArgs, Debug, PartialEq)]
#[toolargs(effect = "read_only")]
struct Doors {
    tags: Option<Vec<String>>,
    days: Option<Vec<NaiveDate>>,
    ids: Option<Vec<i64>>,
    mode: Option<Mode>,
    count: Option<i64>,
}

/// Repairs as (path, rule), or errors as (path, code, message).
type Verdict = Result<Vec<(String, String)>, Vec<(String, String, String)>>;

fn verdict<T>(result: Result<Parsed<T>, Rejection>) -> Verdict {
    match result {
        Ok(p) => Ok(p
            .repairs
            .iter()
            .map(|r| (r.path.clone(), r.rule.to_string()))
            .collect()),
        Err(r) => Err(r
            .errors()
            .iter()
            .map(|e| (e.path.clone(), e.code.to_string(), e.message.clone()))
            .collect()),
    }
}

/// Judges `input` on both doors, asserts they agree, and returns the verdict.
fn both<'a>(input: impl Into<RawArgs<'a>>) -> Verdict {
    let input = input.into();
    let spec = Spec::from_schema(&Doors::json_schema()).unwrap();
    let derived = verdict(Doors::parse(&input));
    assert_eq!(derived, verdict(spec.parse(&input)), "{input:?}");
    derived
}

/// The rules of an accepted call's repairs; `None` for a rejected one.
fn rules_of(verdict: &Verdict) -> Option<Vec<&str>> {
    match verdict {
        Ok(repairs) => Some(repairs.iter().map(|(_, rule)| rule.as_str()).collect()),
        Err(_) => None,
    }
}

#[test]
fn a_lone_string_is_a_list_where_the_list_coercer_says_so() {
    // What each derived item type honours, asked of the one function.
    assert!(wraps_scalar(<String as ArgType>::HONOURS));
    assert!(wraps_scalar(<NaiveDate as ArgType>::HONOURS));
    assert!(!wraps_scalar(<i64 as ArgType>::HONOURS));
    assert!(!wraps_scalar(<Vec<String> as ArgType>::HONOURS));
    for (field, value, wraps) in [
        ("tags", json!("fragile"), true),
        ("days", json!("2026-03-01"), true),
        ("ids", json!("7"), false),
    ] {
        let v = both(json!({ field: value }));
        assert_eq!(
            rules_of(&v) == Some(vec!["scalar_to_list"]),
            wraps,
            "{field}"
        );
    }
    // A string with more than one reading is refused the same way on both.
    for value in ["a,b", "a;b", "[\"a\"]", "  "] {
        let v = both(json!({ "tags": value }));
        assert!(v.is_err(), "{value}: {v:?}");
    }
}

#[test]
fn an_enum_value_in_the_wrong_case_is_folded_where_the_enum_coercer_says_so() {
    for (value, rules) in [
        ("careful", Some(vec![])),
        ("CAREFUL", Some(vec!["enum_casefold"])),
        ("Careful", Some(vec!["enum_casefold"])),
        ("careful ", None),
        ("carefu", None),
        ("fast", Some(vec![])),
    ] {
        assert_eq!(rules_of(&both(json!({ "mode": value }))), rules, "{value}");
    }
    // A loaded enum folds case exactly when the coercer allows it for its values, and the
    // loader says so when it does not.
    for names in [
        vec!["a", "b"],
        vec!["a", "A", "b"],
        vec!["late", "late"],
        vec!["Late", "early"],
    ] {
        let allowed = casefold_allowed(names.iter().copied());
        let spec = Spec::from_schema(&json!({
            "type": "object",
            "properties": {"v": {"type": "string", "enum": names}},
        }))
        .unwrap();
        let warned = spec
            .warnings()
            .iter()
            .any(|w| w.message.contains("differ only in ASCII case"));
        assert_eq!(warned, !allowed, "{names:?}");
        let folded = spec
            .parse(json!({"v": "B"}))
            .is_ok_and(|p| p.repairs.iter().any(|r| r.rule == Rule::EnumCasefold));
        if names.contains(&"b") {
            assert_eq!(folded, allowed, "{names:?}");
        }
    }
}

#[test]
fn an_integer_written_as_a_float_is_read_as_the_integer_coercer_says() {
    for (value, rules) in [
        (json!(5), Some(vec![])),
        (json!(5.0), Some(vec!["integral_float_to_int"])),
        (json!(1e3), Some(vec!["integral_float_to_int"])),
        (json!(5.5), None),
        (json!("5"), Some(vec!["numeric_string_to_int"])),
    ] {
        assert_eq!(rules_of(&both(json!({ "count": value }))), rules);
    }
    assert!(same_number(Rule::IntegralFloatToInt));
    assert!(!same_number(Rule::NumericStringToInt));
    // Where the schema asks whether a value is an integer as sent (`not`), `1999.0` is one,
    // the repair keeping the number; `"1999"` is not.
    let spec = Spec::from_schema(&json!({
        "type": "object",
        "properties": {"n": {"not": {"type": "integer"}}},
    }))
    .unwrap();
    assert!(spec.parse(json!({"n": 1999.0})).is_err());
    assert!(spec.parse(json!({"n": 1999})).is_err());
    assert!(spec.parse(json!({"n": 19.99})).is_ok());
    assert!(spec.parse(json!({"n": "1999"})).is_ok());
}

#[test]
fn the_envelope_is_read_as_its_coercer_says_on_both_doors() {
    let fenced = "```json\n{\"count\": 1}\n```";
    assert_eq!(rules_of(&both(fenced)), Some(vec!["strip_code_fence"]));
    let double = serde_json::to_string("{\"count\": 1}").unwrap();
    assert_eq!(
        rules_of(&both(double.as_str())),
        Some(vec!["unwrap_double_encoded"])
    );
    for empty in ["", " \n", "null"] {
        assert_eq!(
            rules_of(&both(empty)),
            Some(vec!["empty_to_object"]),
            "{empty:?}"
        );
    }
    assert_eq!(rules_of(&both(Value::Null)), Some(vec!["empty_to_object"]));
    // What has no reading as an object is refused on both, with the same codes and messages.
    for bad in [
        "[1]",
        "5",
        "\"[1]\"",
        "\"\\\"x\\\"\"",
        "\"not json\"",
        "```python\n{}\n```",
    ] {
        let v = both(bad);
        assert!(v.is_err(), "{bad}: {v:?}");
    }
}
