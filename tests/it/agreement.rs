//! The schema and the parser agree: for the refund tool and two richer ones,
//! (a) every canonical output validates against `json_schema()`,
//! (b) every call the schema accepts parses with zero repairs and means what was sent,
//! (c) whatever the parser rejects the schema rejects, and a call the parser reads without a
//!     repair is one the schema accepts,
//! (d) in every dialect, a call that conforms to the schema shown to the model parses with zero
//!     repairs, unless it breaks a rule that dialect cannot express; and each definition has its
//!     provider's shape.
//!
//! Calls are generated from the schema's structure alone, so the generator knows nothing the
//! model would not. The divergences that remain are pinned by the tests at the end:
//! - JSON Schema counts `1999.0` as an integer; the parser repairs it (`integral_float_to_int`).
//! - An `i64`/`u64` field's own range is not stated in the schema, so `2^63` passes the schema
//!   and is `out_of_range` for the parser.
//! - A `DateTime<Utc>` whose UTC year leaves 0000..=9999 (`0000-01-01T00:30:00+01:00`) passes
//!   `format: date-time` and is `invalid_datetime` for the parser: its canonical form could not
//!   be written.
//! - A key sent twice is `duplicate_key`; a decoded JSON value cannot carry it, so no schema can.

use crate::common::{validator, IssueRefund};
use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::strategy::Union;
use proptest::string::string_regex;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{json, Map, Value};
use toolargs::ext::coerce::optional::nullable;
use toolargs::{Dialect, ToolArgs};
use toolargs_core::provider::Provider;

/// Schedule a shipment of one or more parcels.
#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(name = "schedule_shipment", effect = "additive")]
struct ScheduleShipment {
    /// Who receives the parcels.
    recipient: Contact,
    #[arg(min_items = 1, max_items = 4)]
    parcels: Vec<Parcel>,
    /// The day the carrier collects the parcels.
    pickup_day: NaiveDate,
    /// Deliver no earlier than this instant.
    deliver_after: Option<DateTime<Utc>>,
    #[arg(default = Speed::Standard)]
    speed: Speed,
    /// Declared value, in euros.
    #[arg(min = 0.0, max = 10000.0)]
    insured_value: Option<f64>,
    #[arg(default, max_len = 80)]
    notes: Vec<String>,
    return_to: Option<Address>,
    #[arg(default = 1, min = 1, max = 3)]
    attempts: u8,
}

#[derive(ToolArgs, Debug, Clone, PartialEq)]
struct Contact {
    #[arg(min_len = 1, max_len = 40)]
    name: String,
    #[arg(pattern = r"\+[0-9]{7,15}")]
    phone: Option<String>,
    #[arg(rename = "e-mail")]
    email: Option<String>,
}

#[derive(ToolArgs, Debug, Clone, PartialEq)]
struct Parcel {
    #[arg(min = 0.1, max = 30.0)]
    weight_kg: f64,
    #[arg(min = 1, max = 200)]
    length_cm: u16,
    #[arg(default)]
    fragile: bool,
    #[arg(default, max_items = 3, pattern = "[A-Z]{3}-[0-9]{3}")]
    labels: Vec<String>,
}

#[derive(ToolArgs, Debug, Clone, PartialEq)]
struct Address {
    street: String,
    city: String,
    #[arg(pattern = "[0-9]{4,5}")]
    zip: Option<String>,
}

/// How fast the parcels travel.
#[derive(ToolArgs, Debug, Clone, Copy, PartialEq)]
enum Speed {
    Standard,
    Express,
    #[arg(rename = "same-day")]
    SameDay,
}

/// Search the event log.
#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(name = "search_events", effect = "read_only")]
struct SearchEvents {
    #[arg(min_len = 1, max_len = 100)]
    query: String,
    window: Option<Window>,
    #[arg(default)]
    kinds: Vec<Kind>,
    #[arg(min = -90.0, max = 90.0)]
    latitude: Option<f64>,
    #[arg(default = 20, min = 1, max = 100)]
    limit: u32,
    /// One score per page; null for a page without one.
    scores: Option<Vec<Option<i16>>>,
    #[arg(default)]
    exact: bool,
}

#[derive(ToolArgs, Debug, Clone, PartialEq)]
struct Window {
    from: DateTime<FixedOffset>,
    to: Option<DateTime<FixedOffset>>,
    #[arg(max_items = 3)]
    days: Vec<NaiveDate>,
}

#[derive(ToolArgs, Debug, Clone, Copy, PartialEq)]
enum Kind {
    Login,
    Logout,
    #[arg(rename = "password-reset")]
    PasswordReset,
}

fn run<S: Strategy>(cases: u32, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    if let Err(e) = TestRunner::new(config).run(&strategy, test) {
        panic!("{e}");
    }
}

// ---------------------------------------------------------------------------------------------
// Calls generated from a schema's structure.

/// Values `schema` accepts. Integers stay within 64 bits and date-times within the years
/// 0001..=9998 (see the divergences above); everything else the schema allows is fair game:
/// any Unicode in unpatterned strings, integers for number fields, any offset, `t` and `z` in
/// either case, fractional seconds.
fn conforming(schema: &Value) -> BoxedStrategy<Value> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return proptest::sample::select(values.clone()).boxed();
    }
    if let Some(value) = schema.get("const") {
        return Just(value.clone()).boxed();
    }
    if let Some(branches) = schema.get("anyOf").and_then(Value::as_array) {
        return Union::new(branches.iter().map(conforming)).boxed();
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t],
        Value::Array(types) => types.iter().filter_map(Value::as_str).collect(),
        other => panic!("a schema without a type: {other}"),
    };
    Union::new(types.into_iter().map(|t| of_type(schema, t))).boxed()
}

