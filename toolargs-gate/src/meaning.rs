//! Meaning at the gate, for the tools whose meaning is declared (by the policy, or under
//! `x-toolargs` in the schema): each gate holds one [`Session`](toolargs_semantic::Session)
//! (a stdio connection, an HTTP session), which says what a correction, a repeated action or
//! one retry too many asks; this module turns it into where the call goes.

use serde_json::Value;
use toolargs_semantic::{Actions, Decision, SessionOptions};

use crate::message::Params;
use crate::{CallVerdict, Gate};

/// What the meaning of a call asks of the gate before it goes on.
#[derive(Debug)]
pub(crate) enum Ask {
    /// Nothing: it goes on.
    Nothing,
    /// The user's confirmation, for `why`; `code` refuses the call when the client cannot
    /// ask for it.
    Confirm { why: String, code: &'static str },
    /// A refusal: `code`, and the errors for the model (JSON text).
    Refuse {
        code: &'static str,
        for_model: String,
    },
}

impl Gate {
    /// How hard the session holds corrections and repeated actions.
    pub fn with_session_options(mut self, options: SessionOptions) -> Gate {
        let actions = self.session.actions().clone();
        self.session = toolargs_semantic::Session::new(options).sharing(actions);
        self
    }

    /// Remembers the actions forwarded in `actions`, shared with other gates (each HTTP
    /// session's): an action forwarded by any of them is a duplicate in all. By default a
    /// gate's actions are its own.
    pub fn sharing_actions(mut self, actions: Actions) -> Gate {
        self.session = std::mem::take(&mut self.session).sharing(actions);
        self
    }

    /// Counts a call to `tool` whose meaning is known, unless it is the retry that brings
    /// back a confirmation the gate asked for: true when the corrections are spent, and the
    /// call is not to be made.
    pub(crate) fn corrections_spent(&mut self, tool: &str, params: &Params<'_>) -> bool {
        self.tools.profile(tool).is_some()
            && !self.brings_back_a_round(params)
            && !self.session.admit(tool)
    }

    /// Whether the call of `params` is the retry that brings back a confirmation the gate
    /// asked for in the rounds of the 2026-07-28 revision: not a new attempt.
    fn brings_back_a_round(&self, params: &Params<'_>) -> bool {
        params
            .request_state
            .and_then(|raw| serde_json::from_str::<String>(raw.get()).ok())
            .is_some_and(|state| self.rounds.get(&state).is_some())
    }

    /// A call to `tool` with `arguments` (as received) was rejected: the original of the
    /// corrections that follow, when the tool's meaning is known.
    pub(crate) fn rejected_original(&mut self, tool: &str, arguments: &str) {
        if self.tools.profile(tool).is_some() {
            self.session.rejected(tool, arguments);
        }
    }

    /// What the meaning of a call to `tool` with `arguments` (as judged, repaired perhaps;
    /// `sent` as received) asks, when the tool's meaning is known; what was found goes into `verdict`.
    pub(crate) fn weigh(
        &self,
        tool: &str,
        arguments: &Value,
        sent: &str,
        verdict: &mut CallVerdict,
    ) -> Ask {
        let Some(profile) = self.tools.profile(tool) else {
            return Ask::Nothing;
        };
        let weighing = self
            .session
            .weigh(profile, self.tools.is_idempotent(tool), arguments, sent);
        verdict.meaning = weighing.to_json();
        verdict.fingerprint = weighing.fingerprint;
        match weighing.decision {
            Decision::Proceed | Decision::ProceedAndReport => Ask::Nothing,
            Decision::Confirm => Ask::Confirm {
                why: weighing.prompt(),
                code: weighing.code.unwrap_or("confirmation_required"),
            },
            Decision::Reject => Ask::Refuse {
                code: "meaning_changed",
                for_model: weighing.for_model(),
            },
        }
    }

    /// A call judged by `verdict`, with the id `id` (as written), went on to the server: its
    /// tool's corrections are over, and its action is remembered.
    pub(crate) fn went_on(&mut self, id: &str, verdict: &CallVerdict) {
        if self.tools.profile(&verdict.tool).is_some() {
            self.session
                .executed(&verdict.tool, verdict.fingerprint, id);
        }
    }
}

/// `meaning`, a verdict's, as the log writes it: without the arguments' values unless
/// `values` (they can hold personal data, as the arguments do).
pub(crate) fn logged(meaning: &Value, values: bool) -> Value {
    if values {
        return meaning.clone();
    }
    let mut meaning = meaning.clone();
    if let Some(correction) = meaning.get_mut("correction").and_then(Value::as_object_mut) {
        correction.remove("original");
        if let Some(findings) = correction.get_mut("findings").and_then(Value::as_array_mut) {
            for finding in findings.iter_mut().filter_map(Value::as_object_mut) {
                for key in ["original", "corrected", "readings", "canonical", "reason"] {
                    finding.remove(key);
                }
            }
        }
    }
    meaning
}
