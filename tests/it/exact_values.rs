//! Exact values: a number accepted without a repair reaches the caller exactly as it was sent,
//! as text or as a decoded value, through an open field of a derived type and through a loaded
//! spec's open object. A number no JSON value holds exactly is refused, never rounded.

use proptest::prelude::*;
use serde_json::{json, Number, Value};
use toolargs::{Code, Spec, ToolArgs};

#[derive(ToolArgs, Debug)]
#[toolargs(effect = "external")]
struct Forward {
    /// Passed on as given.
    #[arg(any)]
    value: Value,
}

fn open_spec() -> Spec {
    Spec::from_json(r#"{"type": "object", "additionalProperties": true}"#).unwrap()
}

/// The number inside containers as well as alone.
fn shapes(n: &Value) -> [Value; 3] {
    [n.clone(), json!([n, [n]]), json!({"a": n, "b": {"c": [n]}})]
}

/// Sends `value` every way there is and checks that what comes back is `value`, as a value
/// and as text.
fn passes_exactly(value: &Value) {
    let text = serde_json::to_string(value).unwrap();
    let payload = json!({ "value": value });
    let payload_text = format!(r#"{{"value":{text}}}"#);

    let from_text = Forward::parse(payload_text.as_str()).expect("parses");
    assert!(
        from_text.is_clean(),
        "{payload_text}: {:?}",
        from_text.repairs
    );
    assert_eq!(&from_text.args.value, value, "{payload_text}");
    assert_eq!(serde_json::to_string(&from_text.args.value).unwrap(), text);

    let from_value = Forward::parse(&payload).expect("parses");
    assert!(from_value.is_clean());
    assert_eq!(&from_value.args.value, value);
    assert_eq!(serde_json::to_string(&from_value.args.value).unwrap(), text);

    let spec = open_spec();
    for parsed in [
        spec.parse(payload_text.as_str()).expect("parses"),
        spec.parse(&payload).expect("parses"),
    ] {
        assert!(parsed.is_clean(), "{payload_text}: {:?}", parsed.repairs);
        assert_eq!(parsed.args, payload, "{payload_text}");
        assert_eq!(
            serde_json::to_string(&parsed.args["value"]).unwrap(),
            text,
            "{payload_text}"
        );
    }
}

fn float(v: f64) -> Value {
    Value::Number(Number::from_f64(v).expect("finite"))
}

#[test]
fn floats_that_serde_json_once_read_one_unit_off_come_back_unchanged() {
    for v in [
        5.960464477539063e-8,
        0.1,
        0.30000000000000004,
        1e308,
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        5e-324,
        -2.2250738585072014e-308,
        9007199254740993.0,
        1.0,
        -0.0,
        123456.789e-3,
    ] {
        for value in shapes(&float(v)) {
            passes_exactly(&value);
        }
    }
}

#[test]
fn the_literal_is_read_as_the_correctly_rounded_double() {
    // Written otherwise than serde_json writes it, the number is still the nearest double.
    for (text, v) in [
        ("5.9604644775390625E-8", 5.960464477539063e-8),
        ("0.1000000000000000055511151231257827", 0.1),
        ("1e2", 100.0),
        ("2.4703282292062328e-324", 5e-324),
    ] {
        let parsed = Forward::parse(format!(r#"{{"value":{text}}}"#)).expect("parses");
        assert!(parsed.is_clean());
        assert_eq!(parsed.args.value.as_f64(), Some(v), "{text}");
    }
}

#[test]
fn integers_at_the_edges_of_i64_and_u64_come_back_unchanged() {
    for value in [
        json!(0),
        json!(-1),
        json!(i64::MIN),
        json!(i64::MAX),
        json!(u64::MAX),
        json!(9007199254740993u64),
    ] {
        for value in shapes(&value) {
            passes_exactly(&value);
        }
    }
}

#[test]
fn an_integer_beyond_i64_and_u64_is_refused_not_rounded() {
    for text in [
        "18446744073709551616",
        "-9223372036854775809",
        "123456789012345678901234567890",
        "1e400",
        "-1e400",
    ] {
        for (payload, path) in [
            (format!(r#"{{"value":{text}}}"#), "$.value"),
            (format!(r#"{{"value":[1,{text}]}}"#), "$.value[1]"),
            (
                format!(r#"{{"value":{{"deep":{{"n":{text}}}}}}}"#),
                "$.value.deep.n",
            ),
        ] {
            let rejection = Forward::parse(payload.as_str()).expect_err("refused");
            let errors = rejection.errors();
            assert_eq!(errors.len(), 1, "{payload}: {errors:?}");
            assert_eq!(errors[0].code, Code::LossyNumber, "{payload}");
            assert_eq!(errors[0].path, path, "{payload}");
            assert!(
                errors[0].message.contains("string"),
                "{}",
                errors[0].message
            );
        }
    }
    // As a string, the digits pass through.
    let parsed = Forward::parse(r#"{"value":"18446744073709551616"}"#).unwrap();
    assert_eq!(parsed.args.value, json!("18446744073709551616"));
}

/// Finite doubles of every kind: normal, subnormal, zero, both signs.
fn any_finite() -> impl Strategy<Value = f64> {
    use proptest::num::f64::{NEGATIVE, NORMAL, POSITIVE, SUBNORMAL, ZERO};
    (NORMAL | SUBNORMAL | ZERO | POSITIVE | NEGATIVE).prop_filter("finite", |v| v.is_finite())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn every_double_passes_through_exactly(v in any_finite()) {
        for value in shapes(&float(v)) {
            passes_exactly(&value);
        }
    }

    #[test]
    fn every_i64_and_u64_passes_through_exactly(i in any::<i64>(), u in any::<u64>()) {
        passes_exactly(&json!([i, u]));
    }

    #[test]
    fn a_longer_integer_is_refused_by_an_open_field(
        negative in any::<bool>(),
        digits in "[1-9][0-9]{20,60}",
    ) {
        let text = if negative { format!("-{digits}") } else { digits };
        let rejection = Forward::parse(format!(r#"{{"value":[{text}]}}"#)).expect_err("refused");
        prop_assert_eq!(rejection.errors()[0].code, Code::LossyNumber);
    }
}
