//! Hostile payloads are clean rejections: no panic, no stack overflow, bounded reports, and every
//! limit of `Limits` refused with its own code before the expensive work.

use crate::common::{base, payload, IssueRefund};
use serde_json::{json, Value};
use toolargs::{Limits, ParseOptions, RawArgs, Rejection, Spec, ToolArgs};

/// Parses `raw` as the refund tool under `limits`.
fn parse_limited(raw: impl Into<RawArgs<'static>>, limits: Limits) -> Result<(), Rejection> {
    let options = ParseOptions::DEFAULT.with_limits(limits);
    toolargs::parse_with::<IssueRefund>(&raw.into(), &options).map(drop)
}

/// The single error of a rejection, as (code, path).
fn only_error(rejection: &Rejection) -> (String, String) {
    assert_eq!(rejection.errors().len(), 1, "{rejection}");
    let e = &rejection.errors()[0];
    (e.code.to_string(), e.path.clone())
}

fn error_of(result: Result<(), Rejection>) -> (String, String) {
    only_error(&result.expect_err("rejected"))
}

fn at(code: &str, path: &str) -> (String, String) {
    (code.to_owned(), path.to_owned())
}

#[test]
fn the_defaults_are_documented() {
    let limits = Limits::DEFAULT;
    assert_eq!(
        (
            limits.max_depth,
            limits.max_payload_bytes,
            limits.max_string_bytes,
            limits.max_items,
            limits.max_keys
        ),
        (128, 16 << 20, 1 << 20, 100_000, 10_000)
    );
    assert_eq!(Limits::default(), Limits::DEFAULT);
}

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
        assert_eq!(only_error(&rejection), at("too_deep", "$"));
        assert!(rejection.errors()[0].message.contains("128"));
    }
}

#[test]
fn nesting_is_limited_at_the_configured_depth() {
    let limits = Limits::DEFAULT.with_max_depth(3);
    let nested = |levels: usize| {
        let tags = "[".repeat(levels) + &"]".repeat(levels);
        format!(
            r#"{{"order_id":"ord_A1b2C3d4","amount_cents":1999,"reason":"late","tags":{tags}}}"#
        )
    };
    // The payload object is level 1, `tags` level 2, so one more level fits.
    let fits = parse_limited(nested(2), limits).unwrap_err();
    assert!(!fits.has_code(toolargs::Code::TooDeep), "{fits}");
    assert_eq!(
        error_of(parse_limited(nested(3), limits)),
        at("too_deep", "$")
    );
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
    assert_eq!(only_error(&rejection), at("too_deep", "$"));
}

#[test]
fn ten_megabyte_string() {
    let huge = "a".repeat(10 << 20);
    let rejection = IssueRefund::parse(payload("order_id", json!(huge))).unwrap_err();
    assert_eq!(only_error(&rejection), at("too_long", "$.order_id"));
    assert!(rejection.for_model().len() < 1_000);
    // Under a limit that lets it through, the pattern rejects it and the message stays short.
    let roomy = Limits::DEFAULT
        .with_max_string_bytes(32 << 20)
        .with_max_payload_bytes(32 << 20);
    let rejection = parse_limited(payload("order_id", json!(huge)), roomy).unwrap_err();
    assert_eq!(only_error(&rejection), at("pattern", "$.order_id"));
    assert!(rejection.for_model().len() < 1_000);
    // As an unknown key it is rejected, and the message stays short.
    let rejection = parse_limited(payload("note", json!(huge)), roomy).unwrap_err();
    assert_eq!(only_error(&rejection), at("unknown_field", "$.note"));
    assert!(rejection.for_model().len() < 1_000);
}

#[test]
fn long_strings_are_refused_in_text_and_in_decoded_values() {
    let limits = Limits::DEFAULT.with_max_string_bytes(12);
    // `ord_A1b2C3d4` is exactly 12 bytes: at the limit is fine.
    assert!(parse_limited(base().to_string(), limits).is_ok());
    assert!(parse_limited(base(), limits).is_ok());
    let long = payload("order_id", json!("ord_A1b2C3d4x"));
    assert_eq!(
        error_of(parse_limited(long.clone(), limits)),
        at("too_long", "$.order_id")
    );
    let decoded: Value = serde_json::from_str(&long).unwrap();
    assert_eq!(
        error_of(parse_limited(decoded, limits)),
        at("too_long", "$.order_id")
    );
    // Escapes count as the characters they stand for: 12 bytes once unescaped.
    let escaped = r#"{"order_id":"\u006frd_A1b2C3d4","amount_cents":1999,"reason":"late"}"#;
    assert!(parse_limited(escaped, limits).is_ok());
    let escaped = r#"{"order_id":"\u006frd_A1b2C3d4\n","amount_cents":1999,"reason":"late"}"#;
    assert_eq!(
        error_of(parse_limited(escaped, limits)),
        at("too_long", "$.order_id")
    );
    // A long key is reported at its object: the key itself is what is too long to quote.
    let key = "k".repeat(13);
    let long_key = payload(&key, json!(1));
    assert_eq!(
        error_of(parse_limited(long_key.clone(), limits)),
        at("too_long", "$")
    );
    let decoded: Value = serde_json::from_str(&long_key).unwrap();
    assert_eq!(
        error_of(parse_limited(decoded, limits)),
        at("too_long", "$")
    );
    // Items of a list are held to the same limit.
    let tags = payload("tags", json!(["short", "a".repeat(13)]));
    assert_eq!(
        error_of(parse_limited(tags, limits)),
        at("too_long", "$.tags[1]")
    );
}

