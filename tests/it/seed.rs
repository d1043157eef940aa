//! Every case of the policy's reference suite, against the derived refund tool.

use crate::common::{base, codes, payload, rules, without, IssueRefund, Reason, StrictRefund};
use chrono::NaiveDate;
use serde_json::{json, Value};
use toolargs::{Repair, ToolArgs};

fn rejects(raw: impl AsRef<str>) -> toolargs::Rejection {
    match IssueRefund::parse(raw.as_ref()) {
        Ok(parsed) => panic!("expected a rejection, got {parsed:?}"),
        Err(rejection) => rejection,
    }
}

/// The one error of a rejection that must have exactly one.
fn only_error(raw: impl AsRef<str>) -> toolargs::ArgumentError {
    let rejection = rejects(raw);
    assert_eq!(rejection.errors().len(), 1, "{:?}", rejection.errors());
    rejection.errors()[0].clone()
}

// --- clean call ---------------------------------------------------------------

#[test]
fn clean_call_has_no_repairs() {
    let parsed = IssueRefund::parse(base().to_string()).unwrap();
    assert_eq!(
        parsed.args,
        IssueRefund {
            order_id: "ord_A1b2C3d4".into(),
            amount_cents: 1999,
            notify_customer: false,
            reason: Reason::Damaged,
            tags: vec![],
            effective_date: None,
        }
    );
    assert!(parsed.repairs.is_empty());
    assert_eq!(
        parsed.args.to_json(),
        json!({"order_id": "ord_A1b2C3d4", "amount_cents": 1999, "notify_customer": false,
               "reason": "damaged", "tags": []})
    );
}

#[test]
fn defaults_are_not_shared_between_calls() {
    let mut first = IssueRefund::parse(base().to_string()).unwrap();
    first.args.tags.push("mutated".into());
    let second = IssueRefund::parse(base().to_string()).unwrap();
    assert!(second.args.tags.is_empty());
}

// --- repairs ------------------------------------------------------------------

/// (field, value sent, canonical value after the repair, rule)
fn repair_cases() -> Vec<(&'static str, Value, Value, &'static str)> {
    vec![
        (
            "amount_cents",
            json!("1999"),
            json!(1999),
            "numeric_string_to_int",
        ),
        (
            "amount_cents",
            json!(1999.0),
            json!(1999),
            "integral_float_to_int",
        ),
        (
            "notify_customer",
            json!("true"),
            json!(true),
            "string_to_bool",
        ),
        (
            "notify_customer",
            json!("FALSE"),
            json!(false),
            "string_to_bool",
        ),
        (
            "reason",
            json!("Damaged"),
            json!("damaged"),
            "enum_casefold",
        ),
        (
            "tags",
            json!("fragile"),
            json!(["fragile"]),
            "scalar_to_list",
        ),
        (
            "notify_customer",
            Value::Null,
            json!(false),
            "null_to_absent",
        ),
    ]
}

#[test]
fn unambiguous_values_are_repaired() {
    for (field, value, expected, rule) in repair_cases() {
        let parsed = IssueRefund::parse(payload(field, value.clone())).unwrap();
        let canonical = parsed.args.to_json();
        assert_eq!(canonical[field], expected, "{field} = {value}");
        assert_eq!(rules(&parsed), [rule], "{field} = {value}");
        assert_eq!(parsed.repairs[0].path, format!("$.{field}"));
    }
}

#[test]
fn repaired_values_have_the_field_type() {
    let parsed = IssueRefund::parse(payload("amount_cents", json!("1999"))).unwrap();
    assert_eq!(parsed.args.amount_cents, 1999_i64);
    let parsed = IssueRefund::parse(payload("notify_customer", json!("true"))).unwrap();
    assert!(parsed.args.notify_customer);
    let parsed = IssueRefund::parse(payload("reason", json!("Damaged"))).unwrap();
    assert_eq!(parsed.args.reason, Reason::Damaged);
    let parsed = IssueRefund::parse(payload("tags", json!("fragile"))).unwrap();
    assert_eq!(parsed.args.tags, vec!["fragile".to_owned()]);
}

#[test]
fn repair_records_before_and_after() {
    let parsed = IssueRefund::parse(payload("amount_cents", json!("1999"))).unwrap();
    assert_eq!(
        parsed.repairs,
        vec![Repair::new(
            "$.amount_cents",
            toolargs::Rule::NumericStringToInt,
            json!("1999"),
            json!(1999),
        )]
    );
}

