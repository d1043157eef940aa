//! One span per tool call, after OpenTelemetry's semantic conventions for generative AI
//! (feature `telemetry`), so every path that runs a call (the toolbox, the adapters, the
//! `Deserialize` impl) reports it the same way.
//!
//! The span is named `execute_tool {tool}` (through `otel.name`, which
//! `tracing-opentelemetry` reads) and carries `gen_ai.operation.name`, `gen_ai.tool.name`,
//! `gen_ai.tool.call.id` and, for a call that did not run, `error.type`. toolargs' own fields
//! sit under `toolargs.`: the outcome, the codes of a rejection and the rules of the repairs.
//! Argument values never appear: they can hold personal data.

use tracing::field::Empty;
use tracing::Span;

use crate::report::{Parsed, Rejection, Repair};

/// The span of one call to `tool`; `call_id` is the model's id for it, when there is one.
/// Enter it around the parse and the tool's run, then [`record_outcome`].
pub fn tool_span(tool: &str, call_id: Option<&str>) -> Span {
    tracing::info_span!(
        target: "toolargs",
        "execute_tool",
        otel.name = %format_args!("execute_tool {tool}"),
        otel.kind = "internal",
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = tool,
        gen_ai.tool.call.id = call_id,
        error.type = Empty,
        toolargs.outcome = Empty,
        toolargs.codes = Empty,
        toolargs.rules = Empty,
    )
}

/// How a call ended, for [`record_outcome`].
#[derive(Clone, Copy, Debug)]
pub enum SpanOutcome<'a> {
    /// Accepted, with these repairs (none: clean).
    Accepted(&'a [Repair]),
    /// Rejected with these errors.
    Rejected(&'a Rejection),
    /// Stopped for another reason (`error.type`, e.g. `unknown_tool`, `tool_error`), with the
    /// outcome name toolargs counts it under.
    Stopped {
        /// The low-cardinality class of the failure, as `error.type`.
        error_type: &'static str,
        /// toolargs' name for the outcome.
        outcome: &'static str,
    },
}

impl<'a> SpanOutcome<'a> {
    /// The outcome of a parse: accepted with its repairs, or rejected.
    pub fn of<T>(parsed: &'a Result<Parsed<T>, Rejection>) -> SpanOutcome<'a> {
        match parsed {
            Ok(parsed) => SpanOutcome::Accepted(&parsed.repairs),
            Err(rejection) => SpanOutcome::Rejected(rejection),
        }
    }
}

/// Records how the call ended on its span: `toolargs.outcome` (`clean`, `repaired`,
/// `rejected`, or the given one), the codes or rules, and `error.type` when the call did not
/// run.
pub fn record_outcome(span: &Span, outcome: SpanOutcome<'_>) {
    match outcome {
        SpanOutcome::Accepted(repairs) => {
            let name = if repairs.is_empty() {
                "clean"
            } else {
                "repaired"
            };
            span.record("toolargs.outcome", name);
            if !repairs.is_empty() {
                let rules: Vec<&str> = repairs.iter().map(|r| r.rule.as_str()).collect();
                span.record("toolargs.rules", rules.join(",").as_str());
            }
        }
        SpanOutcome::Rejected(rejection) => {
            span.record("toolargs.outcome", "rejected");
            span.record("error.type", "invalid_arguments");
            let codes: Vec<&str> = rejection.errors().iter().map(|e| e.code.as_str()).collect();
            span.record("toolargs.codes", codes.join(",").as_str());
        }
        SpanOutcome::Stopped {
            error_type,
            outcome,
        } => {
            span.record("toolargs.outcome", outcome);
            span.record("error.type", error_type);
        }
    }
}
