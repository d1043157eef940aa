//! A session: one conversation's calls, each to the spec given with it (the wrapper finds a
//! set's tools by name), judged by its schema and then, for a tool whose meaning is declared,
//! by [`toolargs_semantic::Session`], which decides.

use std::time::Duration;

use serde_json::Value;
use toolargs_bindings::session::Sent;
use toolargs_core::Rejection;
use toolargs_semantic::{Decision, SessionOptions};
use wasm_bindgen::prelude::*;

use crate::convert::{Kind, Verdict};
use crate::spec::{Failure, Spec};
use crate::{convert, io};

/// The options of a session, each given one laid over the defaults: the corrections, whole
/// numbers from 0 to 2^32 - 1, and the duplicate window in milliseconds, finite and not
/// negative. Anything else is an option failure (a `RangeError`) naming it.
fn options(
    corrections_per_tool: Option<f64>,
    corrections_per_session: Option<f64>,
    duplicate_window_ms: Option<f64>,
) -> Result<SessionOptions, Failure> {
    toolargs_bindings::session::options(
        (
            corrections_per_tool,
            corrections_per_session,
            duplicate_window_ms,
        ),
        ["correctionsPerTool", "correctionsPerSession"],
        count_of,
        window_of,
    )
}

/// The duplicate window, from milliseconds: finite and not negative.
fn window_of(ms: f64) -> Result<Duration, Failure> {
    (ms >= 0.0)
        .then(|| Duration::try_from_secs_f64(ms / 1000.0).ok())
        .flatten()
        .ok_or_else(|| {
            Failure::option(format!(
                "duplicateWindowMs must be a finite number of milliseconds, 0 or more, not {}",
                shown(ms)
            ))
        })
}

/// A count of corrections: a whole number from 0 to 2^32 - 1.
fn count_of(count: f64, what: &str) -> Result<u32, Failure> {
    if count.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&count) {
        // Whole and in range: exact.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        return Ok(count as u32);
    }
    Err(Failure::option(format!(
        "{what} must be a whole number from 0 to {}, not {}",
        u32::MAX,
        shown(count)
    )))
}

/// A number as JavaScript writes it, for a message: `Infinity` rather than Rust's `inf`.
fn shown(n: f64) -> String {
    match n {
        f64::INFINITY => "Infinity".to_owned(),
        f64::NEG_INFINITY => "-Infinity".to_owned(),
        _ => n.to_string(),
    }
}

/// One conversation's calls, to the specs given with them, told apart by their names: each
/// judged by its schema, then, for a tool whose meaning is declared, by
/// [`toolargs_semantic::Session`], which decides. What a judgment gives beside its verdict
/// (kept for the wrapper, as a parse's) is read from the session right after: the decision,
/// the findings, what the model is told of a call held, and a ticket.
#[wasm_bindgen]
pub struct Session {
    session: toolargs_bindings::Session,
    last: Last,
}

/// What the last call judged gives beside its verdict.
struct Last {
    decision: Decision,
    /// The findings as a JSON array; `None` for none.
    findings: Option<String>,
    /// What the model is told of a call held for a confirmation.
    held: Option<String>,
    /// The ticket of a call that passed, for a tool whose meaning is declared; 0 otherwise.
    ticket: u32,
}

impl Session {
    /// Judges a call to `tool` sent as `sent` (a JavaScript value that is not JSON as its
    /// rejection); `places` says the bytes are the wrapper's ASCII string, so that a tape may
    /// point into it.
    fn judge_call(&mut self, tool: &Spec, sent: Result<&[u8], Rejection>, places: bool) -> Verdict {
        if tool.tool.profile.is_none() {
            // Nothing declared: the schema's verdict decides, as a parse's.
            let verdict = match sent {
                Ok(bytes) => tool.verdict(bytes, places),
                Err(rejection) => convert::rejected(&rejection),
            };
            let decision = match verdict.kind {
                Kind::Rejected => Decision::Reject,
                _ => Decision::Proceed,
            };
            self.last = Last::of(decision);
            return verdict;
        }
        // About how long the arguments' text is, to make room for the verdict at once.
        let size = sent.as_ref().map_or(4, |bytes| bytes.len());
        let sent = match sent {
            Ok(bytes) => Sent::Bytes(bytes),
            Err(rejection) => Sent::NotJson(rejection),
        };
        let judged = self.session.judge(&tool.tool, sent);
        let decision = judged.decision();
        let toolargs_bindings::Verdict { parsed, meaning } = judged;
        let refused = match meaning {
            Some(meaning) => {
                self.last = Last {
                    decision: meaning.decision,
                    findings: (!meaning.findings.is_empty())
                        .then(|| Value::Array(meaning.findings).to_string()),
                    held: meaning.held,
                    ticket: meaning.ticket,
                };
                meaning.refused
            }
            None => {
                self.last = Last::of(decision);
                None
            }
        };
        match (refused, &parsed) {
            // Not to run for its meaning: rejected, with the errors for the model.
            (Some(errors), _) => Verdict {
                kind: Kind::Rejected,
                bytes: errors.into_bytes(),
            },
            (None, Some(parsed)) => convert::verdict(parsed, size),
            // Refused unjudged: `refused` says so (never here).
            (None, None) => Verdict {
                kind: Kind::Rejected,
                bytes: br#"{"ok":false,"errors":[]}"#.to_vec(),
            },
        }
    }
}