#[test]
fn code_fence_is_stripped() {
    let raw = format!("```json\n{}\n```", base());
    let parsed = IssueRefund::parse(raw.as_str()).unwrap();
    assert_eq!(parsed.args.amount_cents, 1999);
    assert_eq!(rules(&parsed), ["strip_code_fence"]);
    assert_eq!(parsed.repairs[0].before, json!(raw));
    assert_eq!(parsed.repairs[0].after, json!(base().to_string()));
}

#[test]
fn double_encoding_is_unwrapped_once() {
    let raw = Value::String(base().to_string()).to_string();
    let parsed = IssueRefund::parse(raw.as_str()).unwrap();
    assert_eq!(parsed.args.order_id, "ord_A1b2C3d4");
    assert_eq!(rules(&parsed), ["unwrap_double_encoded"]);
}

#[test]
fn triple_encoding_is_rejected() {
    let twice = Value::String(base().to_string()).to_string();
    let raw = Value::String(twice).to_string();
    assert_eq!(only_error(raw).code, "not_object");
}

#[test]
fn null_optional_without_default_is_dropped() {
    let parsed = IssueRefund::parse(payload("effective_date", Value::Null)).unwrap();
    assert_eq!(parsed.args.effective_date, None);
    assert!(parsed.args.to_json().get("effective_date").is_none());
    assert_eq!(rules(&parsed), ["null_to_absent"]);
    assert_eq!(parsed.repairs[0].after, Value::Null);
}

// --- rejections ---------------------------------------------------------------

#[test]
fn ambiguous_values_are_rejected() {
    let cases: Vec<(&str, Value, &str)> = vec![
        ("amount_cents", json!("19.99"), "ambiguous_integer"),
        ("amount_cents", json!("1,999"), "ambiguous_integer"),
        ("amount_cents", json!("1e3"), "ambiguous_integer"),
        ("amount_cents", json!(" 1999"), "ambiguous_integer"),
        ("amount_cents", json!("01999"), "ambiguous_integer"),
        ("amount_cents", json!(19.99), "lossy_number"),
        ("amount_cents", json!(true), "type"),
        ("amount_cents", json!(0), "out_of_range"),
        ("amount_cents", json!(50001), "out_of_range"),
        ("notify_customer", json!("yes"), "ambiguous_boolean"),
        ("notify_customer", json!(1), "type"),
        ("order_id", json!(12345678), "type"),
        ("order_id", json!("ORD_A1b2C3d4"), "pattern"),
        ("reason", json!("broken"), "enum"),
        ("reason", Value::Null, "missing"),
        ("tags", json!("fragile, gift"), "ambiguous_list"),
        ("tags", json!("[\"fragile\"]"), "ambiguous_list"),
        ("effective_date", json!("03/04/2026"), "ambiguous_date"),
        ("effective_date", json!("2026-02-30"), "invalid_date"),
    ];
    for (field, value, code) in cases {
        let err = only_error(payload(field, value.clone()));
        assert_eq!(
            (err.code.as_str(), err.path.as_str()),
            (code, format!("$.{field}").as_str()),
            "{field} = {value}"
        );
    }
}

#[test]
fn non_string_list_item_reports_exact_path() {
    let err = only_error(payload("tags", json!(["fragile", 3])));
    assert_eq!(
        (err.code.as_str(), err.path.as_str()),
        ("type", "$.tags[1]")
    );
}

#[test]
fn missing_required_field() {
    let err = only_error(without("reason"));
    assert_eq!(
        (err.code.as_str(), err.path.as_str()),
        ("missing", "$.reason")
    );
}

#[test]
fn unknown_field_gets_a_hint_but_is_not_renamed() {
    let mut call = base();
    call["amount"] = json!(1999);
    let err = only_error(call.to_string());
    assert_eq!(
        (err.code.as_str(), err.path.as_str()),
        ("unknown_field", "$.amount")
    );
    assert!(
        err.message.contains("did you mean \"amount_cents\"?"),
        "{}",
        err.message
    );
}

#[test]
fn duplicate_keys_are_rejected() {
    let raw =
        r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999,"amount_cents":49999,"reason":"late"}"#;
    let err = only_error(raw);
    assert_eq!(
        (err.code.as_str(), err.path.as_str()),
        ("duplicate_key", "$.amount_cents")
    );
}

