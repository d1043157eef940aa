//! Meaning at the gate, within one session, for the tools whose meaning is declared (by the
//! policy, or under `x-toolargs` in the schema): a call to a tool after that tool's call was
//! rejected is its correction, compared with the original (kept as received) by what the
//! arguments mean, and the tool's effect decides; a call that repeats an action forwarded
//! lately is held as a duplicate; corrections are capped.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use toolargs_core::effect::Effect;
use toolargs_semantic::{Decision, Fingerprint, SemanticGate};

use crate::message::Params;
use crate::{CallVerdict, Gate};

/// How hard the gate holds corrections and repeated actions ([`Gate::with_meaning_options`]).
///
/// ```
/// use std::time::Duration;
/// use toolargs_gate::MeaningOptions;
///
/// let options = MeaningOptions::default().with_duplicate_window(Duration::from_secs(60));
/// assert_eq!(options.corrections_per_tool, 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MeaningOptions {
    /// Calls to a tool after its call was rejected, before the next is refused
    /// `retry_budget_exhausted` (2: three attempts in all, as the agent loop's budget).
    pub corrections_per_tool: u32,
    /// Corrections in a session, over every tool (20).
    pub corrections_per_session: u32,
    /// How long a forwarded action of a tool that writes, deletes, pays or notifies makes the
    /// same action a duplicate (10 minutes).
    pub duplicate_window: Duration,
}

impl Default for MeaningOptions {
    fn default() -> MeaningOptions {
        MeaningOptions {
            corrections_per_tool: 2,
            corrections_per_session: 20,
            duplicate_window: Duration::from_secs(600),
        }
    }
}

impl MeaningOptions {
    /// At most `corrections` corrections of one tool's call.
    pub fn with_corrections_per_tool(mut self, corrections: u32) -> MeaningOptions {
        self.corrections_per_tool = corrections;
        self
    }

    /// At most `corrections` corrections in a session.
    pub fn with_corrections_per_session(mut self, corrections: u32) -> MeaningOptions {
        self.corrections_per_session = corrections;
        self
    }

    /// The same action within `window` is a duplicate.
    pub fn with_duplicate_window(mut self, window: Duration) -> MeaningOptions {
        self.duplicate_window = window;
        self
    }
}

/// The most forwarded actions remembered; past it, the oldest is forgotten.
const MAX_REMEMBERED: usize = 4096;

