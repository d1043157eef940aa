//! The semantic gate: golden pairs with their expected decisions, readings that are never
//! resolved by a guess, the original preserved, declarations from the derive and from a
//! schema, and fingerprints that match exactly when calls mean the same action.

#[path = "../../examples/golden/semantic.rs"]
mod golden;

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use toolargs::semantic::{
    Attempt, AttemptOutcome, Correction, Decision, Fingerprint, Kind, Meaning, Profile, Rate,
    SemanticGate, Semantics, Source, UnitFamily, Verdict,
};
use toolargs::{Effect, Spec, ToolArgs};

use golden::{
    BookRoom, CreateInvoice, IssueRefund, ReserveWindow, SchedulePayment, SearchOrders,
    SendMessage, ShipOrder,
};

fn review_of<T: ToolArgs>(
    gate: &SemanticGate<'_>,
    original: &str,
    corrected: &str,
) -> toolargs::semantic::Review {
    let mut correction = Correction::new();
    correction.record(original, &T::parse(original));
    correction.record(corrected, &T::parse(corrected));
    gate.review::<T>(&correction)
        .expect("the corrected call parses")
}

fn verdict_at(review: &toolargs::semantic::Review, path: &str) -> Verdict {
    review
        .findings
        .iter()
        .find(|f| f.path == path)
        .unwrap_or_else(|| panic!("no finding at {path}: {:#?}", review.findings))
        .verdict
}

#[test]
fn golden_pairs_reach_their_decisions() {
    let gate = golden::gate();
    for pair in golden::pairs() {
        let (_, review) = pair.review(&gate);
        assert_eq!(
            (verdict_at(&review, pair.path), review.decision),
            (pair.verdict, pair.decision),
            "{}: {:#?}",
            pair.case,
            review.findings
        );
        // Only the field at stake is in doubt; everything else kept its meaning.
        for finding in review.concerns() {
            assert_eq!(finding.path, pair.path, "{}: {finding:#?}", pair.case);
        }
        assert!(!review.log_line().is_empty());
    }
}

#[test]
fn golden_pairs_cover_the_issue() {
    let cases: Vec<(&str, Decision)> = golden::pairs()
        .iter()
        .map(|p| (p.case, p.decision))
        .collect();
    for (case, decision) in [
        ("currency swapped on an invoice", Decision::Confirm),
        ("day and month both read", Decision::Confirm),
        ("unit flip, hours read as days", Decision::Confirm),
        ("dollars to cents, same value", Decision::Proceed),
        ("dollars to cents, a hundredth", Decision::Reject),
        ("recipient resolved to another person", Decision::Reject),
        ("enum synonym", Decision::Proceed),
        ("read-only search, another day", Decision::ProceedAndReport),
    ] {
        assert!(cases.contains(&(case, decision)), "{case}");
    }
}

#[test]
fn reasons_name_what_changed() {
    let gate = golden::gate();
    let reason = |i: usize| {
        let pair = &golden::pairs()[i];
        let (_, review) = pair.review(&gate);
        let finding = review
            .findings
            .iter()
            .find(|f| f.path == pair.path)
            .cloned();
        finding.map(|f| f.reason).unwrap_or_default()
    };
    assert!(reason(0).contains("100.00 USD") && reason(0).contains("100.00 CAD"));
    assert!(reason(1).contains("2026-04-03") && reason(1).contains("2026-03-04"));
    assert!(reason(2).contains("24 times larger") && reason(2).contains("unit flip"));
    assert!(reason(5).contains("15.00 USD") && reason(5).contains("0.15 USD"));
    assert!(reason(6).contains("usr_bob_12") && reason(6).contains("usr_alice_7"));
    let (_, review) = golden::pairs()[5].review(&gate);
    let prompt = review.prompt();
    assert!(prompt.contains("$.amount_cents [critical]"), "{prompt}");
    let for_model: Value = serde_json::from_str(&review.for_model()).unwrap();
    assert_eq!(for_model["errors"][0]["error"], "meaning_changed");
    assert_eq!(for_model["errors"][0]["path"], "$.amount_cents");
}