#[test]
fn nan_is_rejected() {
    let raw = r#"{"order_id":"ord_A1b2C3d4","amount_cents":NaN,"reason":"late"}"#;
    let err = only_error(raw);
    assert_eq!(
        (err.code.as_str(), err.path.as_str()),
        ("non_finite_number", "$.amount_cents")
    );
}

#[test]
fn bad_payloads() {
    let prose = format!("Here are the arguments: {}", base());
    for (raw, code) in [
        ("not json", "invalid_json"),
        (r#"{"order_id": "ord_A1b2C3d4""#, "invalid_json"),
        (prose.as_str(), "invalid_json"),
        ("[]", "not_object"),
        ("42", "not_object"),
    ] {
        let err = only_error(raw);
        assert_eq!((err.code.as_str(), err.path.as_str()), (code, "$"), "{raw}");
    }
    // An already-decoded number, as an SDK might hand it over.
    let err = IssueRefund::parse(json!(42)).unwrap_err();
    assert_eq!(err.errors()[0].code, "not_object");
}

// --- strict fields ------------------------------------------------------------

#[test]
fn strict_field_refuses_repairs() {
    let err = StrictRefund::parse(payload("amount_cents", json!("1999"))).unwrap_err();
    assert_eq!(
        codes(&err),
        [("repair_forbidden".into(), "$.amount_cents".into())]
    );
}

#[test]
fn strict_field_accepts_exact_values() {
    let parsed = StrictRefund::parse(base().to_string()).unwrap();
    assert_eq!(parsed.args.amount_cents, 1999);
    assert!(parsed.repairs.is_empty());
}

// --- properties ---------------------------------------------------------------

#[test]
fn repair_is_idempotent() {
    for (field, value, _, rule) in repair_cases() {
        let first = IssueRefund::parse(payload(field, value)).unwrap();
        let second = IssueRefund::parse(first.args.to_json()).unwrap();
        assert_eq!(second.args, first.args, "{rule}");
        assert!(second.repairs.is_empty(), "{rule}: {:?}", second.repairs);
    }
}

#[test]
fn enum_values_are_casefold_unique() {
    let schema = Reason::json_schema();
    let values: Vec<String> = schema["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_ascii_lowercase())
        .collect();
    let mut unique = values.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), values.len());
}

#[test]
fn error_message_for_model_is_json() {
    let rejection = rejects(payload("amount_cents", json!("19.99")));
    let body: Value = serde_json::from_str(&rejection.for_model()).unwrap();
    assert_eq!(
        body,
        json!({"ok": false, "errors": [{
            "error": "ambiguous_integer",
            "path": "$.amount_cents",
            "message": rejection.errors()[0].message,
        }]})
    );
}

// --- the replay sample's five lines ----------------------------------------------

#[test]
fn replay_sample_lines_classify_as_documented() {
    let lines = [
        json!("{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":1999,\"reason\":\"late\"}"),
        json!("{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":\"1999\",\"reason\":\"late\"}"),
        json!("{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":\"19.99\",\"reason\":\"late\"}"),
        json!("```json\n{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":1999,\"reason\":\"late\"}\n```"),
        json!({"order_id": "ord_A1b2C3d4", "amount": 1999, "reason": "late"}),
    ];
    let outcomes: Vec<String> = lines
        .iter()
        .map(|raw| match IssueRefund::parse(raw) {
            Ok(p) if p.repairs.is_empty() => "ok_clean".to_owned(),
            Ok(p) => format!("ok_repaired:{}", rules(&p).join(",")),
            Err(r) => format!("reject:{}", r.errors()[0].code),
        })
        .collect();
    assert_eq!(
        outcomes,
        [
            "ok_clean",
            "ok_repaired:numeric_string_to_int",
            "reject:ambiguous_integer",
            "ok_repaired:strip_code_fence",
            "reject:unknown_field",
        ]
    );
}

#[test]
fn dates_parse_to_calendar_days() {
    let parsed = IssueRefund::parse(payload("effective_date", json!("2026-03-04"))).unwrap();
    assert_eq!(
        parsed.args.effective_date,
        NaiveDate::from_ymd_opt(2026, 3, 4)
    );
    assert!(parsed.repairs.is_empty());
}
