//! Golden pairs of the semantic gate: an original call, the corrected call that followed it,
//! and the decision the gate must reach. Shared by `examples/semantic_gate.rs` (which prints
//! them) and `tests/it/semantic.rs` (which asserts them); kept beside the example so the
//! published package builds it. Run them whenever the model, the prompt or a tool changes.
#![allow(dead_code)]

use chrono::NaiveDate;
use toolargs::semantic::{
    Correction, Decision, EntityId, ResolveError, Resolver, Review, SemanticGate, Verdict,
};
use toolargs::ToolArgs;

/// Create an invoice for a customer.
#[derive(ToolArgs, Debug)]
#[toolargs(effect = "external")]
pub struct CreateInvoice {
    pub customer_id: String,
    /// Amount in major units of the currency.
    #[arg(semantic = "money", currency = "currency")]
    pub amount: f64,
    /// ISO 4217 code.
    #[arg(pattern = "[A-Z]{3}")]
    pub currency: String,
}

/// Schedule a payment in euros.
#[derive(ToolArgs, Debug)]
#[toolargs(effect = "external")]
pub struct SchedulePayment {
    pub payee_id: String,
    #[arg(semantic = "money", currency = "EUR", minor_units)]
    pub amount_cents: i64,
    pub pay_on: NaiveDate,
}

/// Reserve a maintenance window.
#[derive(ToolArgs, Debug)]
#[toolargs(effect = "additive")]
pub struct ReserveWindow {
    pub host: String,
    #[arg(semantic = "duration", unit = "hours")]
    pub duration_hours: f64,
}

/// A unit of time.
#[derive(ToolArgs, Debug)]
pub enum TimeUnit {
    Minutes,
    Hours,
    Days,
}

/// Book a room for a while.
#[derive(ToolArgs, Debug)]
#[toolargs(effect = "additive")]
pub struct BookRoom {
    pub room: String,
    #[arg(semantic = "duration", unit = "unit")]
    pub duration: f64,
    pub unit: TimeUnit,
}

/// Refund part of an order.
#[derive(ToolArgs, Debug)]
#[toolargs(effect = "external")]
pub struct IssueRefund {
    #[arg(pattern = r"ord_[A-Za-z0-9]{8}")]
    pub order_id: String,
    /// Amount in cents.
    #[arg(
        semantic = "money",
        currency = "currency",
        minor_units,
        critical,
        min = 1
    )]
    pub amount_cents: i64,
    #[arg(pattern = "[A-Z]{3}")]
    pub currency: String,
}

/// Send a message to a person.
#[derive(ToolArgs, Debug)]
#[toolargs(effect = "external")]
pub struct SendMessage {
    #[arg(semantic = "entity", entity = "person", critical)]
    pub recipient: String,
    pub body: String,
    #[arg(default)]
    pub urgent: bool,
}

/// How fast an order ships.
#[derive(ToolArgs, Debug)]
pub enum Speed {
    Standard,
    Express,
    #[arg(synonym = "next_day")]
    Overnight,
}

/// Ship an order.
#[derive(ToolArgs, Debug)]
#[toolargs(effect = "external")]
pub struct ShipOrder {
    pub order_id: String,
    pub speed: Speed,
}

/// Find the orders placed on a day.
#[derive(ToolArgs, Debug)]
#[toolargs(effect = "read_only")]
pub struct SearchOrders {
    pub placed_on: NaiveDate,
}

/// The people a `person` reference can name. An id resolves to itself.
pub struct Directory;

impl Resolver for Directory {
    fn resolve(&self, kind: &str, reference: &str) -> Result<Vec<EntityId>, ResolveError> {
        if kind != "person" {
            return Err(ResolveError(format!("no directory of {kind}")));
        }
        let ids: &[&str] = match reference {
            "Bob" | "bob@example.com" | "usr_bob_12" => &["usr_bob_12"],
            "Alice" | "usr_alice_7" => &["usr_alice_7"],
            "Sam" => &["usr_sam_3", "usr_sam_8"],
            "usr_sam_3" => &["usr_sam_3"],
            "usr_sam_8" => &["usr_sam_8"],
            _ => &[],
        };
        Ok(ids.iter().map(|id| EntityId::new(*id)).collect())
    }
}

/// The gate the golden pairs run through: the directory above, no pinned rates.
pub fn gate() -> SemanticGate<'static> {
    SemanticGate::new().with_resolver(Directory)
}

