//! Calls the policy says to confirm: the user is asked before the call goes on, with an
//! elicitation of the gate's own that holds the call, or in the rounds of the 2026-07-28
//! revision (an `input_required` answer, then the client's retry).

use serde_json::Value;

use crate::meaning::Ask;
use crate::message::{self, Message, Params};
use crate::{reply, CallVerdict, Gate, Handled, Outcome, Route};

/// A call waiting for the user's confirmation.
#[derive(Debug)]
pub(crate) struct HeldCall {
    /// The call's id, as the client wrote it.
    pub id: String,
    /// The line to forward once confirmed (the call as gated).
    pub line: String,
    pub verdict: CallVerdict,
    /// The client cancelled the call while it waited.
    pub cancelled: bool,
    /// The call's results carry `resultType` (its revision requires it).
    pub tagged: bool,
}

/// The prefix of the ids of the gate's own requests to the client: a string no server's
/// numbered ids can be, and one no server has a reason to use. Ids are matched as written, so
/// it holds nothing a client could write escaped.
pub(crate) const CONFIRMATION_ID_PREFIX: &str = "toolargs-gate-confirm-";

/// The key of the gate's input request in the `input_required` results of the 2026-07-28
/// revision, and of the user's answer in the retried call.
pub(crate) const CONFIRMATION_KEY: &str = "toolargs-gate/confirm";

