//! Behaviour beyond the reference suite: all errors at once, nested paths, every integer width,
//! numbers, date-times, strictness below a field, inputs of every kind, schemas.

use crate::common::{base, codes, payload, rules, IssueRefund, Reason};
use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
use serde_json::{json, Value};
use toolargs::{Effect, RawArgs, ToolArgs, UnknownPolicy};

/// An order with lists of objects, an optional object and a defaulted list.
#[derive(ToolArgs, Debug, Clone, PartialEq)]
struct PlaceOrder {
    customer: Customer,
    #[arg(min_items = 1, max_items = 5)]
    items: Vec<Item>,
    shipping: Option<Address>,
    #[arg(default = vec![Reason::Other])]
    reasons: Vec<Reason>,
    #[arg(default = "standard")]
    speed: String,
}

#[derive(ToolArgs, Debug, Clone, PartialEq)]
struct Customer {
    #[arg(min_len = 1, max_len = 20)]
    name: String,
    #[arg(rename = "e-mail")]
    email: String,
}

#[derive(ToolArgs, Debug, Clone, PartialEq)]
struct Item {
    #[arg(pattern = "[A-Z]{3}-[0-9]{3}")]
    sku: String,
    #[arg(min = 1, max = 99)]
    qty: u32,
}

#[derive(ToolArgs, Debug, Clone, PartialEq)]
struct Address {
    city: String,
    zip: Option<String>,
}

fn order() -> Value {
    json!({
        "customer": {"name": "Ada", "e-mail": "ada@example.com"},
        "items": [{"sku": "ABC-001", "qty": 1}, {"sku": "ABC-002", "qty": 2}, {"sku": "ABC-003", "qty": 3}],
    })
}

#[test]
fn every_error_of_a_call_is_reported() {
    let raw = json!({"order_id": "ord_A1b2C3d4", "amount": 1999, "reason": "late", "tags": [1, "x", false]});
    let rejection = IssueRefund::parse(&raw).unwrap_err();
    assert_eq!(
        codes(&rejection),
        [
            ("unknown_field".to_owned(), "$.amount".to_owned()),
            ("missing".to_owned(), "$.amount_cents".to_owned()),
            ("type".to_owned(), "$.tags[0]".to_owned()),
            ("type".to_owned(), "$.tags[2]".to_owned()),
        ]
    );
    let body: Value = serde_json::from_str(&rejection.for_model()).unwrap();
    assert_eq!(body["ok"], json!(false));
    assert_eq!(body["errors"].as_array().unwrap().len(), 4);
    assert!(rejection.for_model().starts_with(
        r#"{"ok":false,"errors":[{"error":"unknown_field","path":"$.amount","message":"#
    ));
}