fn of_type(schema: &Value, t: &str) -> BoxedStrategy<Value> {
    let count = |key: &str, or: usize| {
        schema
            .get(key)
            .and_then(Value::as_u64)
            .map_or(or, |n| n as usize)
    };
    match t {
        "null" => Just(Value::Null).boxed(),
        "boolean" => any::<bool>().prop_map(Value::from).boxed(),
        "integer" => {
            let low = schema
                .get("minimum")
                .and_then(Value::as_i64)
                .unwrap_or(i64::MIN);
            let high = schema
                .get("maximum")
                .and_then(Value::as_i64)
                .unwrap_or(i64::MAX);
            prop_oneof![low..=high, Just(low), Just(high)]
                .prop_map(Value::from)
                .boxed()
        }
        "number" => {
            let low = schema
                .get("minimum")
                .and_then(Value::as_f64)
                .unwrap_or(-1e15);
            let high = schema
                .get("maximum")
                .and_then(Value::as_f64)
                .unwrap_or(1e15);
            prop_oneof![
                (low..=high).prop_map(Value::from),
                // An integer is a number: no repair.
                (low.ceil() as i64..=high.floor() as i64).prop_map(Value::from),
                Just(Value::from(low)),
                Just(Value::from(high)),
            ]
            .boxed()
        }
        "string" => match schema.get("format").and_then(Value::as_str) {
            Some("date") => (-365..=3_652_059i32).prop_map(date).boxed(),
            Some("date-time") => date_time().boxed(),
            _ => match schema.get("pattern").and_then(Value::as_str) {
                Some(p) => string_regex(unanchored(p))
                    .expect("the pattern generates")
                    .prop_map(Value::from)
                    .boxed(),
                None => vec(
                    any::<char>(),
                    count("minLength", 0)..=count("maxLength", 12),
                )
                .prop_map(|chars| Value::from(chars.into_iter().collect::<String>()))
                .boxed(),
            },
        },
        "array" => vec(
            conforming(&schema["items"]),
            count("minItems", 0)..=count("maxItems", 3),
        )
        .prop_map(Value::Array)
        .boxed(),
        "object" => {
            let required = schema["required"].as_array().cloned().unwrap_or_default();
            let members: Vec<BoxedStrategy<Option<(String, Value)>>> = schema["properties"]
                .as_object()
                .expect("an object schema has properties")
                .iter()
                .map(|(name, prop)| {
                    let name = name.clone();
                    if required.contains(&Value::from(name.as_str())) {
                        conforming(prop)
                            .prop_map(move |v| Some((name.clone(), v)))
                            .boxed()
                    } else {
                        proptest::option::of(conforming(prop))
                            .prop_map(move |v| v.map(|v| (name.clone(), v)))
                            .boxed()
                    }
                })
                .collect();
            members
                .prop_map(|m| Value::Object(m.into_iter().flatten().collect()))
                .boxed()
        }
        other => panic!("unexpected type {other}"),
    }
}

/// The declared pattern inside the derive's `^(?:...)$`.
fn unanchored(pattern: &str) -> &str {
    pattern
        .strip_prefix("^(?:")
        .and_then(|p| p.strip_suffix(")$"))
        .unwrap_or(pattern)
}

fn date(days_from_ce: i32) -> Value {
    let day = NaiveDate::from_num_days_from_ce_opt(days_from_ce).expect("a day");
    Value::from(day.format("%Y-%m-%d").to_string())
}

/// RFC 3339 date-times in every spelling `format: date-time` allows and the parser reads
/// without a repair.
fn date_time() -> impl Strategy<Value = Value> {
    let zone = prop_oneof![
        Just("Z".to_owned()),
        Just("z".to_owned()),
        (any::<bool>(), 0..24u32, 0..60u32)
            .prop_map(|(east, h, m)| format!("{}{h:02}:{m:02}", if east { '+' } else { '-' })),
    ];
    let fraction = prop_oneof![
        Just(String::new()),
        (1..=9usize, 0..1_000_000_000u32)
            .prop_map(|(n, ns)| format!(".{:0n$}", ns % 10u32.pow(n as u32))),
    ];
    (
        366..=3_651_694i32,
        0..86_400u32,
        any::<bool>(),
        fraction,
        zone,
    )
        .prop_map(|(day, second, upper, fraction, zone)| {
            let Value::String(day) = date(day) else {
                unreachable!()
            };
            let (h, m, s) = (second / 3600, second / 60 % 60, second % 60);
            let t = if upper { 'T' } else { 't' };
            Value::from(format!("{day}{t}{h:02}:{m:02}:{s:02}{fraction}{zone}"))
        })
}