#[test]
fn a_pinned_rate_converts_and_nothing_else_does() {
    let gate = SemanticGate::new().with_rate(Rate::new("USD", "CAD", "1.37").unwrap());
    let original = r#"{"customer_id":"cus_42","amount":100,"currency":"usd"}"#;
    let same = r#"{"customer_id":"cus_42","amount":137,"currency":"CAD"}"#;
    let review = review_of::<CreateInvoice>(&gate, original, same);
    assert_eq!(review.decision, Decision::Proceed, "{:#?}", review.findings);
    let short = r#"{"customer_id":"cus_42","amount":100,"currency":"CAD"}"#;
    let review = review_of::<CreateInvoice>(&gate, original, short);
    assert_eq!(verdict_at(&review, "$.amount"), Verdict::Changed);
    // The rate is used in its own direction only.
    let back = r#"{"customer_id":"cus_42","amount":73,"currency":"USD"}"#;
    let cad = r#"{"customer_id":"cus_42","amount":100,"currency":"CAD"}"#;
    let review = review_of::<CreateInvoice>(&gate, cad, back);
    assert_eq!(verdict_at(&review, "$.amount"), Verdict::Changed);
}

#[test]
fn minor_units_come_from_the_currency_table() {
    let profile = Profile::from_schema(
        "pay",
        Effect::External,
        &json!({"type": "object", "properties": {
            "amount": {"type": "integer"}, "currency": {"type": "string"}}}),
    )
    .with(&Semantics::new().declare("amount", Kind::money(Source::field("currency"), true)))
    .unwrap();
    let gate = SemanticGate::new();
    let check = |original: Value, corrected: Value| {
        verdict_at(&gate.compare(&profile, &original, &corrected), "$.amount")
    };
    // Yen have no minor unit: 1500 yen is 1500.
    assert_eq!(
        check(
            json!({"amount": "¥1500", "currency": "JPY"}),
            json!({"amount": 1500, "currency": "JPY"})
        ),
        Verdict::Equivalent
    );
    // Kuwaiti dinars have three: 1.5 KWD is 1500 fils.
    assert_eq!(
        check(
            json!({"amount": "1.500", "currency": "KWD"}),
            json!({"amount": 1500, "currency": "KWD"})
        ),
        Verdict::Equivalent
    );
    assert_eq!(
        check(
            json!({"amount": "1.5", "currency": "BHD"}),
            json!({"amount": 1500, "currency": "BHD"})
        ),
        Verdict::Equivalent
    );
    // More decimals than the currency has: no reading.
    assert_eq!(
        check(
            json!({"amount": "15.123", "currency": "USD"}),
            json!({"amount": 1512, "currency": "USD"})
        ),
        Verdict::Unverified
    );
    // An unknown currency is never given two decimals by default.
    assert_eq!(
        check(
            json!({"amount": 1500, "currency": "XYZ"}),
            json!({"amount": 1500, "currency": "USD"})
        ),
        Verdict::Unverified
    );
    assert_eq!(
        check(
            json!({"amount": 1500, "currency": "USD"}),
            json!({"amount": 1500, "currency": "XYZ"})
        ),
        Verdict::Invalid
    );
}

