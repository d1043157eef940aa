//! One `tracing` span per `tools/call` (feature `telemetry`), the toolbox's span
//! ([`toolargs_core::telemetry::tool_span`]): `execute_tool {tool}` with the `gen_ai.*`
//! fields, the call's JSON-RPC id as `gen_ai.tool.call.id`, and the gate's verdict as
//! `toolargs.outcome`, `toolargs.codes` and `toolargs.rules`.
//!
//! The span begins when the call arrives and ends when its answer leaves for the client:
//! the server's result (with `error.type` `tool_error` for an `isError` result, `server_error`
//! for a JSON-RPC error, `server_gone` when the server ended first), or the gate's own answer
//! to a call it did not forward. Without the feature, [`CallSpan`] is empty and costs nothing.

use crate::CallVerdict;

/// The span of one call (empty without the `telemetry` feature).
#[derive(Debug)]
pub(crate) struct CallSpan {
    #[cfg(feature = "telemetry")]
    span: tracing::Span,
}

/// How the server answered a forwarded call, for its span.
#[cfg_attr(not(feature = "telemetry"), allow(dead_code))]
pub(crate) enum Answer {
    /// A result; `true` when it is an `isError` result.
    Result(bool),
    /// A JSON-RPC error.
    Error,
    /// The server ended before answering.
    Gone,
    /// The client cancelled the call.
    Cancelled,
}

impl Answer {
    /// How `message`, the server's answer to a call, went.
    pub(crate) fn of(message: &crate::message::Message<'_>) -> Answer {
        #[derive(serde::Deserialize)]
        struct Result {
            #[serde(rename = "isError", default)]
            is_error: bool,
        }
        match (message.error, message.result) {
            (None, Some(result)) => Answer::Result(
                serde_json::from_str::<Result>(result.get()).is_ok_and(|r| r.is_error),
            ),
            _ => Answer::Error,
        }
    }
}

impl CallSpan {
    /// The span of a call to `tool` with the JSON-RPC id `id` (as written).
    #[cfg_attr(not(feature = "telemetry"), allow(unused_variables))]
    pub(crate) fn start(tool: &str, id: &str) -> CallSpan {
        CallSpan {
            #[cfg(feature = "telemetry")]
            span: toolargs_core::telemetry::tool_span(tool, Some(id)),
        }
    }

    /// Runs `judge` inside the span, so that what it emits nests under it.
    pub(crate) fn in_scope<R>(&self, judge: impl FnOnce() -> R) -> R {
        #[cfg(feature = "telemetry")]
        let _entered = self.span.enter();
        judge()
    }

    /// Records the gate's verdict; a call the gate did not forward has `error.type` its
    /// outcome (`invalid_arguments` for a rejection, as the toolbox says).
    #[cfg_attr(not(feature = "telemetry"), allow(unused_variables))]
    pub(crate) fn judged(&self, verdict: &CallVerdict) {
        #[cfg(feature = "telemetry")]
        {
            use crate::Outcome;
            let error_type = match verdict.outcome {
                Outcome::Clean | Outcome::Repaired | Outcome::Unchecked => None,
                Outcome::Rejected => Some("invalid_arguments"),
                ref refused => Some(refused.as_str()),
            };
            toolargs_core::telemetry::record_names(
                &self.span,
                verdict.outcome.as_str(),
                error_type,
                verdict.codes.iter().map(String::as_str),
                verdict.rules.iter().map(String::as_str),
            );
        }
    }

    /// Records how the server answered a forwarded call (`answer`, asked only with the
    /// feature), and ends the span.
    #[cfg_attr(not(feature = "telemetry"), allow(unused_variables))]
    pub(crate) fn answered(self, answer: impl FnOnce() -> Answer) {
        #[cfg(feature = "telemetry")]
        {
            let error_type = match answer() {
                Answer::Result(false) => return,
                Answer::Result(true) => "tool_error",
                Answer::Error => "server_error",
                Answer::Gone => "server_gone",
                Answer::Cancelled => "cancelled",
            };
            self.span.record("error.type", error_type);
        }
    }
}
