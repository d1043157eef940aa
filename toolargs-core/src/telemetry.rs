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
            let rules = repairs.iter().map(|r| r.rule.as_str());
            record_names(span, name, None, std::iter::empty::<&str>(), rules);
        }
        SpanOutcome::Rejected(rejection) => {
            let codes = rejection.errors().iter().map(|e| e.code.as_str());
            record_names(
                span,
                "rejected",
                Some("invalid_arguments"),
                codes,
                std::iter::empty::<&str>(),
            );
        }
        SpanOutcome::Stopped {
            error_type,
            outcome,
        } => record_names(
            span,
            outcome,
            Some(error_type),
            std::iter::empty::<&str>(),
            std::iter::empty::<&str>(),
        ),
    }
}

/// Records how the call ended by its names, for a caller that judged it elsewhere (the MCP
/// gate, whose verdicts outlive the parse): `toolargs.outcome`, `error.type` when given, and
/// the codes and rules, comma-separated, when there are any.
///
/// ```
/// let span = toolargs_core::telemetry::tool_span("refund", Some("call_1"));
/// toolargs_core::telemetry::record_names(&span, "repaired", None, [], ["string_to_int"]);
/// ```
pub fn record_names<'a>(
    span: &Span,
    outcome: &str,
    error_type: Option<&str>,
    codes: impl IntoIterator<Item = &'a str>,
    rules: impl IntoIterator<Item = &'a str>,
) {
    span.record("toolargs.outcome", outcome);
    if let Some(error_type) = error_type {
        span.record("error.type", error_type);
    }
    for (field, names) in [
        ("toolargs.codes", codes.into_iter().collect::<Vec<_>>()),
        ("toolargs.rules", rules.into_iter().collect()),
    ] {
        if !names.is_empty() {
            span.record(field, names.join(",").as_str());
        }
    }
}
