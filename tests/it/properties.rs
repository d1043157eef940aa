//! Properties over generated inputs: parsing never panics, every accepted call is canonical
//! after one pass (idempotence of every repair), and every rejection is well-formed.

use crate::common::IssueRefund;
use proptest::prelude::*;
use serde_json::{json, Map, Value};
use toolargs::ToolArgs;

/// Candidate representations for each field: clean, repairable and bad.
fn field_candidates() -> Vec<(&'static str, Vec<Value>)> {
    vec![
        (
            "order_id",
            vec![
                json!("ord_A1b2C3d4"),
                json!("ord_ZZZZ9999"),
                json!("ORD_A1b2C3d4"),
                json!(12345678),
                Value::Null,
            ],
        ),
        (
            "amount_cents",
            vec![
                json!(1999),
                json!("1999"),
                json!(1999.0),
                json!("19.99"),
                json!(19.99),
                json!(true),
                json!(0),
                json!(50000),
                json!("50000"),
                json!(-1),
                json!("1e3"),
                Value::Null,
            ],
        ),
        (
            "notify_customer",
            vec![
                json!(true),
                json!("true"),
                json!("False"),
                json!("yes"),
                json!(1),
                Value::Null,
            ],
        ),
        (
            "reason",
            vec![
                json!("late"),
                json!("LATE"),
                json!("Damaged"),
                json!("broken"),
                json!(3),
                Value::Null,
            ],
        ),
        (
            "tags",
            vec![
                json!([]),
                json!(["a", "b"]),
                json!("fragile"),
                json!("a, b"),
                json!("[x]"),
                json!(["a", 1]),
                json!(""),
                Value::Null,
            ],
        ),
        (
            "effective_date",
            vec![
                json!("2026-03-04"),
                json!("03/04/2026"),
                json!("2026-02-30"),
                json!(20260304),
                Value::Null,
            ],
        ),
        ("amount", vec![json!(1999)]),
    ]
}

pub(crate) fn call_strategy() -> impl Strategy<Value = Value> {
    let fields = field_candidates();
    let choices: Vec<_> = fields
        .into_iter()
        .map(|(name, values)| {
            let n = values.len();
            (Just(name), proptest::option::weighted(0.85, 0..n))
                .prop_map(move |(name, pick)| (name, pick.map(|i| values[i].clone())))
        })
        .collect();
    choices.prop_map(|picked| {
        let mut map = Map::new();
        for (name, value) in picked {
            if let Some(value) = value {
                if name != "amount" || value != Value::Null {
                    map.insert(name.to_owned(), value);
                }
            }
        }
        Value::Object(map)
    })
}

/// Arbitrary JSON values, nested a few levels.
pub(crate) fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::btree_map("[a-z_]{0,14}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn check_outcome(result: Result<toolargs::Parsed<IssueRefund>, toolargs::Rejection>) {
    match result {
        Ok(parsed) => {
            let canonical = parsed.args.to_json();
            let again = IssueRefund::parse(&canonical).expect("canonical output parses");
            assert!(
                again.repairs.is_empty(),
                "canonical output needed {:?}",
                again.repairs
            );
            assert_eq!(again.args, parsed.args);
            let text_again =
                IssueRefund::parse(canonical.to_string()).expect("canonical text parses");
            assert!(text_again.repairs.is_empty());
            for repair in &parsed.repairs {
                assert!(repair.path.starts_with('$'));
            }
        }
        Err(rejection) => {
            assert!(!rejection.errors().is_empty());
            for e in rejection.errors() {
                assert!(e.path.starts_with('$'), "{e}");
                assert!(!e.message.is_empty());
            }
            let body: Value =
                serde_json::from_str(&rejection.for_model()).expect("for_model is JSON");
            assert_eq!(body["ok"], json!(false));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn repairs_are_idempotent_and_rejections_well_formed(call in call_strategy()) {
        check_outcome(IssueRefund::parse(&call));
        check_outcome(IssueRefund::parse(call.to_string()));
    }

    #[test]
    fn one_repair_per_field_is_recorded_at_its_path(call in call_strategy()) {
        if let Ok(parsed) = IssueRefund::parse(&call) {
            for repair in &parsed.repairs {
                let field = repair.path.trim_start_matches("$.");
                prop_assert!(call.get(field).is_some(), "repair at {} for a field not sent", repair.path);
            }
        }
    }

    #[test]
    fn parse_never_panics_on_arbitrary_text(text in "\\PC{0,64}") {
        let _ = IssueRefund::parse(text.as_str());
    }

    #[test]
    fn parse_never_panics_on_json_like_text(text in r#"[\[\]{}",:0-9a-z\\. \-eEnul]{0,80}"#) {
        let _ = IssueRefund::parse(text.as_str());
    }

    #[test]
    fn parse_never_panics_on_arbitrary_json(value in json_value()) {
        check_outcome(IssueRefund::parse(&value));
        check_outcome(IssueRefund::parse(value.to_string()));
        check_outcome(IssueRefund::parse(Value::String(value.to_string()).to_string()));
    }

    #[test]
    fn decoding_agrees_with_serde_json_on_valid_text(value in json_value()) {
        // Whatever serde_json writes, toolargs reads to the same value.
        let text = value.to_string();
        let ours = toolargs::RawArgs::from(text.as_str());
        let parsed = toolargs::parse_with::<IssueRefund>(&ours, &toolargs::ParseOptions::DEFAULT);
        if let Err(rejection) = parsed {
            for e in rejection.errors() {
                prop_assert!(e.code != "invalid_json" && e.code != "duplicate_key", "{}", e);
            }
        }
    }
}