#[test]
fn a_double_encoded_payload_is_bounded_by_the_payload_size_only() {
    let limits = Limits::DEFAULT.with_max_string_bytes(12);
    let twice = Value::String(base().to_string()).to_string();
    assert!(parse_limited(twice, limits).is_ok());
}

#[test]
fn long_lists_are_refused_in_text_and_in_decoded_values() {
    let limits = Limits::DEFAULT.with_max_items(3);
    assert!(parse_limited(payload("tags", json!(["a", "b", "c"])), limits).is_ok());
    let long = payload("tags", json!(["a", "b", "c", "d"]));
    assert_eq!(
        error_of(parse_limited(long.clone(), limits)),
        at("too_many_items", "$.tags")
    );
    let decoded: Value = serde_json::from_str(&long).unwrap();
    assert_eq!(
        error_of(parse_limited(decoded, limits)),
        at("too_many_items", "$.tags")
    );
    // The default stops a million items before they are read.
    let items: Vec<Value> = (0..1_000_000).map(|_| json!("x")).collect();
    let rejection = IssueRefund::parse(payload("tags", Value::Array(items))).unwrap_err();
    assert_eq!(only_error(&rejection), at("too_many_items", "$.tags"));
}

#[test]
fn wide_objects_are_refused_in_text_and_in_decoded_values() {
    let limits = Limits::DEFAULT.with_max_keys(4);
    let mut call = base();
    call["notify_customer"] = json!(true);
    assert!(parse_limited(call.to_string(), limits).is_ok());
    call["tags"] = json!([]);
    assert_eq!(
        error_of(parse_limited(call.to_string(), limits)),
        at("too_many_keys", "$")
    );
    assert_eq!(
        error_of(parse_limited(call, limits)),
        at("too_many_keys", "$")
    );
}

#[test]
fn oversized_payloads_are_refused_before_parsing() {
    let limits = Limits::DEFAULT.with_max_payload_bytes(64);
    let text = base().to_string() + &" ".repeat(100);
    for raw in [
        RawArgs::from(text.clone()),
        RawArgs::from(text.clone().into_bytes()),
        RawArgs::from(Value::String(text.clone())),
    ] {
        let rejection =
            toolargs::parse_with::<IssueRefund>(&raw, &ParseOptions::DEFAULT.with_limits(limits))
                .unwrap_err();
        assert_eq!(only_error(&rejection), at("too_large", "$"));
        assert!(rejection.errors()[0].message.contains("limit"));
    }
    // Not even UTF-8 is checked first.
    let mut bytes = vec![0xff; 100];
    bytes[0] = b'{';
    assert_eq!(error_of(parse_limited(bytes, limits)), at("too_large", "$"));
}

#[test]
fn the_dynamic_spec_meets_the_same_limits() {
    let spec = Spec::from_schema(&IssueRefund::json_schema()).unwrap();
    let deep = format!(
        r#"{{"order_id":"ord_A1b2C3d4","amount_cents":1999,"reason":"late","tags":{}}}"#,
        "[".repeat(1_000)
    );
    assert_eq!(
        only_error(&spec.parse(deep.as_str()).unwrap_err()),
        at("too_deep", "$")
    );
    let options = ParseOptions::DEFAULT.with_limits(Limits::DEFAULT.with_max_items(1));
    let long = RawArgs::from(payload("tags", json!(["a", "b"])));
    let rejection = spec.parse_with(&long, &options).unwrap_err();
    assert_eq!(only_error(&rejection), at("too_many_items", "$.tags"));
}

#[test]
fn a_million_bad_items_make_a_bounded_report() {
    let roomy = Limits::DEFAULT.with_max_items(2_000_000);
    let items: Vec<Value> = (0..1_000_000).map(|_| json!(1)).collect();
    let rejection = parse_limited(payload("tags", Value::Array(items)), roomy).unwrap_err();
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
