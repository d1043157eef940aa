//! What the dispatcher decided about a call, what to send back to the model, and a parsed
//! call held for confirmation.

use std::fmt;

use serde_json::{json, Value};

use crate::toolbox::Erased;
use toolargs_core::report::{Rejection, Repair};
use toolargs_semantic::Review;

/// What the dispatcher decided.
#[derive(Debug)]
#[non_exhaustive]
// One value per call, matched right away and never stored in bulk: boxing the review would
// cost an allocation and a less direct pattern for no gain.
#[allow(clippy::large_enum_variant)]
pub enum Dispatch {
    /// The tool ran.
    Ran {
        /// Its output.
        output: Value,
        /// The repairs its arguments needed.
        repairs: Vec<Repair>,
        /// The attempt that succeeded, from 1.
        attempt: u32,
    },
    /// The arguments were rejected; send `message` back to the model as the tool result.
    Rejected {
        /// The model-facing error JSON (`Rejection::for_model`).
        message: String,
        /// This attempt's number, from 1.
        attempt: u32,
        /// Every error.
        rejection: Rejection,
    },
    /// The budget is spent: stop looping and escalate (a human, a fallback, a failed task).
    Exhausted {
        /// Why, for a log line.
        reason: String,
        /// The last rejection, when the arguments were the problem.
        rejection: Option<Rejection>,
    },
    /// The tool ran and failed on its own terms.
    Failed {
        /// The handler's error message.
        error: String,
        /// The attempt, from 1.
        attempt: u32,
    },
    /// No tool has this name; send `message` back to the model.
    UnknownTool {
        /// The model-facing message, naming the tools that exist.
        message: String,
    },
    /// The corrected call may mean something else than the original, and the tool writes,
    /// deletes, pays or notifies: a human or a policy hook decides. Run it with
    /// [`Toolbox::run_confirmed`](crate::Toolbox::run_confirmed), or drop it.
    Confirm {
        /// The semantic gate's findings, with a prompt for the person asked.
        review: Review,
        /// The call, parsed and held until someone decides.
        pending: Pending,
    },
    /// A field marked critical changed meaning in the correction: the call does not run.
    Refused {
        /// The semantic gate's findings.
        review: Review,
    },
}

impl Dispatch {
    /// How the call ended, for its span and duration histogram.
    pub(crate) fn outcome(&self) -> toolargs_core::telemetry::SpanOutcome<'_> {
        use toolargs_core::telemetry::SpanOutcome;
        let stopped = |error_type, outcome| SpanOutcome::Stopped {
            error_type,
            outcome,
        };
        match self {
            Dispatch::Ran { repairs, .. } => SpanOutcome::Accepted(repairs),
            Dispatch::Rejected { rejection, .. } => SpanOutcome::Rejected(rejection),
            Dispatch::Exhausted { .. } => stopped("retry_budget_exhausted", "exhausted"),
            Dispatch::Failed { .. } => stopped("tool_error", "failed"),
            Dispatch::UnknownTool { .. } => stopped("unknown_tool", "unknown_tool"),
            Dispatch::Confirm { .. } => stopped("confirmation_required", "confirm"),
            Dispatch::Refused { .. } => stopped("semantic_refusal", "refused"),
        }
    }
}

/// A parsed call held for confirmation.
pub struct Pending {
    pub(crate) tool: String,
    pub(crate) call_id: String,
    pub(crate) args: Erased,
    pub(crate) canonical: Value,
    pub(crate) repairs: Vec<Repair>,
    pub(crate) attempt: u32,
    pub(crate) raw: Value,
}

impl fmt::Debug for Pending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pending")
            .field("tool", &self.tool)
            .field("call_id", &self.call_id)
            .field("arguments", &self.canonical)
            .finish_non_exhaustive()
    }
}

impl Dispatch {
    /// What to send back to the model as the tool result, when the loop goes on.
    pub fn tool_result(&self) -> Option<String> {
        match self {
            Dispatch::Ran { output, .. } => Some(output.to_string()),
            Dispatch::Rejected { message, .. } | Dispatch::UnknownTool { message } => {
                Some(message.clone())
            }
            Dispatch::Failed { error, .. } => {
                Some(json!({"ok": false, "tool_error": error}).to_string())
            }
            Dispatch::Refused { review } => Some(review.for_model()),
            Dispatch::Exhausted { .. } | Dispatch::Confirm { .. } => None,
        }
    }
}
