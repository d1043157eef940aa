//! Dispatching a call: look the tool up, check the budget, parse the arguments, review a
//! corrected call, run the handler, and say what happened.

use std::time::Instant;

use serde_json::{json, Value};
use tracing::Instrument;

use crate::audit::raw_value;
use crate::budget::Session;
use crate::observe;
use crate::toolbox::Handler;
use crate::{Dispatch, Pending, ToolCall, ToolResult, Toolbox};
use toolargs_core::report::{Rejection, Repair};
use toolargs_semantic::Decision;

impl Toolbox {
    /// Dispatches one call to a synchronous handler.
    pub fn dispatch(&self, session: &mut Session, call: ToolCall<'_>) -> Dispatch {
        let span = toolargs_core::telemetry::tool_span(&call.name, Some(&call.id));
        let started = Instant::now();
        let dispatch = span.in_scope(|| match self.prepare(session, &call) {
            Ok(pending) => self.run_confirmed(session, pending),
            Err(done) => *done,
        });
        observe::finished(&span, &call.name, dispatch.outcome(), started.elapsed());
        dispatch
    }

    /// Dispatches one call, awaiting an asynchronous handler (synchronous ones run inline).
    pub async fn dispatch_async(&self, session: &mut Session, call: ToolCall<'_>) -> Dispatch {
        let span = toolargs_core::telemetry::tool_span(&call.name, Some(&call.id));
        let started = Instant::now();
        let dispatch = async {
            match self.prepare(session, &call) {
                Ok(pending) => self.run_confirmed_async(session, pending).await,
                Err(done) => *done,
            }
        }
        .instrument(span.clone())
        .await;
        observe::finished(&span, &call.name, dispatch.outcome(), started.elapsed());
        dispatch
    }

    /// Looks the tool up, checks the budget and parses the arguments.
    fn prepare(
        &self,
        session: &mut Session,
        call: &ToolCall<'_>,
    ) -> Result<Pending, Box<Dispatch>> {
        let attempt = session.begin(&call.id);
        let raw = raw_value(&call.arguments);
        if attempt == 1 {
            session.keep_original(&call.id, &raw);
        }
        let Some(entry) = self.tools.get(call.name.as_str()) else {
            session.spend(1);
            let names: Vec<&str> = self.names().collect();
            self.record(
                &call.name,
                &call.id,
                attempt,
                raw,
                None,
                Vec::new(),
                Vec::new(),
                "unknown_tool",
            );
            return Err(Box::new(self.over_budget(session, &call.id, attempt, None).unwrap_or_else(|| Dispatch::UnknownTool {
                message: json!({"ok": false, "errors": [{"error": "unknown_tool", "path": "$",
                    "message": format!("there is no tool named {:?}; tools: {}", call.name, names.join(", "))}]})
                .to_string(),
            })));
        };
        if session.spent() >= self.budget.per_session {
            return Err(Box::new(self.exhaust(
                session,
                call,
                format!(
                    "the session used its {} repairs and retries",
                    self.budget.per_session
                ),
                None,
            )));
        }
        match (entry.parse)(&call.arguments, &self.options) {
            Ok((args, canonical, repairs)) => {
                observe::repaired(&call.name, &repairs);
                session.spend(repairs.len() as u32);
                let pending = Pending {
                    tool: call.name.clone(),
                    call_id: call.id.clone(),
                    args,
                    canonical,
                    repairs,
                    attempt,
                    raw,
                };
                self.review(session, pending)
            }
            Err(rejection) => {
                observe::rejected(&call.name, &rejection);
                session.spend(1);
                let exhausted = self.over_budget(session, &call.id, attempt, Some(&rejection));
                let outcome = if exhausted.is_some() {
                    "exhausted"
                } else {
                    "rejected"
                };
                let errors = rejection.errors().to_vec();
                self.record(
                    &call.name,
                    &call.id,
                    attempt,
                    raw,
                    None,
                    Vec::new(),
                    errors,
                    outcome,
                );
                observe::outcome(&call.name, outcome);
                if let Some(done) = exhausted {
                    return Err(Box::new(done));
                }
                Err(Box::new(Dispatch::Rejected {
                    message: rejection.for_model(),
                    attempt,
                    rejection,
                }))
            }
        }
    }

