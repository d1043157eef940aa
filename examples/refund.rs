//! The refund tool on a handful of calls a model might send: clean, repaired and rejected.
//!
//! Run with `cargo run --example refund`.

use chrono::NaiveDate;
use toolargs::ToolArgs;

/// Refund part of an order.
#[derive(ToolArgs, Debug)]
#[toolargs(name = "issue_refund", effect = "external")]
struct IssueRefund {
    /// The order to refund, e.g. ord_A1b2C3d4.
    #[arg(pattern = r"ord_[A-Za-z0-9]{8}")]
    order_id: String,
    /// Amount to refund, in cents.
    #[arg(min = 1, max = 50000)]
    amount_cents: i64,
    /// Email the customer about the refund.
    #[arg(default)]
    notify_customer: bool,
    reason: Reason,
    #[arg(default)]
    tags: Vec<String>,
    /// The day the refund takes effect; today when absent.
    effective_date: Option<NaiveDate>,
}

/// Why the order is refunded.
#[derive(ToolArgs, Debug)]
enum Reason {
    Damaged,
    Late,
    Duplicate,
    Other,
}

const CALLS: &[(&str, &str)] = &[
    (
        "clean",
        r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999,"reason":"damaged"}"#,
    ),
    (
        "right data, wrong envelope",
        r#"{"order_id":"ord_A1b2C3d4","amount_cents":"1999","reason":"Damaged","tags":"fragile","notify_customer":"TRUE"}"#,
    ),
    (
        "fenced and null",
        "```json\n{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":1999.0,\"reason\":\"late\",\"effective_date\":null}\n```",
    ),
    (
        "dollars, not cents",
        r#"{"order_id":"ord_A1b2C3d4","amount_cents":"19.99","reason":"late"}"#,
    ),
    (
        "three problems at once",
        r#"{"order_id":"ORD-1","amount":1999,"notify_customer":"yes","reason":"late","effective_date":"03/04/2026"}"#,
    ),
    (
        "a key twice",
        r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999,"amount_cents":49999,"reason":"late"}"#,
    ),
];

fn main() {
    println!(
        "tool {} ({:?}, unknown keys: {})\n",
        IssueRefund::NAME,
        IssueRefund::EFFECT,
        IssueRefund::UNKNOWN.as_str()
    );
    for (label, raw) in CALLS {
        println!("== {label}\n   sent:  {}", raw.replace('\n', "\\n"));
        match IssueRefund::parse(*raw) {
            Ok(parsed) => {
                println!("   ACCEPTED {}", parsed.args.to_json());
                for r in &parsed.repairs {
                    println!(
                        "   repair {:<22} {:<18} {} -> {}",
                        r.rule.as_str(),
                        r.path,
                        short(&r.before),
                        short(&r.after)
                    );
                }
            }
            Err(rejection) => {
                println!("   REJECTED, the model is told:");
                for e in rejection.errors() {
                    println!("   {:<18} {:<18} {}", e.code.as_str(), e.path, e.message);
                }
                println!("   tool result: {}", rejection.for_model());
            }
        }
        println!();
    }
}

/// A value's JSON, cut to 40 characters.
fn short(value: &serde_json::Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(40) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text,
    }
}
