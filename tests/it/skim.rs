//! `toolargs_core::json::skim` reads what serde_json reads: member lookup, value spans and
//! string decoding, on arbitrary JSON values written compactly, spaced, or with every
//! non-ASCII character as a `\u` escape.

use proptest::prelude::*;
use serde_json::Value;
use toolargs_core::json::skim;

/// Arbitrary JSON values, keys and strings of any characters.
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        any::<String>().prop_map(Value::from),
        "[a\"\\\\\n\u{1}é𝄞]{0,6}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::btree_map(
                prop_oneof![any::<String>(), "[a-c\"\\\\é]{0,3}".prop_map(String::from)],
                inner,
                0..6
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// How a value is written.
#[derive(Clone, Copy, Debug)]
enum Style {
    Compact,
    Spaced,
    /// Every character past ASCII as `\uXXXX` (a surrogate pair past the first plane).
    Ascii,
}

fn write(value: &Value, style: Style) -> String {
    match style {
        Style::Compact => value.to_string(),
        Style::Spaced => serde_json::to_string_pretty(value).unwrap(),
        Style::Ascii => {
            let mut out = String::new();
            for c in value.to_string().chars() {
                if c.is_ascii() {
                    out.push(c);
                } else {
                    for unit in c.encode_utf16(&mut [0; 2]) {
                        out.push_str(&format!("\\u{unit:04x}"));
                    }
                }
            }
            out
        }
    }
}

/// Checks every value under `at` against the value serde_json reads from the same span.
fn check(text: &str, span: std::ops::Range<usize>, value: &Value) {
    assert_eq!(skim::skip(text, span.start), Some(span.clone()));
    assert_eq!(skim::skip_strict(text, span.start, 128), Some(span.clone()));
    let theirs: Value = serde_json::from_str(&text[span.clone()]).unwrap();
    assert_eq!(&theirs, value);
    match value {
        Value::String(s) => {
            let (ours, end) = skim::string(text, span.start).unwrap();
            assert_eq!(&*ours, s);
            assert_eq!(end, span.end);
        }
        Value::Number(_) => {
            assert_eq!(skim::number(text, span.start), Some(&text[span]));
        }
        Value::Array(items) => {
            let mut at = span.start + 1;
            for item in items {
                let item_span = skim::skip(text, at).unwrap();
                check(text, item_span.clone(), item);
                at = skim::skip_space(text, item_span.end) + 1;
            }
        }
        Value::Object(map) => {
            let mut members = skim::members(text, span.start);
            let read: Vec<_> = members.by_ref().map(Result::unwrap).collect();
            assert_eq!(members.end(), Some(span.end));
            assert_eq!(read.len(), map.len());
            for ((key, member), (name, inner)) in read.into_iter().zip(map) {
                assert_eq!(&*key, name);
                check(text, member, inner);
            }
        }
        Value::Null | Value::Bool(_) => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn skimming_agrees_with_serde_json(value in value(), style in prop_oneof![
        Just(Style::Compact), Just(Style::Spaced), Just(Style::Ascii)
    ]) {
        let text = write(&value, style);
        check(&text, 0..text.len(), &value);
        if let Value::Object(map) = &value {
            for (name, inner) in map {
                let span = skim::member(&text, name).unwrap();
                let theirs: Value = serde_json::from_str(&text[span]).unwrap();
                prop_assert_eq!(&theirs, inner);
            }
            prop_assert_eq!(skim::member(&text, "\u{0}absent"), None);
        }
    }

    #[test]
    fn any_text_is_answered_without_a_panic(text in "[\\[\\]{}\":,\\\\ u0-9a-fenrt.+-]{0,40}") {
        let ours = skim::skip(&text, 0)
            .is_some_and(|span| skim::skip_space(&text, span.end) == text.len());
        let theirs = serde_json::from_str::<Value>(&text).is_ok();
        // Only a number past the range of `f64` is skimmed and refused by serde_json.
        if !text.contains('e') {
            prop_assert_eq!(ours, theirs, "{:?}", text);
        }
        let _ = skim::members(&text, 0).count();
        let _ = skim::member(&text, "a");
        let _ = skim::string(&text, 0);
    }
}