#[test]
fn messages_say_what_was_expected_and_what_arrived() {
    let err = IssueRefund::parse(payload("amount_cents", json!(0))).unwrap_err();
    assert_eq!(
        err.errors()[0].message,
        "expected an integer from 1 to 50000, got the number 0"
    );
    let err = IssueRefund::parse(payload("reason", json!("broken"))).unwrap_err();
    assert!(err.errors()[0]
        .message
        .contains(r#""damaged", "late", "duplicate", "other""#));
    let long = "x".repeat(100_000);
    let err = IssueRefund::parse(payload("order_id", json!(long))).unwrap_err();
    assert!(
        err.errors()[0].message.len() < 200,
        "{}",
        err.errors()[0].message
    );
}

#[test]
fn nested_paths_name_the_exact_value() {
    let mut call = order();
    call["items"][2]["qty"] = json!("0");
    call["items"][0]["sku"] = json!("abc-001");
    call["customer"]["e-mail"] = json!(7);
    call["shipping"] = json!({"city": "Oslo", "zip": 123, "floor": 2});
    let rejection = PlaceOrder::parse(&call).unwrap_err();
    assert_eq!(
        codes(&rejection),
        [
            ("type".to_owned(), "$.customer['e-mail']".to_owned()),
            ("pattern".to_owned(), "$.items[0].sku".to_owned()),
            ("out_of_range".to_owned(), "$.items[2].qty".to_owned()),
            ("unknown_field".to_owned(), "$.shipping.floor".to_owned()),
            ("type".to_owned(), "$.shipping.zip".to_owned()),
        ]
    );
}

#[test]
fn nested_repairs_and_defaults() {
    let mut call = order();
    call["items"][1]["qty"] = json!("2");
    call["reasons"] = json!("LATE");
    call["shipping"] = Value::Null;
    let parsed = PlaceOrder::parse(&call).unwrap();
    assert_eq!(
        parsed
            .repairs
            .iter()
            .map(|r| (r.rule.as_str(), r.path.as_str()))
            .collect::<Vec<_>>(),
        [
            ("numeric_string_to_int", "$.items[1].qty"),
            ("null_to_absent", "$.shipping"),
            ("scalar_to_list", "$.reasons"),
            ("enum_casefold", "$.reasons[0]"),
        ]
    );
    assert_eq!(parsed.args.reasons, [Reason::Late]);
    assert_eq!(parsed.args.speed, "standard");
    let again = PlaceOrder::parse(parsed.args.to_json()).unwrap();
    assert_eq!(again.args, parsed.args);
    assert!(again.repairs.is_empty());

    let defaults = PlaceOrder::parse(order()).unwrap();
    assert_eq!(defaults.args.reasons, [Reason::Other]);
    assert_eq!(defaults.args.to_json()["speed"], json!("standard"));
}

#[test]
fn list_lengths_are_checked() {
    let mut call = order();
    call["items"] = json!([]);
    let rejection = PlaceOrder::parse(&call).unwrap_err();
    assert_eq!(
        codes(&rejection),
        [("length".to_owned(), "$.items".to_owned())]
    );
    call["customer"]["name"] = json!("");
    let rejection = PlaceOrder::parse(&call).unwrap_err();
    assert_eq!(rejection.errors()[0].path, "$.customer.name");
    assert_eq!(rejection.errors()[0].code, "length");
}

#[test]
fn a_lone_object_is_not_a_list() {
    let mut call = order();
    call["items"] = json!({"sku": "ABC-001", "qty": 1});
    let rejection = PlaceOrder::parse(&call).unwrap_err();
    assert_eq!(
        codes(&rejection),
        [("type".to_owned(), "$.items".to_owned())]
    );
}

/// One field of every integer width.
#[derive(ToolArgs, Debug, PartialEq)]
struct Widths {
    a: i8,
    b: i16,
    c: i32,
    d: i64,
    e: isize,
    f: u8,
    g: u16,
    h: u32,
    i: u64,
    j: usize,
}

#[test]
fn each_integer_width_has_its_own_range() {
    let lows = json!({"a": i8::MIN, "b": i16::MIN, "c": i32::MIN, "d": i64::MIN, "e": i64::MIN,
                      "f": 0, "g": 0, "h": 0, "i": 0, "j": 0});
    let highs = json!({"a": i8::MAX, "b": i16::MAX, "c": i32::MAX, "d": i64::MAX, "e": i64::MAX,
                       "f": u8::MAX, "g": u16::MAX, "h": u32::MAX, "i": u64::MAX, "j": u64::MAX});
    let parsed = Widths::parse(&highs).unwrap();
    assert_eq!(parsed.args.i, u64::MAX);
    assert_eq!(parsed.args.to_json(), highs);
    assert!(Widths::parse(&lows).unwrap().repairs.is_empty());

    // One past each end, written as literal text so that nothing is rounded on the way.
    let past_low = r#"{"a":-129,"b":-32769,"c":-2147483649,"d":-9223372036854775809,"e":-9223372036854775809,
                      "f":-1,"g":-1,"h":-1,"i":-1,"j":-1}"#;
    let past_high = r#"{"a":128,"b":32768,"c":2147483648,"d":9223372036854775808,"e":9223372036854775808,
                       "f":256,"g":65536,"h":4294967296,"i":18446744073709551616,"j":18446744073709551616}"#;
    for raw in [past_low, past_high] {
        let rejection = Widths::parse(raw).unwrap_err();
        assert_eq!(rejection.errors().len(), 10, "{rejection}");
        assert!(
            rejection.errors().iter().all(|e| e.code == "out_of_range"),
            "{rejection}"
        );
    }
    // Strings get the same range, and a huge digit string is out of range, not a crash.
    let mut call = highs.clone();
    call["f"] = json!("256");
    call["i"] = json!("99999999999999999999999999999999999999999999");
    let rejection = Widths::parse(&call).unwrap_err();
    assert_eq!(
        codes(&rejection),
        [
            ("out_of_range".to_owned(), "$.f".to_owned()),
            ("out_of_range".to_owned(), "$.i".to_owned())
        ]
    );
}