/// Whether `got` (a canonical output) means what `sent` (a call) meant, read by the plain
/// `schema`: absent or null is the default, numbers compare by value, date-times by instant.
fn same_meaning(schema: &Value, sent: &Value, got: &Value) -> Result<(), String> {
    let differ = || Err(format!("sent {sent}, read back {got}"));
    if let Some(branches) = schema.get("anyOf").and_then(Value::as_array) {
        return match branches.iter().any(|b| same_meaning(b, sent, got).is_ok()) {
            true => Ok(()),
            false => differ(),
        };
    }
    match (sent, got) {
        (Value::Object(s), Value::Object(g)) => {
            // An object sent against a branch of another type (in an `anyOf`) differs.
            let Some(props) = schema["properties"].as_object() else {
                return differ();
            };
            if g.keys().any(|k| !props.contains_key(k)) {
                return differ();
            }
            for (name, prop) in props {
                match (
                    s.get(name).filter(|v| !v.is_null()),
                    g.get(name),
                    prop.get("default"),
                ) {
                    (Some(s), Some(g), _) | (None, Some(g), Some(s)) => same_meaning(prop, s, g)?,
                    (None, None, None) => {}
                    _ => return differ(),
                }
            }
            Ok(())
        }
        (Value::Array(s), Value::Array(g)) if s.len() == g.len() => s
            .iter()
            .zip(g)
            .try_for_each(|(s, g)| same_meaning(&schema["items"], s, g)),
        (Value::Number(s), Value::Number(g)) => {
            let same = match (s.as_i64(), g.as_i64()) {
                (Some(a), Some(b)) => a == b,
                _ => s.as_f64() == g.as_f64(),
            };
            if same {
                Ok(())
            } else {
                differ()
            }
        }
        (Value::String(s), Value::String(g)) if schema["format"] == "date-time" => {
            let instant = |t: &str| DateTime::parse_from_rfc3339(t).ok();
            if instant(s).is_some() && instant(s) == instant(g) {
                Ok(())
            } else {
                differ()
            }
        }
        _ if sent == got => Ok(()),
        _ => differ(),
    }
}

// ---------------------------------------------------------------------------------------------
// (a) and (b): every call the schema accepts parses with zero repairs, means what was sent, and
// its canonical output validates.

fn schema_valid_calls_parse_clean<T: ToolArgs>() {
    let schema = T::json_schema();
    let check = validator(&schema);
    run(512, conforming(&schema), |call| {
        prop_assert!(check.is_valid(&call), "the generator made {call}");
        let parsed = T::parse(&call)
            .map_err(|e| TestCaseError::fail(format!("{call} was rejected: {}", e.for_model())))?;
        prop_assert!(parsed.repairs.is_empty(), "{call}: {:?}", parsed.repairs);
        let canonical = parsed.args.to_json();
        prop_assert!(check.is_valid(&canonical), "canonical {canonical}");
        same_meaning(&schema, &call, &canonical).map_err(TestCaseError::fail)?;
        // The same as JSON text.
        let text = T::parse(call.to_string()).map_err(|e| TestCaseError::fail(e.for_model()))?;
        prop_assert!(text.repairs.is_empty());
        prop_assert_eq!(text.args.to_json(), canonical);
        Ok(())
    });
}

#[test]
fn refund_calls_the_schema_accepts_parse_clean() {
    schema_valid_calls_parse_clean::<IssueRefund>();
}

#[test]
fn shipment_calls_the_schema_accepts_parse_clean() {
    schema_valid_calls_parse_clean::<ScheduleShipment>();
}

#[test]
fn search_calls_the_schema_accepts_parse_clean() {
    schema_valid_calls_parse_clean::<SearchEvents>();
}

#[test]
fn canonical_outputs_of_full_calls_validate() {
    let refund = IssueRefund::parse(json!({
        "order_id": "ord_A1b2C3d4", "amount_cents": "50000", "notify_customer": "TRUE",
        "reason": "Other", "tags": "fragile", "effective_date": "2026-02-28",
    }))
    .unwrap();
    assert_eq!(refund.repairs.len(), 4);
    let shipment = ScheduleShipment::parse(json!({
        "recipient": {"name": "Ada Lovelace", "phone": "+4412345678", "e-mail": null},
        "parcels": [{"weight_kg": "0.1", "length_cm": 200.0, "labels": "ABC-123"},
                    {"weight_kg": 30, "length_cm": 1, "fragile": true}],
        "pickup_day": "2026-03-04", "deliver_after": "2026-03-05T09:30:00.250+02:00",
        "speed": "Same-Day", "insured_value": 10000, "notes": ["ring twice"],
        "return_to": {"street": "1 Main St", "city": "Oslo", "zip": "0150"}, "attempts": "3",
    }))
    .unwrap();
    let search = SearchEvents::parse(json!({
        "query": "failed login", "window": {"from": "2026-03-01T00:00:00-05:00", "days": "2026-03-02"},
        "kinds": ["LOGIN", "password-reset"], "latitude": -90, "scores": [3, null, "7"], "ghost": 1,
    }))
    .unwrap();
    for (canonical, schema) in [
        (refund.args.to_json(), IssueRefund::json_schema()),
        (shipment.args.to_json(), ScheduleShipment::json_schema()),
        (search.args.to_json(), SearchEvents::json_schema()),
    ] {
        let errors: Vec<String> = validator(&schema)
            .iter_errors(&canonical)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{canonical}: {errors:?}");
    }
    assert_eq!(search.args.scores, Some(vec![Some(3), None, Some(7)]));
}

// ---------------------------------------------------------------------------------------------
// (c): calls near the schema's edges. Whatever the parser rejects, the schema rejects; whatever
// it reads without a repair, the schema accepts; and a call the schema accepts needs no repair
// but `integral_float_to_int`.

enum Edit {
    Set(Value),
    Remove(String),
    Insert(String, Value),
}