/// One golden pair.
pub struct Pair {
    /// What the pair shows.
    pub case: &'static str,
    /// The path whose meaning is at stake.
    pub path: &'static str,
    /// The first call, as the model sent it.
    pub original: &'static str,
    /// The call that followed, after the rejection was sent back.
    pub corrected: &'static str,
    /// The verdict on `path`.
    pub verdict: Verdict,
    /// The gate's decision.
    pub decision: Decision,
    run: fn(&SemanticGate<'_>, &str, &str) -> (Correction, Option<Review>),
}

impl Pair {
    /// Records both attempts and reviews the correction.
    pub fn review(&self, gate: &SemanticGate<'_>) -> (Correction, Review) {
        let (correction, review) = (self.run)(gate, self.original, self.corrected);
        (correction, review.expect("the corrected call parses"))
    }
}

fn run<T: ToolArgs>(
    gate: &SemanticGate<'_>,
    original: &str,
    corrected: &str,
) -> (Correction, Option<Review>) {
    let mut correction = Correction::new();
    correction.record(original, &T::parse(original));
    correction.record(corrected, &T::parse(corrected));
    let review = gate.review::<T>(&correction);
    (correction, review)
}

/// Every golden pair with its expected verdict and decision.
pub fn pairs() -> Vec<Pair> {
    vec![
        Pair {
            case: "currency swapped on an invoice",
            path: "$.amount",
            original: r#"{"customer_id":"cus_42","amount":100,"currency":"usd"}"#,
            corrected: r#"{"customer_id":"cus_42","amount":100,"currency":"CAD"}"#,
            verdict: Verdict::Changed,
            decision: Decision::Confirm,
            run: run::<CreateInvoice>,
        },
        Pair {
            case: "day and month both read",
            path: "$.pay_on",
            original: r#"{"payee_id":"acct_9","amount_cents":5000,"pay_on":"04/03/2026"}"#,
            corrected: r#"{"payee_id":"acct_9","amount_cents":5000,"pay_on":"2026-03-04"}"#,
            verdict: Verdict::Ambiguous,
            decision: Decision::Confirm,
            run: run::<SchedulePayment>,
        },
        Pair {
            case: "unit flip, hours read as days",
            path: "$.duration_hours",
            original: r#"{"host":"db-1","duration_hours":"1.5 hours"}"#,
            corrected: r#"{"host":"db-1","duration_hours":36}"#,
            verdict: Verdict::Changed,
            decision: Decision::Confirm,
            run: run::<ReserveWindow>,
        },
        Pair {
            case: "a number with no unit",
            path: "$.duration",
            original: r#"{"room":"4.02","duration":1.5}"#,
            corrected: r#"{"room":"4.02","duration":36,"unit":"hours"}"#,
            verdict: Verdict::Ambiguous,
            decision: Decision::Confirm,
            run: run::<BookRoom>,
        },
        Pair {
            case: "dollars to cents, same value",
            path: "$.amount_cents",
            original: r#"{"order_id":"ord_A1b2C3d4","amount_cents":"15.00","currency":"USD"}"#,
            corrected: r#"{"order_id":"ord_A1b2C3d4","amount_cents":1500,"currency":"USD"}"#,
            verdict: Verdict::Equivalent,
            decision: Decision::Proceed,
            run: run::<IssueRefund>,
        },
        Pair {
            case: "dollars to cents, a hundredth",
            path: "$.amount_cents",
            original: r#"{"order_id":"ord_A1b2C3d4","amount_cents":"15.00","currency":"USD"}"#,
            corrected: r#"{"order_id":"ord_A1b2C3d4","amount_cents":15,"currency":"USD"}"#,
            verdict: Verdict::Changed,
            decision: Decision::Reject,
            run: run::<IssueRefund>,
        },
        Pair {
            case: "recipient resolved to another person",
            path: "$.recipient",
            original: r#"{"recipient":"Bob","body":"Lunch at noon?","urgent":"yes"}"#,
            corrected: r#"{"recipient":"usr_alice_7","body":"Lunch at noon?","urgent":true}"#,
            verdict: Verdict::Changed,
            decision: Decision::Reject,
            run: run::<SendMessage>,
        },
        Pair {
            case: "recipient with two matches",
            path: "$.recipient",
            original: r#"{"recipient":"Sam","body":"Lunch at noon?","urgent":"yes"}"#,
            corrected: r#"{"recipient":"usr_sam_8","body":"Lunch at noon?","urgent":true}"#,
            verdict: Verdict::Ambiguous,
            decision: Decision::Confirm,
            run: run::<SendMessage>,
        },
        Pair {
            case: "enum synonym",
            path: "$.speed",
            original: r#"{"order_id":"ord_1","speed":"next_day"}"#,
            corrected: r#"{"order_id":"ord_1","speed":"overnight"}"#,
            verdict: Verdict::Equivalent,
            decision: Decision::Proceed,
            run: run::<ShipOrder>,
        },
        Pair {
            case: "read-only search, another day",
            path: "$.placed_on",
            original: r#"{"placed_on":"March 5, 2026"}"#,
            corrected: r#"{"placed_on":"2026-03-04"}"#,
            verdict: Verdict::Changed,
            decision: Decision::ProceedAndReport,
            run: run::<SearchOrders>,
        },
    ]
}