#[test]
fn integral_floats_are_judged_on_their_digits() {
    for (literal, outcome) in [
        ("1999.0", Ok(1999)),
        ("1.999e3", Ok(1999)),
        ("19990e-1", Ok(1999)),
        ("1999.0000000000000001", Err("lossy_number")),
        ("1e400", Err("out_of_range")),
        ("-0.0", Err("out_of_range")),
    ] {
        let raw =
            format!(r#"{{"order_id":"ord_A1b2C3d4","amount_cents":{literal},"reason":"late"}}"#);
        match (IssueRefund::parse(raw.as_str()), outcome) {
            (Ok(p), Ok(v)) => {
                assert_eq!(p.args.amount_cents, v);
                assert_eq!(rules(&p), ["integral_float_to_int"]);
            }
            (Err(r), Err(code)) => assert_eq!(r.errors()[0].code, code, "{literal}"),
            (other, _) => panic!("{literal}: {other:?}"),
        }
    }
}

#[derive(ToolArgs, Debug, PartialEq)]
struct Measure {
    #[arg(min = 0.5, max = 100)]
    weight_kg: f64,
    ratio: f32,
}

#[test]
fn numbers() {
    let parsed = Measure::parse(r#"{"weight_kg": 20, "ratio": 0.1}"#).unwrap();
    assert!(
        parsed.repairs.is_empty(),
        "an integer for a number is not a repair"
    );
    assert_eq!(parsed.args.weight_kg, 20.0);
    assert_eq!(parsed.args.to_json()["ratio"], json!(0.1));

    let parsed = Measure::parse(r#"{"weight_kg": "19.99", "ratio": "-0.5"}"#).unwrap();
    assert_eq!(
        rules(&parsed),
        ["numeric_string_to_number", "numeric_string_to_number"]
    );
    assert_eq!(parsed.args.weight_kg, 19.99);

    for (value, code) in [
        (json!("1e3"), "ambiguous_number"),
        (json!("1,5"), "ambiguous_number"),
        (json!(" 2"), "ambiguous_number"),
        (json!("NaN"), "ambiguous_number"),
        (json!(true), "type"),
        (json!(0.49), "out_of_range"),
        (json!(100.01), "out_of_range"),
    ] {
        let raw = json!({"weight_kg": value, "ratio": 1});
        let rejection = Measure::parse(&raw).unwrap_err();
        assert_eq!(
            codes(&rejection),
            [(code.to_owned(), "$.weight_kg".to_owned())],
            "{value}"
        );
    }
    let rejection = Measure::parse(r#"{"weight_kg": 1, "ratio": 1e39}"#).unwrap_err();
    assert_eq!(
        codes(&rejection),
        [("out_of_range".to_owned(), "$.ratio".to_owned())]
    );
    let rejection = Measure::parse(r#"{"weight_kg": Infinity, "ratio": 1}"#).unwrap_err();
    assert_eq!(rejection.errors()[0].code, "non_finite_number");
}

#[derive(ToolArgs, Debug, PartialEq)]
struct Meeting {
    starts: DateTime<FixedOffset>,
    ends: DateTime<Utc>,
    day: Option<NaiveDate>,
}

#[test]
fn date_times_need_an_explicit_offset() {
    let parsed = Meeting::parse(
        r#"{"starts":"2026-03-04T10:00:00+02:00","ends":"2026-03-04T10:30:00.250+02:00"}"#,
    )
    .unwrap();
    assert!(parsed.repairs.is_empty());
    assert_eq!(
        parsed.args.to_json()["starts"],
        json!("2026-03-04T10:00:00+02:00")
    );
    assert_eq!(
        parsed.args.to_json()["ends"],
        json!("2026-03-04T08:30:00.250Z")
    );
    let again = Meeting::parse(parsed.args.to_json()).unwrap();
    assert_eq!(again.args, parsed.args);
    assert!(again.repairs.is_empty());

    for (value, code) in [
        ("2026-03-04T10:00:00", "ambiguous_datetime"),
        ("2026-03-04 10:00:00Z", "ambiguous_datetime"),
        ("03/04/2026 10:00", "ambiguous_datetime"),
        ("2026-03-04", "ambiguous_datetime"),
        ("2026-02-30T10:00:00Z", "invalid_datetime"),
        ("2026-03-04T25:00:00Z", "invalid_datetime"),
        ("2026-03-04T10:00:00+24:00", "invalid_datetime"),
    ] {
        let raw = json!({"starts": value, "ends": "2026-03-04T10:00:00Z"});
        let rejection = Meeting::parse(&raw).unwrap_err();
        assert_eq!(
            codes(&rejection),
            [(code.to_owned(), "$.starts".to_owned())],
            "{value}"
        );
    }
    for (value, code) in [
        ("2026-3-4", "ambiguous_date"),
        ("２０２６-03-04", "ambiguous_date"),
        ("2026-13-01", "invalid_date"),
    ] {
        let raw =
            json!({"starts": "2026-03-04T10:00:00Z", "ends": "2026-03-04T10:00:00Z", "day": value});
        let rejection = Meeting::parse(&raw).unwrap_err();
        assert_eq!(
            codes(&rejection),
            [(code.to_owned(), "$.day".to_owned())],
            "{value}"
        );
    }
}

#[test]
fn enums_match_exactly_or_by_unique_ascii_case() {
    for (value, outcome) in [
        ("late", Ok(vec![])),
        ("LATE", Ok(vec!["enum_casefold"])),
        (" late", Err("enum")),
        ("lat\u{0435}", Err("enum")), // Cyrillic 'е'
        ("ＬＡＴＥ", Err("enum")),
        ("", Err("enum")),
    ] {
        match (IssueRefund::parse(payload("reason", json!(value))), outcome) {
            (Ok(p), Ok(expected)) => assert_eq!(rules(&p), expected, "{value}"),
            (Err(r), Err(code)) => assert_eq!(r.errors()[0].code, code, "{value}"),
            (other, _) => panic!("{value:?}: {other:?}"),
        }
    }
}

#[derive(ToolArgs, Debug, PartialEq)]
#[toolargs(name = "set_mode", unknown = "strip")]
struct SetMode {
    mode: Mode,
    #[arg(strict)]
    limits: Limits,
}

#[derive(ToolArgs, Debug, PartialEq)]
enum Mode {
    #[arg(rename = "fast-path")]
    Fast,
    Careful,
}

#[derive(ToolArgs, Debug, PartialEq)]
struct Limits {
    retries: u8,
    verbose: bool,
}

#[test]
fn rename_strict_below_a_field_and_strip_policy() {
    let parsed =
        SetMode::parse(r#"{"mode":"FAST-PATH","limits":{"retries":3,"verbose":true,"x":1},"y":2}"#)
            .unwrap();
    assert_eq!(parsed.args.mode, Mode::Fast);
    assert_eq!(
        parsed
            .repairs
            .iter()
            .map(|r| (r.rule.as_str(), r.path.as_str()))
            .collect::<Vec<_>>(),
        [
            ("strip_unknown_field", "$.y"),
            ("enum_casefold", "$.mode"),
            ("strip_unknown_field", "$.limits.x")
        ]
    );
    assert_eq!(parsed.repairs[0].before, json!(2));
    // `strict` on the struct field forbids repairs of the values inside it.
    let rejection =
        SetMode::parse(r#"{"mode":"careful","limits":{"retries":"3","verbose":"true"}}"#)
            .unwrap_err();
    assert_eq!(
        codes(&rejection),
        [
            ("repair_forbidden".to_owned(), "$.limits.retries".to_owned()),
            ("repair_forbidden".to_owned(), "$.limits.verbose".to_owned()),
        ]
    );
    assert_eq!(SetMode::UNKNOWN, UnknownPolicy::Strip);
    assert_eq!(SetMode::EFFECT, Effect::Destructive);
}

#[test]
fn every_input_form_is_accepted() {
    let text = base().to_string();
    let value = base();
    let inputs: Vec<RawArgs<'_>> = vec![
        RawArgs::from(text.as_str()),
        RawArgs::from(text.clone()),
        RawArgs::from(&text),
        RawArgs::from(text.as_bytes()),
        RawArgs::from(value.clone()),
        RawArgs::from(&value),
        RawArgs::from(Value::String(text.clone())),
    ];
    for raw in inputs {
        let parsed = IssueRefund::parse(raw).unwrap();
        assert_eq!(parsed.args.amount_cents, 1999);
        assert!(parsed.repairs.is_empty());
    }
    let invalid = IssueRefund::parse(&b"{\"order_id\":\"\xff\"}"[..]).unwrap_err();
    assert_eq!(invalid.errors()[0].code, "invalid_json");
}

#[test]
fn duplicate_keys_are_found_inside_nested_objects() {
    let raw = r#"{"customer":{"name":"Ada","e-mail":"a@x","name":"Bob"},"items":[{"sku":"ABC-001","qty":1,"q\u0074y":2}]}"#;
    let rejection = PlaceOrder::parse(raw).unwrap_err();
    assert_eq!(
        codes(&rejection),
        [("duplicate_key".to_owned(), "$.customer.name".to_owned())]
    );
    let raw = r#"{"customer":{"name":"Ada","e-mail":"a@x"},"items":[{"sku":"ABC-001","qty":1,"q\u0074y":2}]}"#;
    let rejection = PlaceOrder::parse(raw).unwrap_err();
    assert_eq!(
        codes(&rejection),
        [("duplicate_key".to_owned(), "$.items[0].qty".to_owned())]
    );
}

#[test]
fn schema_describes_the_contract() {
    let schema = IssueRefund::json_schema();
    assert_eq!(
        schema["$schema"],
        json!("https://json-schema.org/draft/2020-12/schema")
    );
    assert_eq!(schema["title"], json!("issue_refund"));
    assert_eq!(schema["description"], json!("Refund part of an order."));
    assert_eq!(schema["additionalProperties"], json!(false));
    assert_eq!(
        schema["required"],
        json!(["order_id", "amount_cents", "reason"])
    );
    let p = &schema["properties"];
    assert_eq!(p["order_id"]["pattern"], json!("^(?:ord_[A-Za-z0-9]{8})$"));
    assert_eq!(p["order_id"]["description"], json!("The order to refund."));
    assert_eq!(
        p["amount_cents"],
        json!({"type": "integer", "minimum": 1, "maximum": 50000, "description": "Amount in cents."})
    );
    assert_eq!(p["notify_customer"]["default"], json!(false));
    assert_eq!(
        p["reason"]["enum"],
        json!(["damaged", "late", "duplicate", "other"])
    );
    assert_eq!(
        p["reason"]["description"],
        json!("Why the order is refunded.")
    );
    assert_eq!(
        p["tags"],
        json!({"type": "array", "items": {"type": "string"}, "default": []})
    );
    assert_eq!(
        p["effective_date"],
        json!({"type": "string", "format": "date"})
    );

    let schema = PlaceOrder::json_schema();
    let items = &schema["properties"]["items"];
    assert_eq!(items["minItems"], json!(1));
    assert_eq!(
        items["items"]["properties"]["qty"],
        json!({"type": "integer", "minimum": 1, "maximum": 99})
    );
    assert_eq!(items["items"]["additionalProperties"], json!(false));
    assert_eq!(
        schema["properties"]["customer"]["required"],
        json!(["name", "e-mail"])
    );
    assert_eq!(schema["properties"]["reasons"]["default"], json!(["other"]));
    assert_eq!(
        Widths::json_schema()["properties"]["f"],
        json!({"type": "integer", "minimum": 0, "maximum": 255})
    );
    assert_eq!(
        Widths::json_schema()["properties"]["d"],
        json!({"type": "integer"})
    );
}

#[test]
fn nulls_can_be_read_as_absent_without_a_repair() {
    let raw = json!({"order_id": "ord_A1b2C3d4", "amount_cents": 1999, "reason": "late",
                     "notify_customer": null, "tags": null, "effective_date": null});
    let options = toolargs::ParseOptions::DEFAULT.with_null_as_absent(true);
    let parsed = toolargs::parse_with::<IssueRefund>(&RawArgs::from(&raw), &options).unwrap();
    assert!(parsed.repairs.is_empty());
    assert_eq!(parsed.args.tags, Vec::<String>::new());
    let default = IssueRefund::parse(&raw).unwrap();
    assert_eq!(rules(&default), ["null_to_absent"; 3]);
    assert_eq!(default.args, parsed.args);
    let missing = toolargs::parse_with::<IssueRefund>(
        &RawArgs::from(
            &json!({"order_id": "ord_A1b2C3d4", "amount_cents": null, "reason": "late"}),
        ),
        &options,
    )
    .unwrap_err();
    assert_eq!(
        codes(&missing),
        [("missing".to_owned(), "$.amount_cents".to_owned())]
    );
}

#[test]
fn errors_can_be_judged_without_their_messages() {
    let options = toolargs::ParseOptions::DEFAULT.with_omit_messages(true);
    let calls = [
        json!({"order_id": "ord_A1b2C3d4", "amount_cents": 0, "reason": "late"}),
        json!({"order_id": "bad", "amount_cents": "19.99", "reason": "broken",
               "notify_customer": "maybe", "effective_date": "03/04/2026", "tags": "a, b"}),
        json!({"order_id": 7, "amount_cents": 1.5, "reason": "late", "x": 1}),
        json!({"amount_cents": true}),
        json!([1, 2]),
    ];
    for raw in &calls {
        let full = IssueRefund::parse(raw).unwrap_err();
        let quiet = toolargs::parse_with::<IssueRefund>(&RawArgs::from(raw), &options).unwrap_err();
        assert_eq!(codes(&quiet), codes(&full), "{raw}");
        assert!(full.errors().iter().all(|e| !e.message.is_empty()), "{raw}");
        assert!(quiet.errors().iter().all(|e| e.message.is_empty()), "{raw}");
    }
    // Repairs are recorded in full either way.
    let raw = json!({"order_id": "ord_A1b2C3d4", "amount_cents": "1999", "reason": "LATE"});
    let quiet = toolargs::parse_with::<IssueRefund>(&RawArgs::from(&raw), &options).unwrap();
    assert_eq!(quiet.repairs, IssueRefund::parse(&raw).unwrap().repairs);
}