/// Every node of `value` with its schema, by JSON pointer.
fn nodes<'s>(
    schema: &'s Value,
    value: &Value,
    pointer: String,
    out: &mut Vec<(String, &'s Value)>,
) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                if let Some(s) = schema.get("properties").and_then(|p| p.get(key)) {
                    nodes(s, v, format!("{pointer}/{key}"), out);
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                nodes(&schema["items"], v, format!("{pointer}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push((pointer, schema));
}

/// Replacements for a node: wrong kinds, repairable spellings, values just past each bound,
/// unknown and missing keys.
fn edits(schema: &Value, value: &Value) -> Vec<Edit> {
    let junk = r#"[null, true, 0, -1, 1.5, 1e20, "", " ", "x", "1999", "19.99", "TRUE", "a, b",
        [], {}, ["x"], [null], "2026-02-30", "03/04/2026", "2026-03-04T10:00:00",
        "2026-03-04T10:00:60Z", "2026-03-04T10:00:00+24:00"]"#;
    let mut edits: Vec<Edit> = serde_json::from_str::<Vec<Value>>(junk)
        .unwrap()
        .into_iter()
        .map(Edit::Set)
        .collect();
    let integer = schema["type"] == "integer";
    for (key, step) in [("minimum", -1), ("maximum", 1)] {
        let Some(Value::Number(bound)) = schema.get(key) else {
            continue;
        };
        let past = match bound.as_i64() {
            Some(b) if integer => b.checked_add(step).map(Value::from),
            _ => Some(Value::from(bound.as_f64().unwrap() + 0.5 * step as f64)),
        };
        edits.extend(past.map(Edit::Set));
    }
    if let Some(n) = schema.get("maxLength").and_then(Value::as_u64) {
        edits.push(Edit::Set(Value::from("x".repeat(n as usize + 1))));
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        for v in values.iter().filter_map(Value::as_str) {
            edits.push(Edit::Set(Value::from(v.to_uppercase())));
        }
    }
    match value {
        // JSON Schema reads 1999.0 as an integer; the parser repairs it.
        Value::Number(n) if !n.is_f64() => edits.push(Edit::Set(Value::from(n.as_f64().unwrap()))),
        Value::String(s) => {
            edits.push(Edit::Set(Value::from(format!("{s}!"))));
            edits.push(Edit::Set(Value::from(format!(" {s}"))));
            edits.push(Edit::Set(Value::from(s.to_uppercase())));
        }
        Value::Array(items) => {
            edits.push(Edit::Set(
                items.iter().chain(items).chain(items).cloned().collect(),
            ));
            if let [only @ Value::String(_)] = items.as_slice() {
                edits.push(Edit::Set(only.clone()));
            }
        }
        Value::Object(map) => {
            for key in schema["required"].as_array().into_iter().flatten() {
                let key = key.as_str().unwrap();
                if map.contains_key(key) {
                    edits.push(Edit::Remove(key.to_owned()));
                }
            }
            edits.push(Edit::Insert("zzz".to_owned(), json!(1)));
        }
        _ => {}
    }
    edits
}

fn edited(schema: &Value, mut call: Value, picks: &[(Index, Index)]) -> Value {
    for (node, edit) in picks {
        let mut all = Vec::new();
        nodes(schema, &call, String::new(), &mut all);
        let (pointer, node_schema) = node.get(&all);
        let target = call.pointer_mut(pointer).expect("the node exists");
        let choices = edits(node_schema, target);
        match edit.get(&choices) {
            Edit::Set(v) => *target = v.clone(),
            Edit::Remove(key) => {
                target.as_object_mut().unwrap().remove(key);
            }
            Edit::Insert(key, v) => {
                target
                    .as_object_mut()
                    .unwrap()
                    .insert(key.clone(), v.clone());
            }
        }
    }
    call
}

fn parser_rejects_only_what_the_schema_rejects<T: ToolArgs>() {
    let schema = T::json_schema();
    let check = validator(&schema);
    let picks = vec((any::<Index>(), any::<Index>()), 1..=2);
    run(2_000, (conforming(&schema), picks), |(call, picks)| {
        let call = edited(&schema, call, &picks);
        let valid = check.is_valid(&call);
        match T::parse(&call) {
            Err(e) => prop_assert!(
                !valid,
                "{call} passes the schema, the parser says {}",
                e.for_model()
            ),
            Ok(parsed) => {
                let canonical = parsed.args.to_json();
                prop_assert!(
                    check.is_valid(&canonical),
                    "canonical {canonical} of {call}"
                );
                if parsed.repairs.is_empty() {
                    prop_assert!(valid, "{call} parses clean but fails the schema");
                } else if valid {
                    prop_assert!(
                        parsed
                            .repairs
                            .iter()
                            .all(|r| r.rule == "integral_float_to_int"),
                        "{call} passes the schema but needed {:?}",
                        parsed.repairs
                    );
                }
            }
        }
        Ok(())
    });
}

#[test]
fn refund_rejections_are_schema_rejections() {
    parser_rejects_only_what_the_schema_rejects::<IssueRefund>();
}

#[test]
fn shipment_rejections_are_schema_rejections() {
    parser_rejects_only_what_the_schema_rejects::<ScheduleShipment>();
}

#[test]
fn search_rejections_are_schema_rejections() {
    parser_rejects_only_what_the_schema_rejects::<SearchEvents>();
}

// ---------------------------------------------------------------------------------------------
// (d): every dialect. A call that conforms to the schema a model was shown parses with zero
// repairs (with the dialect's parse options), unless it breaks a rule the dialect cannot
// express; then the parser rejects it for exactly that rule.

/// The rules each dialect cannot express, as the codes the parser rejects them with.
fn inexpressible(dialect: Dialect) -> &'static [&'static str] {
    match dialect {
        d if d.is_strict() => &["length"],
        Dialect::Gemini => &["ambiguous_date", "invalid_date"],
        _ => &[],
    }
}

/// The arguments' schema inside a definition, where the registry of providers says the
/// dialect's provider keeps it, as JSON Schema (Gemini's `nullable` read back).
fn parameters_of(dialect: Dialect, definition: &Value) -> Value {
    let schema = Provider::definition_parts(definition)
        .1
        .unwrap_or(&Value::Null);
    if dialect == Dialect::Gemini {
        from_openapi(schema)
    } else {
        schema.clone()
    }
}