impl Last {
    fn of(decision: Decision) -> Last {
        Last {
            decision,
            findings: None,
            held: None,
            ticket: 0,
        }
    }
}

#[wasm_bindgen]
impl Session {
    /// A session with the options given (read by `options`) over the defaults.
    #[wasm_bindgen(constructor)]
    pub fn new(
        corrections_per_tool: Option<f64>,
        corrections_per_session: Option<f64>,
        duplicate_window_ms: Option<f64>,
    ) -> Result<Session, Failure> {
        let options = options(
            corrections_per_tool,
            corrections_per_session,
            duplicate_window_ms,
        )?;
        Ok(Session {
            session: toolargs_bindings::Session::new(options).with_tickets(),
            last: Last::of(Decision::Proceed),
        })
    }

    /// Judges a call to the tool `spec` with the arguments `bytes` (as sent; UTF-8 or not); the
    /// verdict is kept for the wrapper to read ([`io::emit`]).
    pub fn judge(&mut self, spec: &Spec, bytes: &[u8]) -> u32 {
        io::emit(self.judge_call(spec, Ok(bytes), false))
    }

    /// [`Session::judge`] of the `len` bytes the wrapper wrote at
    /// [`input_buffer`](crate::input_buffer), ASCII when `ascii` says so (then a tape may point
    /// into the wrapper's string, as [`Spec::parse_input`]'s).
    #[wasm_bindgen(js_name = judgeInput)]
    pub fn judge_input(&mut self, spec: &Spec, len: usize, ascii: bool) -> u32 {
        io::with_input(len, |bytes| self.judge_call(spec, Ok(bytes), ascii))
    }

    /// Judges a call to the tool `spec` whose arguments are a JavaScript value that is not
    /// JSON (`invalid_json` at the path `steps`, a JSON array, where `what` was found).
    #[wasm_bindgen(js_name = judgeNotJson)]
    pub fn judge_not_json(&mut self, spec: &Spec, steps: &str, what: &str) -> u32 {
        io::emit(self.judge_call(spec, Err(convert::not_json(steps, what)), false))
    }

    /// The last call's decision: 0 `proceed`, 1 `proceed_and_report`, 2 `confirm`, 3 `reject`.
    #[wasm_bindgen(getter)]
    pub fn decision(&self) -> u8 {
        match self.last.decision {
            Decision::Proceed => 0,
            Decision::ProceedAndReport => 1,
            Decision::Confirm => 2,
            Decision::Reject => 3,
        }
    }

    /// The last call's findings, as a JSON array of objects with `path`, `verdict` and `code`;
    /// `undefined` for none.
    #[wasm_bindgen(getter)]
    pub fn findings(&self) -> Option<String> {
        self.last.findings.clone()
    }

    /// What the model is told of the last call, held for a person's confirmation (`confirm`),
    /// when it does not run: `{"ok":false,"errors":[...]}` with its code (`duplicate_action`,
    /// `confirmation_required`); `undefined` for any other decision.
    #[wasm_bindgen(getter)]
    pub fn held(&self) -> Option<String> {
        self.last.held.clone()
    }

    /// The ticket of the last call, when it passed and its tool's meaning is declared: what
    /// [`Session::executed_ticket`] records it by; 0 otherwise.
    #[wasm_bindgen(getter)]
    pub fn ticket(&self) -> u32 {
        self.last.ticket
    }

    /// A call to the tool `spec` with the arguments `bytes` ran, under `label`: the tool's
    /// corrections are over, and its action is remembered. The arguments are taken as the
    /// tool's schema reads them (repaired), when it accepts them.
    pub fn executed(&mut self, spec: &Spec, bytes: &[u8], label: &str) {
        self.session.executed_bytes(&spec.tool, bytes, label);
    }

    /// The call judged under `ticket` ran, with the arguments it was judged with, under
    /// `label`: recorded as [`Session::executed`] records it, with the fingerprint its
    /// judgment computed. False when the ticket is not kept (recorded already, or forgotten).
    #[wasm_bindgen(js_name = executedTicket)]
    pub fn executed_ticket(&mut self, ticket: u32, label: &str) -> bool {
        self.session.executed_ticket(ticket, label)
    }
}
