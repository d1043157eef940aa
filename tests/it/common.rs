//! The refund tool of the policy's running example, shared by the integration tests.
#![allow(dead_code)]

use chrono::NaiveDate;
use jsonschema::{Draft, Validator};
use serde_json::{json, Value};
use toolargs::{RawArgs, ToolArgs};

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

/// A tool with a map field: it has no form in OpenAI's strict mode.
#[derive(ToolArgs, Debug)]
#[toolargs(name = "tag_order", effect = "additive")]
pub struct TagOrder {
    pub order_id: String,
    pub labels: std::collections::BTreeMap<String, String>,
    pub note: Option<String>,
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

/// A draft 2020-12 validator that asserts `format`, as the gate does.
pub fn validator(schema: &Value) -> Validator {
    try_validator(schema, true).expect("the schema compiles")
}

/// A draft 2020-12 validator that treats `format` as an annotation, the draft's default.
pub fn validator_ignoring_formats(schema: &Value) -> Validator {
    try_validator(schema, false).expect("the schema compiles")
}

/// A draft 2020-12 validator, or why `jsonschema` refused the schema.
pub fn try_validator(schema: &Value, formats: bool) -> Result<Validator, String> {
    jsonschema::options()
        .with_draft(Draft::Draft202012)
        .should_validate_formats(formats)
        .build(schema)
        .map_err(|e| e.to_string())
}

/// Whether the key at `path` was stripped (`strip_unknown_field`) or rejected
/// (`unknown_field`): never passed on, whichever the tool's policy is.
#[cfg(feature = "dynamic")]
pub fn strips_or_rejects(
    outcome: &Result<toolargs::Parsed<serde_json::Value>, toolargs::Rejection>,
    path: &str,
) -> bool {
    match outcome {
        Ok(parsed) => parsed
            .repairs
            .iter()
            .any(|r| r.rule == "strip_unknown_field" && r.path == path),
        Err(rejection) => rejection
            .errors()
            .iter()
            .any(|e| e.code == "unknown_field" && e.path == path),
    }
}

/// `$defs` of shared references that double the work at every level: `l0` to `l39` each an
/// `anyOf` of two references to the next level and a string, `l40` an integer. A value that is
/// neither takes on the order of 2^(40 - n) evaluations under `l{n}`.
pub fn doubling_defs() -> serde_json::Map<String, Value> {
    let mut defs = serde_json::Map::new();
    for level in 0..40 {
        let next = format!("#/$defs/l{}", level + 1);
        defs.insert(
            format!("l{level}"),
            json!({"anyOf": [{"$ref": next}, {"$ref": next}, {"type": "string"}]}),
        );
    }
    defs.insert("l40".into(), json!({"type": "integer"}));
    defs
}

/// A JSON instance as a call's arguments. A string is sent as its JSON text, since a `Value`
/// holding a string is read as the text of the arguments (how clients pass them).
pub fn instance(value: &Value) -> RawArgs<'_> {
    match value {
        Value::String(_) => RawArgs::from(value.to_string()),
        other => RawArgs::from(other),
    }
}

/// A `tracing` writer into a shared buffer, so a test can read the events it caused.
pub struct WriterHandle(pub std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for WriterHandle {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The folder `scripts/bfcl.py` wrote, named by `TOOLARGS_BFCL`: the tests that read it are
/// ignored unless asked for, and fail without it rather than pass having checked nothing.
pub fn bfcl_folder() -> std::path::PathBuf {
    std::env::var_os("TOOLARGS_BFCL")
        .expect("TOOLARGS_BFCL names the folder scripts/bfcl.py wrote")
        .into()
}