fn from_openapi(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (key, value) in map {
        let value = match key.as_str() {
            "nullable" => continue,
            "properties" => Value::Object(
                value
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(name, s)| (name.clone(), from_openapi(s)))
                    .collect(),
            ),
            "items" => from_openapi(value),
            "anyOf" => Value::Array(value.as_array().unwrap().iter().map(from_openapi).collect()),
            _ => value.clone(),
        };
        out.insert(key.clone(), value);
    }
    if map.get("nullable") == Some(&Value::Bool(true)) {
        nullable(Value::Object(out))
    } else {
        Value::Object(out)
    }
}

fn conforming_calls_parse_clean_in_every_dialect<T: ToolArgs>() {
    let plain = T::json_schema();
    for dialect in Dialect::ALL {
        let schema = parameters_of(dialect, &T::tool_definition(dialect));
        let check = validator(&schema);
        let options = dialect.parse_options();
        let allowed = inexpressible(dialect);
        run(256, conforming(&schema), |call| {
            prop_assert!(check.is_valid(&call), "the generator made {call}");
            match toolargs::parse_with::<T>(&(&call).into(), &options) {
                Ok(parsed) => {
                    prop_assert!(
                        parsed.repairs.is_empty(),
                        "{dialect:?}: {call} needed {:?}",
                        parsed.repairs
                    );
                    same_meaning(&plain, &call, &parsed.args.to_json())
                        .map_err(TestCaseError::fail)?;
                }
                Err(e) => {
                    for error in e.errors() {
                        prop_assert!(
                            allowed.contains(&error.code.as_str()),
                            "{dialect:?}: {call} conforms but is rejected: {}",
                            e.for_model()
                        );
                    }
                }
            }
            Ok(())
        });
    }
}

#[test]
fn refund_calls_conforming_to_any_dialect_parse_clean() {
    conforming_calls_parse_clean_in_every_dialect::<IssueRefund>();
}

#[test]
fn shipment_calls_conforming_to_any_dialect_parse_clean() {
    conforming_calls_parse_clean_in_every_dialect::<ScheduleShipment>();
}

/// A computer-use step: a tagged union beside an untagged one, in a list and optional.
#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(effect = "external", unknown = "reject")]
struct UseComputer {
    action: Step,
    then: Option<Vec<Step>>,
    wait: Option<Pause>,
}

#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(tag = "type")]
enum Step {
    Click {
        #[arg(min = 0, max = 4000)]
        x: i64,
        #[arg(min = 0, max = 4000)]
        y: i64,
        double: Option<bool>,
    },
    Type {
        #[arg(min_len = 1, max_len = 20)]
        text: String,
    },
    Screenshot,
}

#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(untagged)]
enum Pause {
    Seconds(#[arg(min = 0, max = 60)] i64),
    Until {
        #[arg(pattern = "[a-z]+")]
        event: String,
    },
}

#[test]
fn union_calls_the_schema_accepts_parse_clean() {
    schema_valid_calls_parse_clean::<UseComputer>();
}

#[test]
fn union_calls_conforming_to_any_dialect_parse_clean() {
    conforming_calls_parse_clean_in_every_dialect::<UseComputer>();
}

#[test]
fn search_calls_conforming_to_any_dialect_parse_clean() {
    conforming_calls_parse_clean_in_every_dialect::<SearchEvents>();
}

/// `value` with `null` written for every property the strict `schema` requires and `value`
/// leaves out: the call a model in strict mode sends.
fn with_nulls(schema: &Value, value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let props = schema["properties"].as_object().unwrap();
            Value::Object(
                props
                    .iter()
                    .map(|(name, s)| {
                        let v = map.get(name).map_or(Value::Null, |v| with_nulls(s, v));
                        (name.clone(), v)
                    })
                    .collect(),
            )
        }
        Value::Array(items) => items
            .iter()
            .map(|v| with_nulls(&schema["items"], v))
            .collect(),
        other => other.clone(),
    }
}

fn strict_calls_with_nulls_parse_clean<T: ToolArgs>() {
    let plain = T::json_schema();
    for dialect in [
        Dialect::OpenAiChat { strict: true },
        Dialect::OpenAiResponses { strict: true },
    ] {
        let strict = parameters_of(dialect, &T::tool_definition(dialect));
        let check = validator(&strict);
        run(256, conforming(&plain), |call| {
            let Ok(parsed) = T::parse(&call) else {
                return Err(TestCaseError::fail(format!("{call} was rejected")));
            };
            let sent = with_nulls(&strict, &parsed.args.to_json());
            prop_assert!(check.is_valid(&sent), "{sent} fails the strict schema");
            let again = toolargs::parse_with::<T>(&(&sent).into(), &dialect.parse_options())
                .map_err(|e| TestCaseError::fail(e.for_model()))?;
            prop_assert!(again.repairs.is_empty(), "{sent}: {:?}", again.repairs);
            prop_assert_eq!(again.args.to_json(), parsed.args.to_json());
            // Without the option, each null is recorded as a repair.
            let nulls = sent.to_string().matches("null").count();
            let default = T::parse(&sent).unwrap();
            prop_assert!(default.repairs.iter().all(|r| r.rule == "null_to_absent"));
            prop_assert!(default.repairs.len() <= nulls);
            Ok(())
        });
    }
}

#[test]
fn strict_calls_with_nulls_parse_clean_for_every_tool() {
    strict_calls_with_nulls_parse_clean::<IssueRefund>();
    strict_calls_with_nulls_parse_clean::<ScheduleShipment>();
    strict_calls_with_nulls_parse_clean::<SearchEvents>();
}

