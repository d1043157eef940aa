//! The refund tool of the policy's running example, shared by the integration tests.
#![allow(dead_code)]

use chrono::NaiveDate;
use serde_json::{json, Value};
use toolargs::ToolArgs;

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

/// The same tool with `amount_cents` marked strict.
#[derive(ToolArgs, Debug, Clone, PartialEq)]
#[toolargs(name = "issue_refund")]
pub struct StrictRefund {
    #[arg(pattern = r"ord_[A-Za-z0-9]{8}")]
    pub order_id: String,
    #[arg(strict, min = 1, max = 50000)]
    pub amount_cents: i64,
    #[arg(default)]
    pub notify_customer: bool,
    pub reason: Reason,
    #[arg(default)]
    pub tags: Vec<String>,
    pub effective_date: Option<NaiveDate>,
}

/// The clean call every case starts from.
pub fn base() -> Value {
    json!({"order_id": "ord_A1b2C3d4", "amount_cents": 1999, "reason": "damaged"})
}

/// The base call with one field replaced, as JSON text.
pub fn payload(field: &str, value: Value) -> String {
    let mut call = base();
    call[field] = value;
    call.to_string()
}

/// The base call without `field`, as JSON text.
pub fn without(field: &str) -> String {
    let mut call = base();
    call.as_object_mut().unwrap().remove(field);
    call.to_string()
}

/// (code, path) of every error, in order.
pub fn codes(rejection: &toolargs::Rejection) -> Vec<(String, String)> {
    rejection
        .errors()
        .iter()
        .map(|e| (e.code.to_string(), e.path.clone()))
        .collect()
}

/// The rule of every repair, in order.
pub fn rules<T>(parsed: &toolargs::Parsed<T>) -> Vec<&'static str> {
    parsed.repairs.iter().map(|r| r.rule.as_str()).collect()
}
