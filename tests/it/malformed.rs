//! The malformed arguments real traffic sends, on both doors: values double-encoded below the
//! top level, and empty arguments. Each case is judged by a derived type and by a `Spec`
//! loaded from that type's published schema, which must agree on repairs and errors.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use toolargs::{Parsed, RawArgs, Rejection, Spec, ToolArgs, UnknownPolicy};

/// Narrow a search.
#[derive(ToolArgs, Debug, PartialEq)]
#[toolargs(effect = "read_only")]
struct Filters {
    /// Smallest amount.
    min: i64,
}

/// Search orders.
#[derive(ToolArgs, Debug, PartialEq)]
#[toolargs(effect = "read_only")]
struct Search {
    query: String,
    filters: Option<Filters>,
    ids: Option<Vec<i64>>,
    tags: Option<Vec<String>>,
    weights: Option<BTreeMap<String, f64>>,
}

/// Take no arguments.
#[derive(ToolArgs, Debug, PartialEq)]
#[toolargs(effect = "read_only")]
struct ListAll {}

/// Repairs as (path, rule), or errors as (path, code).
type Verdict = Result<Vec<(String, String)>, Vec<(String, String)>>;

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
            .map(|e| (e.path.clone(), e.code.to_string()))
            .collect()),
    }
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

/// Judges `call` on both doors, asserts they agree, and returns the verdict.
fn both(call: &Value) -> Verdict {
    // The tool only reads, so undeclared keys are stripped on both doors.
    let spec = Spec::from_schema(&Search::json_schema())
        .unwrap()
        .with_default_unknown(UnknownPolicy::Strip);
    let derived = verdict(Search::parse(call));
    assert_eq!(derived, verdict(spec.parse(call)), "{call}");
    derived
}

#[test]
fn an_object_sent_as_json_text_is_decoded_once_then_read_as_sent() {
    let call = json!({"query": "refunds", "filters": "{\"min\": 5}"});
    assert_eq!(
        both(&call),
        Ok(pairs(&[("$.filters", "unwrap_double_encoded")]))
    );
    let parsed = Search::parse(&call).unwrap();
    assert_eq!(parsed.args.filters, Some(Filters { min: 5 }));
    assert_eq!(parsed.repairs[0].before, json!("{\"min\": 5}"));
    assert_eq!(parsed.repairs[0].after, json!({"min": 5}));

    // The decoded value has repairs of its own, recorded after the decoding.
    let call = json!({"query": "refunds", "filters": "{\"min\": \"5\"}"});
    assert_eq!(
        both(&call),
        Ok(pairs(&[
            ("$.filters", "unwrap_double_encoded"),
            ("$.filters.min", "numeric_string_to_int"),
        ]))
    );
    // And its errors, at their own paths (an undeclared key is stripped: the tool only reads).
    let call = json!({"query": "refunds", "filters": "{\"min\": 5.5, \"max\": 9}"});
    let errors = both(&call).unwrap_err();
    assert_eq!(sorted(errors), pairs(&[("$.filters.min", "lossy_number")]));
    // The canonical form reads back with no repair.
    let call = json!({"query": "refunds", "filters": "{\"min\": \"5\"}", "ids": "[1, 2]"});
    let canonical = Search::parse(&call).unwrap().args.to_json();
    assert_eq!(both(&canonical), Ok(vec![]));
}

#[test]
fn a_list_sent_as_json_text_is_decoded_when_its_items_cannot_be_strings() {
    let call = json!({"query": "q", "ids": "[1, 2, 3]", "weights": "{\"a\": 0.5}"});
    assert_eq!(
        both(&call),
        Ok(pairs(&[
            ("$.ids", "unwrap_double_encoded"),
            ("$.weights", "unwrap_double_encoded"),
        ]))
    );
    assert_eq!(Search::parse(&call).unwrap().args.ids, Some(vec![1, 2, 3]));
    let call = json!({"query": "q", "ids": "[1, \"2\"]"});
    assert_eq!(
        both(&call),
        Ok(pairs(&[
            ("$.ids", "unwrap_double_encoded"),
            ("$.ids[1]", "numeric_string_to_int"),
        ]))
    );
    // A list of strings as JSON text could be that list or a list of the one string.
    let call = json!({"query": "q", "tags": "[\"a\", \"b\"]"});
    assert_eq!(both(&call), Err(pairs(&[("$.tags", "ambiguous_list")])));
}

#[test]
fn text_that_is_not_json_of_the_expected_shape_stays_a_type_error() {
    for bad in [
        "{\"min\": 5",
        "[1]",
        "5",
        "{\"min\": 5} trailing",
        "{\"min\": 5, \"min\": 6}",
    ] {
        let call = json!({"query": "q", "filters": bad});
        assert_eq!(both(&call), Err(pairs(&[("$.filters", "type")])), "{bad}");
    }
    for bad in ["[1, 2", "{\"a\": 1}", "7"] {
        let call = json!({"query": "q", "ids": bad});
        assert_eq!(both(&call), Err(pairs(&[("$.ids", "type")])), "{bad}");
    }
    // Twice encoded is not guessed at.
    let twice = serde_json::to_string("{\"min\": 5}").unwrap();
    let call = json!({"query": "q", "filters": twice});
    assert_eq!(both(&call), Err(pairs(&[("$.filters", "type")])));
}

