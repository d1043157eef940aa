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
