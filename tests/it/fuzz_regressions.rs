//! Inputs the fuzzers (`fuzz/`) once broke the library with, kept as regression tests. Each is
//! checked the way its target checks it: no panic, and a well-formed outcome.

use crate::common::IssueRefund;
use serde_json::Value;
use toolargs::{Limits, ParseOptions, RawArgs, Rejection, Spec, ToolArgs};

/// The tight limits of the `decode` target.
const TIGHT: ParseOptions = ParseOptions::DEFAULT.with_limits(
    Limits::DEFAULT
        .with_max_depth(4)
        .with_max_payload_bytes(512)
        .with_max_string_bytes(16)
        .with_max_items(4)
        .with_max_keys(8),
);

fn well_formed(rejection: &Rejection) {
    assert!(!rejection.errors().is_empty());
    for e in rejection.errors() {
        assert!(e.path.starts_with('$'), "{e}");
    }
    let body: Value = serde_json::from_str(&rejection.for_model()).unwrap();
    assert_eq!(body["ok"], Value::Bool(false));
}

/// `decode`: a string limit falling inside a two-byte character, in a run after an escape,
/// sliced the text off a character boundary (a panic) instead of refusing the string.
#[test]
fn a_string_limit_inside_a_character_after_an_escape() {
    let input: &[u8] = b"```json\n{\"ordb/b\\\\\\bb*d_A02b\xd6\xbcer_id\":\"ord_A02b\xd6\xbc3d4\",\"ttttttvtttttttttttd_A02b2unt_cents\":1.999e3,\"reason\":\"l-ate\"}\n```";
    let rejection = toolargs::parse_with::<IssueRefund>(&RawArgs::from(input), &TIGHT).unwrap_err();
    well_formed(&rejection);
    assert_eq!(rejection.errors()[0].code, "too_long");
    assert_eq!(rejection.errors()[0].path, "$");
    // Under the default limits the same call is read, and rejected for its own reasons.
    well_formed(&IssueRefund::parse(input).unwrap_err());
    let spec = Spec::from_schema(&IssueRefund::json_schema()).unwrap();
    well_formed(&spec.parse_with(&RawArgs::from(input), &TIGHT).unwrap_err());
}

/// `differential_schema`: under `oneOf`, `1.0` was clean for `true` alone, since the integer
/// branch only takes it with a repair; but JSON Schema reads `1.0` as an integer, so two
/// branches match and the value is not valid as sent.
#[test]
fn a_value_two_one_of_branches_take_as_sent_is_not_clean() {
    let schema = serde_json::json!({"oneOf": [
        true,
        {"type": "string", "maxLength": 0},
        {"type": "integer", "exclusiveMinimum": -1},
    ]});
    let spec = Spec::from_schema(&schema).unwrap();
    let rejection = spec.parse_with(&RawArgs::from("1.0"), &ParseOptions::DEFAULT);
    let validator = crate::common::try_validator(&schema, false).unwrap();
    assert!(!validator.is_valid(&serde_json::json!(1.0)));
    let rejection = rejection.unwrap_err();
    assert_eq!(rejection.errors()[0].code, "ambiguous_variant");
    // `1.5` is no integer to either reader: the `true` branch alone takes it.
    assert!(spec
        .parse_with(&RawArgs::from("1.5"), &ParseOptions::DEFAULT)
        .unwrap()
        .repairs
        .is_empty());
}

/// Number fields of a derived tool: bounded, narrower than a double, and plain.
#[derive(ToolArgs, Debug, PartialEq)]
struct Priced {
    #[arg(min = 0.0)]
    unit_price: f64,
    ratio: f32,
    weight: f64,
}

/// `differential_nested`: an integer of 100 digits in an `f64` field was read as the nearest
/// double by the derived parser and refused by the loaded schema, whose values pass through
/// exactly. Both doors refuse a number no JSON reader keeps exactly (`lossy_number`), and say
/// `out_of_range` as well where it is also outside a bound the schema states.
#[test]
fn a_number_no_double_holds_exactly_is_refused_by_both_doors() {
    let spec = Spec::from_schema(&Priced::json_schema()).unwrap();
    let codes = |r: Result<_, Rejection>| -> Vec<String> {
        r.err()
            .map(|r| r.errors().iter().map(|e| e.code.to_string()).collect())
            .unwrap_or_default()
    };
    let huge = format!("2{}1", "2".repeat(98));
    let lossy = [
        huge.as_str(),
        "18446744073709551616",
        "-9223372036854775809",
        "1e400",
        "-1e400",
    ];
    // Integers of 64 bits, and literals with a fraction or an exponent inside a double's
    // range, are the nearest double at both doors (out of an `f32`'s range, or not).
    let read = [
        "18446744073709551615",
        "-9223372036854775808",
        "1.5e300",
        "0.1",
    ];
    for literal in lossy.iter().chain(&read) {
        for field in ["unit_price", "ratio", "weight"] {
            let mut call = serde_json::json!({"unit_price": 1, "ratio": 1, "weight": 1});
            call[field] = Value::Null;
            let call = call.to_string().replace("null", literal);
            let derived = Priced::parse(call.as_str());
            let dynamic = spec.parse(call.as_str());
            if let (Ok(derived), Ok(dynamic)) = (&derived, &dynamic) {
                // The same number, as the derived double or as sent (an `f32` is narrower).
                let same = |name: &str| {
                    derived.args.to_json()[name].as_f64() == dynamic.args[name].as_f64()
                };
                assert!(same("unit_price") && same("weight"), "{call}");
            }
            let (derived, dynamic) = (codes(derived.map(|_| ())), codes(dynamic.map(|_| ())));
            assert_eq!(derived, dynamic, "{call}");
            assert_eq!(
                derived.contains(&"lossy_number".to_owned()),
                lossy.contains(literal),
                "{call}"
            );
        }
    }
}

/// Integer fields: bounded, of the type's own range, and narrow.
#[derive(ToolArgs, Debug, PartialEq)]
struct Counted {
    #[arg(min = 1, max = 50000)]
    cents: i64,
    count: i64,
    small: u8,
}

/// `differential`: an integer of 28 digits for the refund's `amount_cents` was `out_of_range`
/// to the derived parser and also `lossy_number` to the loaded schema. An integer schema
/// reads integers within 64 bits, as a derived type does: past them, one `out_of_range`.
#[test]
fn an_integer_beyond_64_bits_is_out_of_range_once_at_both_doors() {
    let spec = Spec::from_schema(&Counted::json_schema()).unwrap();
    for literal in [
        "1999999999999999999999999999",
        "-1999999999999999999999999999",
        "18446744073709551616",
        "1e400",
        "1.5e30",
    ] {
        for field in ["cents", "count", "small"] {
            let mut call = serde_json::json!({"cents": 1, "count": 1, "small": 1});
            call[field] = Value::Null;
            let call = call.to_string().replace("null", literal);
            let codes = |r: Result<_, Rejection>| -> Vec<(String, String)> {
                r.err()
                    .map(|r| {
                        r.errors()
                            .iter()
                            .map(|e| (e.path.clone(), e.code.to_string()))
                            .collect()
                    })
                    .unwrap_or_default()
            };
            let derived = codes(Counted::parse(call.as_str()).map(|_| ()));
            let dynamic = codes(spec.parse(call.as_str()).map(|_| ()));
            assert_eq!(
                derived,
                [(format!("$.{field}"), "out_of_range".to_owned())],
                "{call}"
            );
            assert_eq!(derived, dynamic, "{call}");
        }
    }
}