/// Every schema node in a definition's parameters, with its keywords.
fn each_schema(schema: &Value, visit: &mut dyn FnMut(&Map<String, Value>)) {
    let Some(map) = schema.as_object() else {
        return;
    };
    visit(map);
    if let Some(Value::Object(props)) = map.get("properties") {
        props.values().for_each(|s| each_schema(s, visit));
    }
    if let Some(items) = map.get("items") {
        each_schema(items, visit);
    }
    if let Some(Value::Array(branches)) = map.get("anyOf") {
        branches.iter().for_each(|s| each_schema(s, visit));
    }
}

fn definitions() -> Vec<(Dialect, &'static str, Value, Value)> {
    let mut all = Vec::new();
    for dialect in Dialect::ALL {
        all.push((
            dialect,
            IssueRefund::NAME,
            IssueRefund::tool_definition(dialect),
            IssueRefund::json_schema(),
        ));
        all.push((
            dialect,
            ScheduleShipment::NAME,
            ScheduleShipment::tool_definition(dialect),
            ScheduleShipment::json_schema(),
        ));
        all.push((
            dialect,
            SearchEvents::NAME,
            SearchEvents::tool_definition(dialect),
            SearchEvents::json_schema(),
        ));
        all.push((
            dialect,
            UseComputer::NAME,
            UseComputer::tool_definition(dialect),
            UseComputer::json_schema(),
        ));
    }
    all
}

#[test]
fn gemini_schemas_stay_in_the_openapi_subset() {
    const OPENAPI: &str = concat!(
        "type nullable description properties required items enum format pattern ",
        "minLength maxLength minimum maximum minItems maxItems anyOf"
    );
    for (dialect, name, definition, _) in definitions() {
        if dialect != Dialect::Gemini {
            continue;
        }
        let keys: Vec<&String> = definition.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["name", "description", "parameters"], "{name}");
        each_schema(&definition["parameters"], &mut |schema| {
            for (key, value) in schema {
                assert!(OPENAPI.split(' ').any(|k| k == key), "{name}: {key}");
                if key == "format" {
                    assert_eq!(value, "date-time", "{name}");
                }
            }
            // A union has no type of its own; its branches do.
            let ty = schema.get("type");
            assert!(
                ty.is_some_and(Value::is_string) || schema.contains_key("anyOf"),
                "{name}: {ty:?}"
            );
            assert_ne!(ty, Some(&json!("null")));
            if let Some(values) = schema.get("enum") {
                assert!(values.as_array().unwrap().iter().all(Value::is_string));
            }
        });
    }
    let scores =
        &SearchEvents::tool_definition(Dialect::Gemini)["parameters"]["properties"]["scores"];
    assert_eq!(
        scores["items"],
        json!({"type": "integer", "nullable": true, "minimum": -32768, "maximum": 32767})
    );
}

#[test]
fn strict_schemas_follow_strict_mode() {
    const STRICT: &str = concat!(
        "type description properties required additionalProperties items enum format ",
        "pattern minimum maximum minItems maxItems anyOf const"
    );
    for (dialect, name, definition, plain) in definitions() {
        if !dialect.is_strict() {
            continue;
        }
        let parameters = parameters_of(dialect, &definition);
        each_schema(&parameters, &mut |schema| {
            for key in schema.keys() {
                assert!(STRICT.split(' ').any(|k| k == key), "{name}: {key}");
            }
            let Some(Value::Object(props)) = schema.get("properties") else {
                return;
            };
            let names: Vec<Value> = props.keys().map(|k| Value::from(k.as_str())).collect();
            assert_eq!(schema["required"], Value::Array(names), "{name}");
            assert_eq!(schema["additionalProperties"], false, "{name}");
        });
        // A property the plain schema does not require accepts null, in `type` and `enum`.
        let mut optional = Vec::new();
        collect_optional(&plain, &parameters, &mut optional);
        assert!(!optional.is_empty());
        for schema in optional {
            let null_type = schema["type"]
                .as_array()
                .is_some_and(|t| t.contains(&json!("null")));
            let null_branch = schema["anyOf"]
                .as_array()
                .is_some_and(|b| b.contains(&json!({"type": "null"})));
            assert!(null_type || null_branch, "{name}: {schema}");
            if let Some(values) = schema.get("enum") {
                assert!(values.as_array().unwrap().contains(&Value::Null), "{name}");
            }
        }
    }
}

/// The strict schemas of the properties `plain` leaves optional, at every depth.
fn collect_optional<'s>(plain: &Value, strict: &'s Value, out: &mut Vec<&'s Value>) {
    if let Some(Value::Object(props)) = plain.get("properties") {
        let required = plain["required"].as_array().unwrap();
        for (name, p) in props {
            let s = &strict["properties"][name];
            if !required.contains(&Value::from(name.as_str())) {
                out.push(s);
            }
            collect_optional(p, s, out);
        }
    }
    if let Some(items) = plain.get("items") {
        collect_optional(items, &strict["items"], out);
    }
}

#[test]
fn every_emitted_keyword_is_one_the_dialect_keeps() {
    for (dialect, name, definition, _) in definitions() {
        let schema = match dialect {
            Dialect::Gemini => definition["parameters"].clone(),
            _ => parameters_of(dialect, &definition),
        };
        each_schema(&schema, &mut |schema| {
            for (key, value) in schema {
                assert!(dialect.keeps(key, value), "{dialect:?} {name}: {key}");
            }
        });
    }
}

#[test]
fn permissive_dialects_show_the_plain_schema() {
    for (dialect, name, definition, plain) in definitions() {
        let mut expected = plain.clone();
        let root = expected.as_object_mut().unwrap();
        match dialect {
            Dialect::JsonSchema => {}
            Dialect::Anthropic
            | Dialect::Mcp
            | Dialect::OpenAiChat { strict: false }
            | Dialect::OpenAiResponses { strict: false } => {
                root.remove("$schema");
                root.remove("title");
                root.remove("description");
            }
            _ => continue,
        }
        assert_eq!(
            parameters_of(dialect, &definition),
            expected,
            "{dialect:?} {name}"
        );
    }
}