    /// Sends a corrected call through the semantic gate, if there is one.
    fn review(&self, session: &mut Session, pending: Pending) -> Result<Pending, Box<Dispatch>> {
        let (Some(gate), Some(entry)) = (&self.semantic, self.tools.get(pending.tool.as_str()))
        else {
            return Ok(pending);
        };
        let corrected = pending.attempt > 1 || !pending.repairs.is_empty();
        if !corrected {
            return Ok(pending);
        }
        let original = session.original(&pending.call_id).unwrap_or(&pending.raw);
        let review = gate.compare(&(entry.profile)(), original, &pending.canonical);
        tracing::info!(target: "toolargs", tool = pending.tool.as_str(), decision = review.decision.as_str(), "corrected call reviewed");
        match review.decision {
            Decision::Proceed | Decision::ProceedAndReport => Ok(pending),
            Decision::Confirm => {
                session.settle(&pending.call_id);
                observe::outcome(&pending.tool, "confirm");
                Err(Box::new(Dispatch::Confirm { review, pending }))
            }
            Decision::Reject => {
                session.settle(&pending.call_id);
                observe::outcome(&pending.tool, "refused");
                Err(Box::new(Dispatch::Refused { review }))
            }
        }
    }

    /// Runs a call held by [`Dispatch::Confirm`] once someone approved it (synchronous handlers).
    pub fn run_confirmed(&self, session: &mut Session, pending: Pending) -> Dispatch {
        let result = match self.tools.get(pending.tool.as_str()).map(|e| &e.handler) {
            Some(Handler::Sync(run)) => run(pending.args),
            Some(Handler::Async(_)) => Err(format!(
                "`{}` has an async handler; use dispatch_async or run_confirmed_async",
                pending.tool
            )
            .into()),
            None => Err(format!("no tool named {:?}", pending.tool).into()),
        };
        self.finish(
            session,
            &pending.tool,
            &pending.call_id,
            pending.canonical,
            pending.repairs,
            pending.attempt,
            pending.raw,
            result,
        )
    }

    /// Runs a call held by [`Dispatch::Confirm`] once someone approved it.
    pub async fn run_confirmed_async(&self, session: &mut Session, pending: Pending) -> Dispatch {
        let result = match self.tools.get(pending.tool.as_str()).map(|e| &e.handler) {
            Some(Handler::Sync(run)) => run(pending.args),
            Some(Handler::Async(run)) => run(pending.args).await,
            None => Err(format!("no tool named {:?}", pending.tool).into()),
        };
        self.finish(
            session,
            &pending.tool,
            &pending.call_id,
            pending.canonical,
            pending.repairs,
            pending.attempt,
            pending.raw,
            result,
        )
    }

    /// `Exhausted` when this attempt used the call's last correction.
    fn over_budget(
        &self,
        session: &mut Session,
        call_id: &str,
        attempt: u32,
        rejection: Option<&Rejection>,
    ) -> Option<Dispatch> {
        if attempt <= self.budget.corrections_per_call {
            return None;
        }
        session.settle(call_id);
        let reason = format!(
            "call {call_id:?} was still wrong after {} corrections",
            self.budget.corrections_per_call
        );
        tracing::error!(target: "toolargs", call_id, attempt, "retry budget exhausted");
        Some(Dispatch::Exhausted {
            reason,
            rejection: rejection.cloned(),
        })
    }

    fn exhaust(
        &self,
        session: &mut Session,
        call: &ToolCall<'_>,
        reason: String,
        rejection: Option<Rejection>,
    ) -> Dispatch {
        session.settle(&call.id);
        tracing::error!(target: "toolargs", tool = call.name.as_str(), reason = reason.as_str(), "retry budget exhausted");
        observe::outcome(&call.name, "exhausted");
        Dispatch::Exhausted { reason, rejection }
    }

    #[allow(clippy::too_many_arguments)]
    fn finish(
        &self,
        session: &mut Session,
        tool: &str,
        call_id: &str,
        canonical: Value,
        repairs: Vec<Repair>,
        attempt: u32,
        raw: Value,
        result: ToolResult,
    ) -> Dispatch {
        session.settle(call_id);
        let outcome = match (&result, repairs.is_empty()) {
            (Err(_), _) => "failed",
            (Ok(_), true) => "clean",
            (Ok(_), false) => "repaired",
        };
        observe::outcome(tool, outcome);
        self.record(
            tool,
            call_id,
            attempt,
            raw,
            Some(canonical),
            repairs.clone(),
            Vec::new(),
            outcome,
        );
        match result {
            Ok(output) => Dispatch::Ran {
                output,
                repairs,
                attempt,
            },
            Err(error) => Dispatch::Failed {
                error: error.to_string(),
                attempt,
            },
        }
    }
}