impl Gate {
    /// Forwards a call that passed the gate as `line`, or, for a tool the policy says to
    /// confirm or a call whose meaning `ask`s for it (a correction that changed it, an action
    /// made lately), asks the user first (showing why and `arguments()`, the JSON text
    /// forwarded, made only then): in the rounds of a 2026-07-28 call
    /// ([`Gate::confirm_in_rounds`]), or else with an elicitation request of the gate's own,
    /// holding the call until the answer. Refuses the call when the client cannot ask, and
    /// when its meaning says to.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn forward_call(
        &mut self,
        id: &str,
        tool: &str,
        params: &Params<'_>,
        line: String,
        arguments: impl FnOnce() -> String,
        verdict: CallVerdict,
        ask: Ask,
    ) -> Handled {
        let tagged = params.tagged;
        let (why, code) = match ask {
            Ask::Refuse { code, for_model } => {
                let reply = reply::meaning_refused(id, &for_model, self.shape(tool, tagged));
                return self.refuse_for(id, Outcome::Refused, code, reply, verdict);
            }
            Ask::Confirm { why, code } => (Some(why), code),
            Ask::Nothing if self.policy.confirms(tool) => (None, "confirmation_unavailable"),
            Ask::Nothing => {
                self.went_on(id, &verdict);
                return Handled {
                    routes: vec![Route::ToServer(line)],
                    verdict: Some(verdict),
                    listing: false,
                };
            }
        };
        let tagged = params.tagged;
        let unable = if tagged {
            let elicits = params
                .meta_capabilities
                .is_some_and(message::declares_elicitation);
            (!elicits).then_some("this client cannot ask for it (no elicitation)")
        } else if self.per_exchange {
            Some("the gate asks for it over Streamable HTTP only in the rounds of the 2026-07-28 revision")
        } else {
            (!self.client_elicits).then_some("this client cannot ask for it (no elicitation)")
        };
        if let Some(unable) = unable {
            let shape = self.shape(tool, tagged);
            if code == "confirmation_unavailable" {
                let reply = reply::confirmation_unavailable(id, tool, unable, shape);
                return self.refuse(id, Outcome::ConfirmationUnavailable, reply, verdict);
            }
            let text = format!(
                "{} The user cannot be asked ({unable}), so the call was not made.",
                why.as_deref().unwrap_or_default()
            );
            let reply = reply::refused(id, shape, code, &text);
            return self.refuse_for(id, Outcome::Refused, code, reply, verdict);
        }
        if tagged {
            let arguments = arguments();
            return self.confirm_in_rounds(id, tool, params, line, arguments, verdict, why);
        }
        self.confirmations += 1;
        let request_id =
            Value::String(format!("{CONFIRMATION_ID_PREFIX}{}", self.confirmations)).to_string();
        let request = reply::confirmation_request(&request_id, tool, &arguments(), why.as_deref());
        self.held.insert(
            request_id,
            HeldCall {
                id: id.to_owned(),
                line,
                verdict,
                cancelled: false,
                tagged,
            },
        );
        // The verdict waits for the user's answer.
        Handled {
            routes: vec![Route::ToClient(request)],
            verdict: None,
            listing: false,
        }
    }

    /// A confirmation in the rounds of the 2026-07-28 revision, where a server asks for input
    /// by answering `input_required` and the client retries the call with the answers. The
    /// first call is answered so, with an elicitation under [`CONFIRMATION_KEY`] and a
    /// `requestState` of the gate's that stands for this tool with these arguments, once. The
    /// retry that brings it back goes on (without the gate's answer and state) when the user
    /// accepted, and is refused otherwise; a retry with other arguments, or a state the gate
    /// did not give, is asked about again.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn confirm_in_rounds(
        &mut self,
        id: &str,
        tool: &str,
        params: &Params<'_>,
        line: String,
        arguments: String,
        verdict: CallVerdict,
        why: Option<String>,
    ) -> Handled {
        let state = params
            .request_state
            .and_then(|raw| serde_json::from_str::<String>(raw.get()).ok());
        let approved = state
            .as_deref()
            .and_then(|state| self.rounds.get(state))
            .is_some_and(|asked| asked.tool == tool && asked.arguments == arguments);
        if let (true, Some(state)) = (approved, state) {
            self.rounds.remove(&state);
            let answer = params
                .input_responses
                .and_then(|raw| serde_json::from_str::<Value>(raw.get()).ok())
                .and_then(|answers| answers.get(CONFIRMATION_KEY).cloned())
                .unwrap_or(Value::Null);
            // `line` is the call as gated, repaired perhaps: read again.
            let forwarded = || message::without_round(&line, CONFIRMATION_KEY);
            return self.after_confirmation(id, forwarded, verdict, Some(&answer), true);
        }
        self.pending.remove(id);
        let state = self.rounds.ask(tool, &arguments);
        Handled {
            routes: vec![Route::ToClient(reply::confirmation_round(
                id,
                CONFIRMATION_KEY,
                &state,
                tool,
                &arguments,
                why.as_deref(),
            ))],
            // The verdict comes with the retry.
            verdict: None,
            listing: false,
        }
    }

    /// The client's answer to a confirmation the gate asked for: the held call goes on when
    /// the user accepted, and is refused otherwise. The answer itself goes nowhere: the
    /// request was the gate's.
    pub(crate) fn confirmed(&mut self, held: HeldCall, answer: &Message<'_>) -> Handled {
        let HeldCall {
            id,
            line,
            verdict,
            cancelled,
            tagged,
        } = held;
        if cancelled {
            // Nobody waits for the call any more: nothing to forward or answer.
            return Handled::default();
        }
        let result = answer
            .result
            .filter(|_| answer.error.is_none())
            .map(|result| serde_json::from_str::<Value>(result.get()).unwrap_or(Value::Null));
        self.after_confirmation(&id, || line, verdict, result.as_ref(), tagged)
    }

    /// The user's answer to the confirmation of a call (`answer`, the elicitation's result;
    /// `None` when asking failed): the call goes on as `line()` when they accepted, and is
    /// refused with `not_confirmed` otherwise.
    pub(crate) fn after_confirmation(
        &mut self,
        id: &str,
        line: impl FnOnce() -> String,
        mut verdict: CallVerdict,
        answer: Option<&Value>,
        tagged: bool,
    ) -> Handled {
        let action = answer.and_then(|answer| answer.get("action")?.as_str());
        if action == Some("accept") {
            verdict.confirmed = true;
            self.went_on(id, &verdict);
            return Handled {
                routes: vec![Route::ToServer(line())],
                verdict: Some(verdict),
                listing: false,
            };
        }
        let why = match (answer, action) {
            (None, _) => "asking the user for confirmation failed",
            (_, Some("decline")) => "the user declined it",
            (_, Some("cancel")) => "the user dismissed the confirmation",
            _ => "the client's answer to the confirmation was not an acceptance",
        };
        let reply = reply::not_confirmed(id, &verdict.tool, why, self.shape(&verdict.tool, tagged));
        self.refuse(id, Outcome::NotConfirmed, reply, verdict)
    }
}