#[test]
fn mcp_annotations_follow_the_effect() {
    let shipment = ScheduleShipment::tool_definition(Dialect::Mcp);
    assert_eq!(
        shipment["annotations"],
        toolargs::Effect::Additive.mcp_annotations()
    );
    let search = SearchEvents::tool_definition(Dialect::Mcp);
    assert_eq!(
        search["annotations"],
        json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false})
    );
    assert_eq!(
        search.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["name", "description", "inputSchema", "annotations"]
    );
}

/// A tool without arguments.
#[derive(ToolArgs, Debug)]
struct Ping {}

#[test]
fn a_tool_without_arguments_has_no_gemini_parameters() {
    assert_eq!(
        Ping::tool_definition(Dialect::Gemini),
        json!({"name": "ping", "description": "A tool without arguments."})
    );
    assert_eq!(
        Ping::tool_definition(Dialect::OpenAiResponses { strict: true })["parameters"],
        json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false})
    );
}

#[test]
fn refund_definitions_in_every_dialect() {
    let plain = json!({
        "type": "object",
        "properties": {
            "order_id": {"type": "string", "description": "The order to refund.",
                         "pattern": "^(?:ord_[A-Za-z0-9]{8})$"},
            "amount_cents": {"type": "integer", "description": "Amount in cents.",
                             "minimum": 1, "maximum": 50000},
            "notify_customer": {"type": "boolean", "description": "Email the customer about the refund.",
                                "default": false},
            "reason": {"type": "string", "description": "Why the order is refunded.",
                       "enum": ["damaged", "late", "duplicate", "other"]},
            "tags": {"type": "array", "items": {"type": "string"}, "default": []},
            "effective_date": {"type": "string", "format": "date"},
        },
        "required": ["order_id", "amount_cents", "reason"],
        "additionalProperties": false,
    });
    let description = "Refund part of an order.";
    let mut schema = plain.clone();
    schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    schema["title"] = json!("issue_refund");
    schema["description"] = json!(description);
    assert_eq!(
        IssueRefund::tool_definition(Dialect::JsonSchema),
        json!({"name": "issue_refund", "description": description, "parameters": schema})
    );
    assert_eq!(
        IssueRefund::tool_definition(Dialect::OpenAiChat { strict: false }),
        json!({"type": "function", "function": {
            "name": "issue_refund", "description": description, "parameters": plain, "strict": false,
        }})
    );
    assert_eq!(
        IssueRefund::tool_definition(Dialect::OpenAiResponses { strict: false }),
        json!({"type": "function", "name": "issue_refund", "description": description,
               "parameters": plain, "strict": false})
    );
    assert_eq!(
        IssueRefund::tool_definition(Dialect::Anthropic),
        json!({"name": "issue_refund", "description": description, "input_schema": plain})
    );
    assert_eq!(
        IssueRefund::tool_definition(Dialect::Mcp),
        json!({"name": "issue_refund", "description": description, "inputSchema": plain,
               "annotations": {"readOnlyHint": false, "destructiveHint": true,
                               "idempotentHint": false, "openWorldHint": true}})
    );

    let strict = json!({
        "type": "object",
        "properties": {
            "order_id": {"type": "string", "description": "The order to refund.",
                         "pattern": "^(?:ord_[A-Za-z0-9]{8})$"},
            "amount_cents": {"type": "integer", "description": "Amount in cents.",
                             "minimum": 1, "maximum": 50000},
            "notify_customer": {"type": ["boolean", "null"],
                                "description": "Email the customer about the refund. Default: false."},
            "reason": {"type": "string", "description": "Why the order is refunded.",
                       "enum": ["damaged", "late", "duplicate", "other"]},
            "tags": {"type": ["array", "null"], "items": {"type": "string"}, "description": "Default: []."},
            "effective_date": {"type": ["string", "null"], "format": "date"},
        },
        "required": ["order_id", "amount_cents", "notify_customer", "reason", "tags", "effective_date"],
        "additionalProperties": false,
    });
    assert_eq!(
        IssueRefund::tool_definition(Dialect::OpenAiChat { strict: true }),
        json!({"type": "function", "function": {
            "name": "issue_refund", "description": description, "parameters": strict, "strict": true,
        }})
    );
    assert_eq!(
        IssueRefund::tool_definition(Dialect::OpenAiResponses { strict: true }),
        json!({"type": "function", "name": "issue_refund", "description": description,
               "parameters": strict, "strict": true})
    );

    assert_eq!(
        IssueRefund::tool_definition(Dialect::Gemini),
        json!({"name": "issue_refund", "description": description, "parameters": {
            "type": "object",
            "properties": {
                "order_id": {"type": "string", "description": "The order to refund.",
                             "pattern": "^(?:ord_[A-Za-z0-9]{8})$"},
                "amount_cents": {"type": "integer", "description": "Amount in cents.",
                                 "minimum": 1, "maximum": 50000},
                "notify_customer": {"type": "boolean",
                                    "description": "Email the customer about the refund. Default: false."},
                "reason": {"type": "string", "description": "Why the order is refunded.",
                           "enum": ["damaged", "late", "duplicate", "other"]},
                "tags": {"type": "array", "items": {"type": "string"}, "description": "Default: []."},
                "effective_date": {"type": "string", "description": "A date written YYYY-MM-DD."},
            },
            "required": ["order_id", "amount_cents", "reason"],
        }})
    );
}