/// Runs a pair through one tool and returns the decision.
type Decide = fn(&SemanticGate<'_>, &str, &str) -> Decision;

#[test]
fn ambiguous_originals_are_never_resolved_by_a_guess() {
    let gate = golden::gate();
    let cases: [(&str, &str, &str, Decide); 6] = [
        (
            "$.pay_on",
            r#"{"payee_id":"a","amount_cents":1,"pay_on":"04/03/2026"}"#,
            r#"{"payee_id":"a","amount_cents":1,"pay_on":"2026-04-03"}"#,
            |g, o, c| review_of::<SchedulePayment>(g, o, c).decision,
        ),
        (
            "$.amount",
            r#"{"customer_id":"c","amount":"1,500","currency":"USD"}"#,
            r#"{"customer_id":"c","amount":1500,"currency":"USD"}"#,
            |g, o, c| review_of::<CreateInvoice>(g, o, c).decision,
        ),
        (
            "$.amount",
            r#"{"customer_id":"c","amount":"1,500","currency":"USD"}"#,
            r#"{"customer_id":"c","amount":1.5,"currency":"USD"}"#,
            |g, o, c| review_of::<CreateInvoice>(g, o, c).decision,
        ),
        (
            "$.duration",
            r#"{"room":"r","duration":1.5}"#,
            r#"{"room":"r","duration":1.5,"unit":"hours"}"#,
            |g, o, c| review_of::<BookRoom>(g, o, c).decision,
        ),
        (
            "$.amount",
            r#"{"customer_id":"c","amount":"¥1500","currency":"¥"}"#,
            r#"{"customer_id":"c","amount":1500,"currency":"JPY"}"#,
            |g, o, c| review_of::<CreateInvoice>(g, o, c).decision,
        ),
        (
            "$.recipient",
            r#"{"recipient":"Sam","body":"hi","urgent":"yes"}"#,
            r#"{"recipient":"usr_sam_3","body":"hi"}"#,
            |g, o, c| review_of::<SendMessage>(g, o, c).decision,
        ),
    ];
    for (path, original, corrected, decide) in cases {
        assert_eq!(
            decide(&gate, original, corrected),
            Decision::Confirm,
            "{path}: {original}"
        );
    }
    // Each reading of `1,500` is a candidate, so neither is equivalent.
    let review = review_of::<CreateInvoice>(
        &gate,
        r#"{"customer_id":"c","amount":"1,500","currency":"USD"}"#,
        r#"{"customer_id":"c","amount":1500,"currency":"USD"}"#,
    );
    assert_eq!(verdict_at(&review, "$.amount"), Verdict::Ambiguous);
    let finding = review.concerns().next().unwrap();
    assert_eq!(finding.readings, ["1500.00 USD", "1.50 USD"]);
}

#[test]
fn unambiguous_forms_are_equivalent() {
    let gate = golden::gate();
    for (original, corrected) in [
        (r#""March 4, 2026""#, r#""2026-03-04""#),
        (r#""4 Mar 2026""#, r#""2026-03-04""#),
        (r#""13/03/2026""#, r#""2026-03-13""#),
        (r#""2026/03/04""#, r#""2026-03-04""#),
    ] {
        let o = format!(r#"{{"placed_on":{original}}}"#);
        let c = format!(r#"{{"placed_on":{corrected}}}"#);
        let review = review_of::<SearchOrders>(&gate, &o, &c);
        assert_eq!(
            review.decision,
            Decision::Proceed,
            "{original}: {:#?}",
            review.findings
        );
    }
    for (original, corrected) in [
        (r#""90 minutes""#, "1.5"),
        (r#""PT1H30M""#, "1.5"),
        (r#""1h30min""#, "1.5"),
        ("1.5", "1.5"),
        (r#""1,5 h""#, "1.5"),
    ] {
        let o = format!(r#"{{"host":"h","duration_hours":{original}}}"#);
        let c = format!(r#"{{"host":"h","duration_hours":{corrected}}}"#);
        let review = review_of::<ReserveWindow>(&gate, &o, &c);
        assert_eq!(
            review.decision,
            Decision::Proceed,
            "{original}: {:#?}",
            review.findings
        );
    }
    // A case difference and a synonym in any case read as the enum value.
    for speed in [r#""Overnight""#, r#""NEXT_DAY""#] {
        let o = format!(r#"{{"order_id":"o","speed":{speed}}}"#);
        let review = review_of::<ShipOrder>(&gate, &o, r#"{"order_id":"o","speed":"overnight"}"#);
        assert_eq!(review.decision, Decision::Proceed, "{speed}");
    }
    let review = review_of::<ShipOrder>(
        &gate,
        r#"{"order_id":"o","speed":"asap"}"#,
        r#"{"order_id":"o","speed":"overnight"}"#,
    );
    assert_eq!(verdict_at(&review, "$.speed"), Verdict::Unverified);
    assert_eq!(review.decision, Decision::Confirm);
    let review = review_of::<ShipOrder>(
        &gate,
        r#"{"order_id":"o","speed":"express"}"#,
        r#"{"order_id":"o","speed":"overnight"}"#,
    );
    assert_eq!(verdict_at(&review, "$.speed"), Verdict::Changed);
}

#[test]
fn every_field_is_compared_not_only_the_declared_ones() {
    let gate = golden::gate();
    let review = review_of::<IssueRefund>(
        &gate,
        r#"{"order_id":"ord_A1b2C3d4","amount_cents":"15.00","currency":"USD"}"#,
        r#"{"order_id":"ord_Z9y8X7w6","amount_cents":1500,"currency":"USD"}"#,
    );
    assert_eq!(verdict_at(&review, "$.order_id"), Verdict::Changed);
    assert_eq!(review.decision, Decision::Confirm);
    // A field the original left out and the correction added cannot be proven.
    let review = review_of::<SendMessage>(
        &gate,
        r#"{"recipient":"Bob","urgent":"yes"}"#,
        r#"{"recipient":"usr_bob_12","body":"Lunch?","urgent":true}"#,
    );
    assert_eq!(verdict_at(&review, "$.body"), Verdict::Unverified);
    assert_eq!(verdict_at(&review, "$.recipient"), Verdict::Equivalent);
    assert_eq!(verdict_at(&review, "$.urgent"), Verdict::Equivalent);
    // Left out with a default means the default.
    let review = review_of::<SendMessage>(
        &gate,
        r#"{"recipient":"Bob","body":7}"#,
        r#"{"recipient":"Bob","body":"7","urgent":false}"#,
    );
    assert_eq!(review.decision, Decision::Proceed, "{:#?}", review.findings);
}

#[test]
fn the_original_is_preserved() {
    let original = "```json\n{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":\"15.00\",\"currency\":\"USD\"}\n```";
    let corrected = json!({"order_id": "ord_A1b2C3d4", "amount_cents": "1500", "currency": "USD"});
    let mut correction = Correction::new();
    correction.record(original, &IssueRefund::parse(original));
    correction.record(&corrected, &IssueRefund::parse(&corrected));
    let first = correction.original().unwrap();
    assert!(matches!(first.raw(), toolargs::RawArgs::Text(t) if t == original));
    assert_eq!(first.errors()[0].code, "ambiguous_integer");
    assert_eq!(first.canonical(), None);
    assert_eq!(
        first.arguments().unwrap()["amount_cents"],
        json!("15.00"),
        "the fence is unwrapped, the value kept"
    );
    let last = correction.latest().unwrap();
    assert_eq!(last.repairs()[0].rule, "numeric_string_to_int");
    assert!(
        matches!(last.outcome(), AttemptOutcome::Accepted { canonical, .. }
        if canonical["amount_cents"] == json!(1500))
    );
    assert_eq!(correction.errors().count(), 1);
    let audit = correction.to_json();
    assert_eq!(audit[0]["raw"], json!(original));
    assert_eq!(audit[0]["errors"][0]["code"], "ambiguous_integer");
    assert_eq!(audit[1]["repairs"][0]["rule"], "numeric_string_to_int");
    let review = golden::gate().review::<IssueRefund>(&correction).unwrap();
    assert_eq!(review.decision, Decision::Proceed, "{:#?}", review.findings);

    // No review until a corrected call parses.
    let mut pending = Correction::new();
    pending.record(original, &IssueRefund::parse(original));
    assert!(golden::gate().review::<IssueRefund>(&pending).is_none());

    // A single repaired call is its own original.
    let mut once = Correction::new();
    let raw = r#"{"order_id":"ord_A1b2C3d4","amount_cents":"1500","currency":"USD"}"#;
    once.record(raw, &IssueRefund::parse(raw));
    let review = golden::gate().review::<IssueRefund>(&once).unwrap();
    assert_eq!(review.decision, Decision::Proceed);
}

#[test]
fn a_key_sent_twice_has_no_known_value() {
    let original =
        r#"{"order_id":"ord_A1b2C3d4","amount_cents":1500,"amount_cents":15,"currency":"USD"}"#;
    let corrected = r#"{"order_id":"ord_A1b2C3d4","amount_cents":15,"currency":"USD"}"#;
    let review = review_of::<IssueRefund>(&golden::gate(), original, corrected);
    assert_eq!(verdict_at(&review, "$.amount_cents"), Verdict::Unverified);
    assert_eq!(review.decision, Decision::Confirm);
}

#[test]
fn derived_declarations() {
    let profile = Profile::of::<IssueRefund>();
    let amount = profile.field("amount_cents").unwrap();
    assert!(amount.critical);
    assert_eq!(
        amount.meaning,
        Meaning::Kind(Kind::money(Source::field("currency"), true))
    );
    assert_eq!(
        Profile::of::<ReserveWindow>()
            .field("duration_hours")
            .unwrap()
            .meaning,
        Meaning::Kind(Kind::quantity("duration", Source::fixed("hours")))
    );
    assert_eq!(
        Profile::of::<SchedulePayment>()
            .field("amount_cents")
            .unwrap()
            .meaning,
        Meaning::Kind(Kind::money(Source::fixed("EUR"), true))
    );
    assert!(matches!(
        &Profile::of::<ShipOrder>().field("speed").unwrap().meaning,
        Meaning::Enum { aliases, .. } if aliases == &[("next_day".to_owned(), "overnight".to_owned())]
    ));
    assert_eq!(golden::Speed::semantics().aliases().len(), 1);
    assert!(golden::TimeUnit::semantics().is_empty());
    assert_eq!(Profile::of::<SearchOrders>().effect(), Effect::ReadOnly);
}

/// A line of an order, with its own price.
#[derive(ToolArgs, Debug)]
struct Line {
    sku: String,
    #[arg(semantic = "money", currency = "currency", minor_units, critical)]
    price: i64,
    currency: String,
}

/// An order of several lines.
#[derive(ToolArgs, Debug)]
#[toolargs(effect = "additive")]
struct PlaceOrder {
    lines: Vec<Line>,
    #[arg(semantic = "entity", entity = "person")]
    buyer: Option<String>,
}

#[test]
fn nested_declarations() {
    let gate = golden::gate();
    let original = r#"{"lines":[{"sku":"a","price":"$5.00","currency":"USD"},{"sku":"b","price":100,"currency":"USD"}],"buyer":"Bob"}"#;
    let corrected = r#"{"lines":[{"sku":"a","price":500,"currency":"USD"},{"sku":"b","price":1,"currency":"USD"}],"buyer":"bob@example.com"}"#;
    let review = review_of::<PlaceOrder>(&gate, original, corrected);
    assert_eq!(verdict_at(&review, "$.lines[0].price"), Verdict::Equivalent);
    assert_eq!(verdict_at(&review, "$.lines[1].price"), Verdict::Changed);
    assert_eq!(verdict_at(&review, "$.buyer"), Verdict::Equivalent);
    assert_eq!(review.decision, Decision::Reject);
    let fewer = r#"{"lines":[{"sku":"a","price":500,"currency":"USD"}]}"#;
    let review = review_of::<PlaceOrder>(&gate, original, fewer);
    assert_eq!(verdict_at(&review, "$.lines"), Verdict::Changed);
    assert_eq!(verdict_at(&review, "$.buyer"), Verdict::Changed);
}

#[test]
fn entities_without_a_resolver_prove_nothing_when_they_differ() {
    let gate = SemanticGate::new();
    let review = review_of::<SendMessage>(
        &gate,
        r#"{"recipient":"Bob","body":"hi","urgent":"yes"}"#,
        r#"{"recipient":"usr_bob_12","body":"hi","urgent":true}"#,
    );
    assert_eq!(verdict_at(&review, "$.recipient"), Verdict::Unverified);
    assert_eq!(review.decision, Decision::Confirm);
    let review = review_of::<SendMessage>(
        &gate,
        r#"{"recipient":"Bob","body":"hi","urgent":"yes"}"#,
        r#"{"recipient":"Bob","body":"hi","urgent":true}"#,
    );
    assert_eq!(review.decision, Decision::Proceed);
}

#[test]
fn tools_loaded_from_a_schema() {
    let definition = json!({
        "name": "ship_parcel",
        "description": "Ship a parcel.",
        "input_schema": {
            "type": "object",
            "properties": {
                "weight": {"type": "number"},
                "weight_unit": {"type": "string", "enum": ["g", "kg", "lb"]},
                "volume": {"type": "number"}
            },
            "required": ["weight", "weight_unit"]
        }
    });
    let spec = Spec::from_tool_definition(&definition).unwrap();
    let schema = &definition["input_schema"];
    let volume = UnitFamily::new("volume", "ml")
        .unit("l", "1000")
        .aliases(&["litre", "liter"], "l");
    let profile = Profile::from_schema("ship_parcel", Effect::External, schema)
        .with(
            &Semantics::new()
                .declare(
                    "weight",
                    Kind::quantity("mass", Source::field("weight_unit")),
                )
                .declare("volume", Kind::quantity("volume", Source::fixed("l"))),
        )
        .unwrap();
    let gate = SemanticGate::new().with_family(volume);
    let original = r#"{"weight":"2.5 kg","volume":"1500 ml"}"#;
    let corrected = r#"{"weight":2500,"weight_unit":"g","volume":1.5}"#;
    let mut correction = Correction::new();
    correction.push(Attempt::from_json_result(original, &spec.parse(original)));
    correction.push(Attempt::from_json_result(corrected, &spec.parse(corrected)));
    let review = gate.review_with(&profile, &correction).unwrap();
    assert_eq!(review.decision, Decision::Proceed, "{:#?}", review.findings);
    let pounds = r#"{"weight":2.5,"weight_unit":"lb","volume":1.5}"#;
    let review = gate.compare(
        &profile,
        &serde_json::from_str(original).unwrap(),
        &serde_json::from_str(pounds).unwrap(),
    );
    assert_eq!(verdict_at(&review, "$.weight"), Verdict::Changed);
    // Without the family, the volume cannot be compared.
    let review = SemanticGate::new().compare(
        &profile,
        &serde_json::from_str(original).unwrap(),
        &serde_json::from_str(corrected).unwrap(),
    );
    assert_eq!(verdict_at(&review, "$.volume"), Verdict::Invalid);
}

#[test]
fn semantic_fingerprints_follow_meaning() {
    let gate = golden::gate();
    let profile = Profile::of::<BookRoom>();
    let print = |v: Value| gate.fingerprint(&profile, &v);
    assert_eq!(
        print(json!({"room": "4.02", "duration": 90, "unit": "minutes"})),
        print(json!({"unit": "hours", "room": "4.02", "duration": 1.5})),
    );
    assert_ne!(
        print(json!({"room": "4.02", "duration": 90, "unit": "minutes"})),
        print(json!({"room": "4.02", "duration": 90, "unit": "hours"})),
    );
    let refund = Profile::of::<SendMessage>();
    assert_eq!(
        gate.fingerprint(
            &refund,
            &json!({"recipient": "Bob", "body": "hi", "urgent": false})
        ),
        gate.fingerprint(
            &refund,
            &json!({"recipient": "bob@example.com", "body": "hi", "urgent": false})
        ),
    );
    // The review carries the corrected call's fingerprint.
    let pair = &golden::pairs()[4];
    let (_, review) = pair.review(&gate);
    let corrected: Value = serde_json::from_str(pair.corrected).unwrap();
    assert_eq!(
        review.fingerprint,
        gate.fingerprint(&Profile::of::<IssueRefund>(), &corrected)
    );
}

/// JSON text for `value` with keys in a shuffled order, integers sometimes written as floats,
/// and arbitrary whitespace.
fn relaid(value: &Value, seed: &mut u64) -> String {
    let mut next = || {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    };
    fn go(value: &Value, next: &mut dyn FnMut() -> u64) -> String {
        let space = [" ", "", "\n  ", "\t"][(next() % 4) as usize];
        match value {
            Value::Object(map) => {
                let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                let len = entries.len();
                for i in (1..len).rev() {
                    entries.swap(i, (next() % (i as u64 + 1)) as usize);
                }
                let parts: Vec<String> = entries
                    .into_iter()
                    .map(|(k, v)| {
                        format!("{}{space}:{space}{}", Value::from(k.as_str()), go(v, next))
                    })
                    .collect();
                format!("{{{space}{}{space}}}", parts.join(&format!(",{space}")))
            }
            Value::Array(items) => {
                let parts: Vec<String> = items.iter().map(|v| go(v, next)).collect();
                format!("[{space}{}{space}]", parts.join(&format!(",{space}")))
            }
            Value::Number(n) if n.is_i64() && next() % 2 == 0 => format!("{n}.0"),
            other => other.to_string(),
        }
    }
    go(value, &mut next)
}

fn json_values() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-1_000_000i64..1_000_000).prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        "[a-zA-Z0-9 é_\\-]{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,6}", inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<String, Value>>())),
        ]
    })
}

/// Changes one leaf of `value`, so that it means something else.
fn mutate(value: &Value, pick: usize) -> Option<Value> {
    let mut leaves = 0usize;
    fn walk(value: &mut Value, pick: usize, seen: &mut usize) -> bool {
        match value {
            Value::Object(map) => map.values_mut().any(|v| walk(v, pick, seen)),
            Value::Array(items) => items.iter_mut().any(|v| walk(v, pick, seen)),
            leaf => {
                *seen += 1;
                if *seen - 1 == pick {
                    *leaf = match leaf.take() {
                        Value::Null => Value::from(0),
                        Value::Bool(b) => Value::Bool(!b),
                        Value::Number(n) => Value::from(n.as_f64().unwrap_or(0.0) + 1.0),
                        Value::String(s) => Value::String(format!("{s}x")),
                        other => other,
                    };
                    true
                } else {
                    false
                }
            }
        }
    }
    let mut changed = value.clone();
    walk(&mut changed, pick, &mut leaves).then_some(changed)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn fingerprints_match_for_any_layout(value in json_values(), seed in any::<u64>()) {
        // Both sides go through the parser, which is what a retried call does.
        let args: Value = serde_json::from_str(&json!({"payload": value}).to_string()).unwrap();
        let mut seed = seed;
        let text = relaid(&args, &mut seed);
        let reparsed: Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(Fingerprint::of("tool", &args), Fingerprint::of("tool", &reparsed), "{}", text);
    }

    #[test]
    fn fingerprints_differ_when_a_value_does(value in json_values(), pick in 0usize..8) {
        let args = json!({"payload": value});
        if let Some(changed) = mutate(&args, pick) {
            prop_assert_ne!(Fingerprint::of("tool", &args), Fingerprint::of("tool", &changed));
        }
        prop_assert_ne!(Fingerprint::of("tool", &args), Fingerprint::of("other_tool", &args));
    }

    #[test]
    fn a_call_is_equivalent_to_its_own_canonical_form(
        amount in 1i64..50_000,
        cents in any::<bool>(),
        currency in prop::sample::select(vec!["USD", "EUR", "JPY", "KWD", "GBP"]),
    ) {
        let gate = golden::gate();
        let text = if cents {
            format!(r#"{{"order_id":"ord_A1b2C3d4","amount_cents":{amount},"currency":"{currency}"}}"#)
        } else {
            format!(r#"{{"order_id":"ord_A1b2C3d4","amount_cents":"{amount}","currency":"{currency}"}}"#)
        };
        let mut correction = Correction::new();
        correction.record(text.as_str(), &IssueRefund::parse(text.as_str()));
        let review = gate.review::<IssueRefund>(&correction).unwrap();
        prop_assert_eq!(review.decision, Decision::Proceed);
    }
}
