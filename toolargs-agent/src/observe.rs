//! Observability with the ecosystem's tools: `tracing` events and `metrics` counters for every
//! repair and rejection, and an audit record per call.
//!
//! Events and counters carry the tool, the path and the rule or code, never raw values: raw
//! arguments can hold personal data, so they only reach the audit record, through a redaction
//! hook.

use std::time::Duration;

use serde_json::Value;

use toolargs_core::report::{ArgumentError, Rejection, Repair};
use toolargs_core::telemetry::{self, SpanOutcome};

/// Name of the counter of repairs, labelled `tool` and `rule`.
pub const REPAIRS_TOTAL: &str = "toolargs_repairs_total";
/// Name of the counter of rejected calls' errors, labelled `tool` and `code`.
pub const REJECTIONS_TOTAL: &str = "toolargs_rejections_total";
/// Name of the counter of calls by outcome, labelled `tool` and `outcome`
/// (`clean`, `repaired`, `rejected`, `exhausted`, `failed`, `confirm`, `refused`).
pub const CALLS_TOTAL: &str = "toolargs_calls_total";

/// Emits one `tracing` event and one counter increment per repair of an accepted call.
pub fn repaired(tool: &str, repairs: &[Repair]) {
    for r in repairs {
        tracing::info!(target: "toolargs", tool, path = %r.path, rule = r.rule.as_str(), "argument repaired");
        metrics::counter!(REPAIRS_TOTAL, "tool" => tool.to_owned(), "rule" => r.rule.as_str())
            .increment(1);
    }
}

/// Emits one `tracing` event and one counter increment per error of a rejected call.
pub fn rejected(tool: &str, rejection: &Rejection) {
    for e in rejection.errors() {
        tracing::warn!(target: "toolargs", tool, path = %e.path, code = e.code.as_str(), "argument rejected");
        metrics::counter!(REJECTIONS_TOTAL, "tool" => tool.to_owned(), "code" => e.code.as_str())
            .increment(1);
    }
}

/// Name of the histogram of call durations in seconds (parse, review and the tool's run),
/// labelled `tool` and `outcome`.
pub const CALL_DURATION_SECONDS: &str = "toolargs_call_duration_seconds";

/// Records how a call ended on its span ([`toolargs_core::telemetry`]) and its duration.
pub fn finished(span: &tracing::Span, tool: &str, outcome: SpanOutcome<'_>, elapsed: Duration) {
    telemetry::record_outcome(span, outcome);
    let name = match outcome {
        SpanOutcome::Accepted([]) => "clean",
        SpanOutcome::Accepted(_) => "repaired",
        SpanOutcome::Rejected(_) => "rejected",
        SpanOutcome::Stopped { outcome, .. } => outcome,
    };
    metrics::histogram!(CALL_DURATION_SECONDS, "tool" => tool.to_owned(), "outcome" => name)
        .record(elapsed.as_secs_f64());
}

/// Counts one call by its outcome.
pub fn outcome(tool: &str, outcome: &'static str) {
    metrics::counter!(CALLS_TOTAL, "tool" => tool.to_owned(), "outcome" => outcome).increment(1);
}

/// What happened to one call, for an audit trail. Raw and repaired arguments pass through the
/// toolbox's redaction hook before a record is handed out.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct AuditRecord {
    /// The tool called.
    pub tool: String,
    /// The caller's id for the logical call (retries share it).
    pub call_id: String,
    /// Which attempt this was, from 1.
    pub attempt: u32,
    /// The arguments as received (JSON text that does not parse is kept as a string).
    pub raw: Value,
    /// The canonical arguments after repairs, when accepted.
    pub repaired: Option<Value>,
    /// The repairs applied (their `before`/`after` values redacted too).
    pub repairs: Vec<Repair>,
    /// The errors of a rejected attempt.
    pub errors: Vec<ArgumentError>,
    /// `clean`, `repaired`, `rejected`, `exhausted`, `failed` or `unknown_tool`.
    pub outcome: &'static str,
}