#[test]
fn nested_optional_objects_and_null_items_in_strict_mode() {
    let definition = SearchEvents::tool_definition(Dialect::OpenAiChat { strict: true });
    let props = &definition["function"]["parameters"]["properties"];
    assert_eq!(props["window"]["type"], json!(["object", "null"]));
    assert_eq!(props["window"]["required"], json!(["from", "to", "days"]));
    assert_eq!(
        props["window"]["properties"]["to"]["type"],
        json!(["string", "null"])
    );
    assert_eq!(
        props["kinds"]["items"]["enum"],
        json!(["login", "logout", "password-reset"])
    );
    assert_eq!(
        props["scores"],
        json!({"type": ["array", "null"], "description": "One score per page; null for a page without one.",
               "items": {"type": ["integer", "null"], "minimum": -32768, "maximum": 32767}})
    );
    assert_eq!(
        props["query"]["description"],
        json!("At least 1 character. At most 100 characters.")
    );
}

// ---------------------------------------------------------------------------------------------
// Where the two differ, by design or by necessity.

/// Integers of every 64-bit kind and a date-time in UTC.
#[derive(ToolArgs, Debug)]
struct Edges {
    signed: i64,
    unsigned: u64,
    at: DateTime<Utc>,
    local: DateTime<FixedOffset>,
    reading: f32,
}

fn edges() -> Value {
    json!({"signed": 0, "unsigned": 0, "at": "2026-03-04T10:00:00Z",
           "local": "2026-03-04T10:00:00+01:00", "reading": 0.5})
}

fn edge(field: &str, value: Value) -> (bool, Result<Vec<&'static str>, Vec<String>>) {
    let mut call = edges();
    call[field] = value;
    let valid = validator(&Edges::json_schema()).is_valid(&call);
    let parsed = Edges::parse(&call)
        .map(|p| p.repairs.iter().map(|r| r.rule.as_str()).collect())
        .map_err(|e| e.errors().iter().map(|e| e.code.to_string()).collect());
    (valid, parsed)
}

#[test]
fn integral_floats_are_integers_to_the_schema_and_a_repair_to_the_parser() {
    // JSON Schema 2020-12 counts any number with a zero fractional part as an integer; the
    // parser reads 1999.0 too, but records it, since a model that writes it is worth knowing.
    assert_eq!(
        edge("signed", json!(1999.0)),
        (true, Ok(vec!["integral_float_to_int"]))
    );
    assert_eq!(
        edge("signed", json!(1999.5)),
        (false, Err(vec!["lossy_number".to_owned()]))
    );
}

#[test]
fn a_64_bit_type_range_is_not_in_the_schema() {
    // Narrower integer types state their range; i64 and u64 leave it to the JSON number.
    assert!(Edges::json_schema()["properties"]["signed"]
        .get("maximum")
        .is_none());
    let past = |n: &str| serde_json::from_str::<Value>(n).unwrap();
    assert_eq!(
        edge("signed", past("9223372036854775808")),
        (true, Err(vec!["out_of_range".to_owned()]))
    );
    assert_eq!(
        edge("unsigned", past("18446744073709551616")),
        (true, Err(vec!["out_of_range".to_owned()]))
    );
    assert_eq!(
        edge("unsigned", json!(-1)),
        (false, Err(vec!["out_of_range".to_owned()]))
    );
}

#[test]
fn an_f32_range_is_in_the_schema() {
    assert_eq!(
        Edges::json_schema()["properties"]["reading"],
        json!({"type": "number", "minimum": -3.4028234663852886e38, "maximum": 3.4028234663852886e38})
    );
    assert_eq!(
        edge("reading", json!(1e39)),
        (false, Err(vec!["out_of_range".to_owned()]))
    );
    assert_eq!(edge("reading", json!(3.4e38)), (true, Ok(vec![])));
}

#[test]
fn utc_date_times_stay_within_years_0000_to_9999() {
    // The local text is a valid RFC 3339 date-time; its instant is in year -1, which the
    // canonical form (in UTC) could not write. A fixed-offset field keeps the local text.
    let early = json!("0000-01-01T00:30:00+01:00");
    assert_eq!(
        edge("at", early.clone()),
        (true, Err(vec!["invalid_datetime".to_owned()]))
    );
    assert_eq!(edge("local", early), (true, Ok(vec![])));
    assert_eq!(
        edge("at", json!("0000-01-01T00:30:00Z")),
        (true, Ok(vec![]))
    );
    assert_eq!(
        edge("at", json!("9999-12-31T23:30:00-01:00")),
        (true, Err(vec!["invalid_datetime".to_owned()]))
    );
}

#[test]
fn leap_seconds_only_at_the_end_of_a_utc_day() {
    for field in ["at", "local"] {
        assert_eq!(
            edge(field, json!("2016-12-31T23:59:60Z")),
            (true, Ok(vec![]))
        );
        assert_eq!(
            edge(field, json!("2017-01-01T00:59:60+01:00")),
            (true, Ok(vec![]))
        );
        assert_eq!(
            edge(field, json!("2026-03-04T10:00:60Z")),
            (false, Err(vec!["invalid_datetime".to_owned()]))
        );
    }
}

#[test]
fn a_duplicate_key_cannot_reach_a_schema() {
    let text =
        r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999,"amount_cents":5,"reason":"late"}"#;
    let rejection = IssueRefund::parse(text).unwrap_err();
    assert_eq!(rejection.errors()[0].code, "duplicate_key");
    // Decoded, the text keeps one of the two values, and the schema has nothing to check.
    let decoded: Value = serde_json::from_str(text).unwrap();
    assert!(validator(&IssueRefund::json_schema()).is_valid(&decoded));
}