#[test]
fn empty_arguments_mean_no_arguments() {
    let spec = Spec::from_schema(&ListAll::json_schema()).unwrap();
    let inputs: [RawArgs<'_>; 5] = [
        "".into(),
        " \n\t ".into(),
        "null".into(),
        Value::Null.into(),
        Value::String(String::new()).into(),
    ];
    for input in inputs {
        let derived = ListAll::parse(input.clone()).unwrap();
        assert_eq!(derived.args, ListAll {});
        let rules: Vec<&str> = derived.repairs.iter().map(|r| r.rule.as_str()).collect();
        assert_eq!(rules, ["empty_to_object"], "{input:?}");
        assert_eq!(derived.repairs[0].path, "$");
        assert_eq!(derived.repairs[0].after, json!({}));
        let loaded = spec.parse(input.clone()).unwrap();
        assert_eq!(loaded.args, json!({}));
        assert_eq!(verdict(Ok(loaded)), verdict(Ok(derived)), "{input:?}");
    }
    // With required fields, they are reported missing by name.
    let spec = Spec::from_schema(&Search::json_schema()).unwrap();
    for input in ["", "null"] {
        assert_eq!(
            verdict(Search::parse(input)),
            Err(pairs(&[("$.query", "missing")]))
        );
        assert_eq!(
            verdict(spec.parse(input)),
            Err(pairs(&[("$.query", "missing")]))
        );
    }
    // `{}` itself needs no repair, and a payload that is only a string is still not an object.
    assert_eq!(verdict(ListAll::parse("{}")), Ok(vec![]));
    assert_eq!(
        verdict(ListAll::parse("\"x\"")),
        Err(pairs(&[("$", "not_object")]))
    );
}

fn sorted(mut v: Vec<(String, String)>) -> Vec<(String, String)> {
    v.sort();
    v
}

/// Almost-JSON is `invalid_json`, never guessed at, with a message that names what was found,
/// where, and the fix; the two doors say the same.
#[test]
fn almost_json_says_what_it_found_and_where() {
    let spec = Spec::from_schema(&Search::json_schema()).unwrap();
    for (text, says) in [
        (
            r#"{"query": "q", "tags": ["a", "b",]}"#,
            "a trailing comma after `$.tags[1]`",
        ),
        (r#"{"query": "q",}"#, "a trailing comma after `$.query`"),
        (
            r#"{"query": "q", "flag": True}"#,
            "Python's `True` for `$.flag`; JSON writes `true`",
        ),
        (
            r#"{"query": None}"#,
            "Python's `None` for `$.query`; JSON writes `null`",
        ),
        (r#"{"query": 'q'}"#, "a single-quoted string for `$.query`"),
        (r#"{'query': "q"}"#, "a single-quoted key in `$`"),
        (r#"{query: "q"}"#, "the unquoted key `query` in `$`"),
        ("{\"query\": \"q\" // the search\n}", "a comment in `$`"),
        (
            "{\"query\": /* the search */ \"q\"}",
            "a comment before the value of `$.query`",
        ),
        (
            r#"Here are the arguments: {"query": "q"}"#,
            "text before the JSON object",
        ),
        (
            r#"{"query": "q"} Let me know!"#,
            "text after the JSON value",
        ),
        (
            r#"{"query": "q", "tags": ["a"#,
            "the text ends inside the string at `$.tags[0]`",
        ),
        (
            r#"{"query": "q", "tags": ["a", "#,
            "the text ends where the value of `$.tags[1]` should be",
        ),
        (
            r#"{"query": "q", "ids": [1, 2"#,
            "the text ends inside `$.ids`",
        ),
        (
            r#"{"query": "q", "flag": tr"#,
            "the text ends inside the value of `$.flag`",
        ),
        (r#"{"query": "q", "#, "the text ends inside `$`"),
        (r#"{"que"#, "the text ends inside a key in `$`"),
    ] {
        for rejection in [
            Search::parse(text).unwrap_err(),
            spec.parse(text).unwrap_err(),
        ] {
            let error = &rejection.errors()[0];
            assert_eq!(rejection.errors().len(), 1, "{text}");
            assert_eq!(error.code, "invalid_json", "{text}");
            assert!(error.message.contains(says), "{text}: {}", error.message);
            assert!(
                error.message.contains(" at line 1 column ") || error.message.contains("line 2"),
                "{}",
                error.message
            );
        }
    }
}

proptest::proptest! {
    /// Any object or integer list sent as JSON text reads as the value sent plainly, with one
    /// `unwrap_double_encoded` per encoded field, on both doors; and the repair is idempotent:
    /// the canonical output reads back with no repair to the same arguments.
    #[test]
    fn decoding_a_value_sent_as_text_is_the_value_and_idempotent(
        min in proptest::num::i64::ANY,
        ids in proptest::collection::vec(proptest::num::i64::ANY, 0..6),
        encode_filters in proptest::bool::ANY,
        encode_ids in proptest::bool::ANY,
        pretty in proptest::bool::ANY,
    ) {
        let text = |v: &Value| if pretty {
            serde_json::to_string_pretty(v).unwrap()
        } else {
            v.to_string()
        };
        let (filters, list) = (json!({"min": min}), json!(ids));
        let plain = json!({"query": "q", "filters": filters, "ids": list});
        let call = json!({
            "query": "q",
            "filters": if encode_filters { Value::String(text(&filters)) } else { filters.clone() },
            "ids": if encode_ids { Value::String(text(&list)) } else { list.clone() },
        });
        let mut expected = Vec::new();
        if encode_filters {
            expected.push(("$.filters".to_owned(), "unwrap_double_encoded".to_owned()));
        }
        if encode_ids {
            expected.push(("$.ids".to_owned(), "unwrap_double_encoded".to_owned()));
        }
        proptest::prop_assert_eq!(both(&call), Ok(expected));
        let parsed = Search::parse(&call).unwrap();
        proptest::prop_assert_eq!(&parsed.args, &Search::parse(&plain).unwrap().args);
        let again = Search::parse(parsed.args.to_json()).unwrap();
        proptest::prop_assert!(again.repairs.is_empty());
        proptest::prop_assert_eq!(again.args, parsed.args);
    }
}
