//! What the fuzz targets share: the refund tool of the policy's running example, and the
//! invariants every outcome must satisfy.

use chrono::NaiveDate;
use serde_json::Value;
use toolargs::{Parsed, Rejection, ToolArgs};

/// Refund part of an order.
#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(name = "issue_refund", effect = "external")]
pub struct IssueRefund {
    /// The order to refund.
    #[arg(pattern = r"ord_[A-Za-z0-9]{8}")]
    pub order_id: String,
    /// Amount in cents.
    #[arg(min = 1, max = 50000)]
    pub amount_cents: i64,
    /// Email the customer about the refund.
    #[arg(default)]
    pub notify_customer: bool,
    pub reason: Reason,
    #[arg(default)]
    pub tags: Vec<String>,
    pub effective_date: Option<NaiveDate>,
}

/// Why the order is refunded.
#[derive(ToolArgs, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    Damaged,
    Late,
    Duplicate,
    Other,
}

/// A rejection is never empty, every path starts at the payload, and the message for the model
/// is one JSON object listing them all.
pub fn check_rejection(rejection: &Rejection) {
    assert!(!rejection.errors().is_empty(), "empty rejection");
    for error in rejection.errors() {
        assert!(error.path.starts_with('$'), "path {:?}", error.path);
        assert!(!error.message.is_empty(), "no message at {}", error.path);
    }
    let body: Value = serde_json::from_str(&rejection.for_model()).expect("for_model is JSON");
    let listed = body["errors"].as_array().map_or(0, Vec::len);
    assert_eq!(listed, rejection.errors().len());
    assert!(!rejection.to_string().is_empty());
}

/// Repairs name their place, and the canonical output reads back clean and equal.
pub fn check_parsed<T: ToolArgs>(parsed: &Parsed<T>) {
    for repair in &parsed.repairs {
        assert!(repair.path.starts_with('$'), "path {:?}", repair.path);
    }
    let canonical = parsed.args.to_json();
    match T::parse(&canonical) {
        Ok(again) => {
            assert!(again.repairs.is_empty(), "canonical form needed {:?}", again.repairs);
            assert_eq!(again.args.to_json(), canonical, "canonical form changed");
        }
        Err(rejection) => panic!("canonical form {canonical} rejected: {rejection}"),
    }
}