/// What one session's calls did so far.
#[derive(Debug, Default)]
pub(crate) struct Episodes {
    /// Per tool, the first call rejected since one of its calls was last forwarded: the
    /// original, its arguments as received.
    originals: HashMap<String, String>,
    /// Per tool, the calls made since its original.
    corrections: HashMap<String, u32>,
    /// Corrections made in the session.
    spent: u32,
    /// The actions forwarded, oldest first: their fingerprint, the call's id, and when.
    forwarded: VecDeque<(Fingerprint, String, Instant)>,
}

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
    /// Settings of the corrections and duplicate actions.
    pub fn with_meaning_options(mut self, options: MeaningOptions) -> Gate {
        self.meaning_options = options;
        self
    }

    /// Counts a call to `tool` made after its call was rejected, unless it is the retry
    /// that brings back a confirmation the gate asked for: true when the corrections are
    /// spent, and the call is not to be made.
    pub(crate) fn corrections_spent(&mut self, tool: &str, params: &Params<'_>) -> bool {
        if !self.episodes.originals.contains_key(tool) || self.brings_back_a_round(params) {
            return false;
        }
        let made = self.episodes.corrections.get(tool).copied().unwrap_or(0);
        let options = self.meaning_options;
        if made >= options.corrections_per_tool
            || self.episodes.spent >= options.corrections_per_session
        {
            return true;
        }
        self.episodes.corrections.insert(tool.to_owned(), made + 1);
        self.episodes.spent += 1;
        false
    }

    /// Whether the call of `params` is the retry that brings back a confirmation the gate
    /// asked for in the rounds of the 2026-07-28 revision: not a new attempt.
    fn brings_back_a_round(&self, params: &Params<'_>) -> bool {
        params
            .request_state
            .and_then(|raw| serde_json::from_str::<String>(raw.get()).ok())
            .is_some_and(|state| self.rounds.get(&state).is_some())
    }

    /// A call to `tool` with `arguments` (as received) was rejected: it is the original of
    /// the corrections that follow, unless one is kept already, when the tool's meaning is
    /// declared.
    pub(crate) fn rejected_original(&mut self, tool: &str, arguments: &str) {
        if self.tools.profile(tool).is_none() {
            return;
        }
        self.episodes
            .originals
            .entry(tool.to_owned())
            .or_insert_with(|| arguments.to_owned());
    }

    /// What the meaning of a call to `tool` with `arguments` (as judged, repaired perhaps)
    /// asks: a correction is compared with its original, and an action with those forwarded
    /// lately. What was found goes into `verdict`.
    pub(crate) fn weigh(&self, tool: &str, arguments: &Value, verdict: &mut CallVerdict) -> Ask {
        let Some(profile) = self.tools.profile(tool) else {
            return Ask::Nothing;
        };
        let semantic = SemanticGate::new();
        let mut found = serde_json::Map::new();
        let mut ask = Ask::Nothing;
        if let Some(original) = self.episodes.originals.get(tool) {
            let sent: Value = serde_json::from_str(original).unwrap_or(Value::Null);
            let review = semantic.compare(profile, &sent, arguments);
            found.insert(
                "correction".to_owned(),
                json!({
                    "original": original,
                    "decision": review.decision.as_str(),
                    "findings": review.concerns().map(|f| f.to_json()).collect::<Vec<_>>(),
                }),
            );
            ask = match review.decision {
                Decision::Proceed | Decision::ProceedAndReport => Ask::Nothing,
                Decision::Confirm => Ask::Confirm {
                    why: review.prompt(),
                    code: "confirmation_required",
                },
                Decision::Reject => Ask::Refuse {
                    code: "meaning_changed",
                    for_model: review.for_model(),
                },
            };
        }
        if profile.effect() != Effect::ReadOnly && !self.tools.is_idempotent(tool) {
            let fingerprint = semantic.fingerprint(profile, arguments);
            let window = self.meaning_options.duplicate_window;
            let earlier = self
                .episodes
                .forwarded
                .iter()
                .rev()
                .take_while(|(_, _, at)| at.elapsed() < window)
                .find(|(print, _, _)| *print == fingerprint);
            if let Some((_, id, at)) = earlier {
                let ago = at.elapsed().as_secs();
                found.insert(
                    "duplicate_of".to_owned(),
                    json!({"id": serde_json::from_str::<Value>(id).unwrap_or(Value::Null),
                           "seconds_ago": ago}),
                );
                if !matches!(ask, Ask::Refuse { .. }) {
                    ask = Ask::Confirm {
                        why: format!(
                            "The same call to {tool} was made {ago} s ago; making it again does it twice."
                        ),
                        code: "duplicate_action",
                    };
                }
            }
            found.insert(
                "fingerprint".to_owned(),
                Value::String(fingerprint.to_hex()),
            );
            verdict.fingerprint = Some(fingerprint);
        }
        if !found.is_empty() {
            verdict.meaning = Some(Value::Object(found));
        }
        ask
    }

    /// A call judged by `verdict`, with the id `id`, went on to the server: its tool's
    /// corrections are over, and its action is remembered.
    pub(crate) fn went_on(&mut self, id: &str, verdict: &CallVerdict) {
        self.episodes.originals.remove(&verdict.tool);
        self.episodes.corrections.remove(&verdict.tool);
        if let Some(fingerprint) = verdict.fingerprint {
            let forwarded = &mut self.episodes.forwarded;
            if forwarded.len() >= MAX_REMEMBERED {
                forwarded.pop_front();
            }
            forwarded.push_back((fingerprint, id.to_owned(), Instant::now()));
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
