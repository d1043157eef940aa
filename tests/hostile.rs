//! Hostile payloads are clean rejections: no panic, no stack overflow, bounded reports.

mod common;

use common::{base, payload, IssueRefund};
use serde_json::{json, Value};
use toolargs::{Limits, ParseOptions, RawArgs, Rejection, ToolArgs};

#[test]
fn hundred_thousand_nested_brackets() {
    for deep in [
        "[".repeat(100_000),
        "[".repeat(100_000) + &"]".repeat(100_000),
        "{\"a\":".repeat(100_000),
        format!(
            r#"{{"order_id":"ord_A1b2C3d4","amount_cents":1999,"reason":"late","tags":{}}}"#,
            "[".repeat(100_000)
        ),
    ] {
        let rejection = IssueRefund::parse(deep.as_str()).unwrap_err();
        assert_eq!(rejection.errors()[0].code, "invalid_json");
        assert_eq!(rejection.errors()[0].path, "$");
    }
}

#[test]
fn deep_decoded_values_are_refused() {
    let mut value = json!(1);
    for _ in 0..1_000 {
        value = json!([value]);
    }
    let call =
        json!({"order_id": "ord_A1b2C3d4", "amount_cents": 1999, "reason": "late", "tags": value});
    let rejection = IssueRefund::parse(&call).unwrap_err();
    assert_eq!(rejection.errors()[0].code, "invalid_json");
}

#[test]
fn ten_megabyte_string() {
    let huge = "a".repeat(10 << 20);
    let rejection = IssueRefund::parse(payload("order_id", json!(huge))).unwrap_err();
    assert_eq!(rejection.errors()[0].code, "pattern");
    assert!(rejection.for_model().len() < 1_000);
    // As an unknown key it is rejected, and the message stays short.
    let rejection = IssueRefund::parse(payload("note", json!(huge))).unwrap_err();
    assert_eq!(rejection.errors()[0].code, "unknown_field");
    assert!(rejection.for_model().len() < 1_000);
}

#[test]
fn oversized_payloads_are_refused_before_parsing() {
    let limits = Limits {
        max_payload_bytes: 64,
        ..Limits::DEFAULT
    };
    let raw = RawArgs::from(base().to_string() + &" ".repeat(100));
    let rejection = toolargs::parse_with::<IssueRefund>(
        &raw,
        &ParseOptions {
            limits,
            ..ParseOptions::DEFAULT
        },
    )
    .unwrap_err();
    assert_eq!(rejection.errors()[0].code, "invalid_json");
    assert!(rejection.errors()[0].message.contains("limit"));
}

#[test]
fn a_million_bad_items_make_a_bounded_report() {
    let items: Vec<Value> = (0..1_000_000).map(|_| json!(1)).collect();
    let rejection = IssueRefund::parse(payload("tags", Value::Array(items))).unwrap_err();
    assert_eq!(rejection.errors().len(), Rejection::MAX_ERRORS);
    assert_eq!(rejection.omitted(), 1_000_000 - Rejection::MAX_ERRORS);
    let body: Value = serde_json::from_str(&rejection.for_model()).unwrap();
    assert_eq!(body["omitted"], json!(1_000_000 - Rejection::MAX_ERRORS));
}

#[test]
fn odd_unicode_is_handled() {
    for raw in [
        "{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":1999,\"reason\":\"late\",\"\u{202e}\":1}",
        "{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":1999,\"reason\":\"late\",\"\u{0}\":1}",
        "\u{feff}{\"order_id\":\"ord_A1b2C3d4\"}",
        "{\"order_id\":\"ord_\u{1F600}\u{1F600}\u{1F600}\u{1F600}\",\"amount_cents\":1999,\"reason\":\"late\"}",
        "{\"order_id\":\"\\ud83d\\ude00\",\"amount_cents\":1999,\"reason\":\"late\"}",
        "{\"order_id\":\"\\udc00\",\"amount_cents\":1999,\"reason\":\"late\"}",
    ] {
        let rejection = IssueRefund::parse(raw).unwrap_err();
        assert!(!rejection.errors().is_empty());
        for e in rejection.errors() {
            assert!(e.path.starts_with('$'));
        }
    }
    let rejection = IssueRefund::parse(
        "{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":1999,\"reason\":\"late\",\"a'b\\\\\":1}",
    )
    .unwrap_err();
    assert_eq!(rejection.errors()[0].path, r"$['a\'b\\']");
}
