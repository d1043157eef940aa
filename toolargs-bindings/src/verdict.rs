//! The verdict on one call as data, as both packages hand it out: accepted (the arguments, as
//! sent or repaired, and the repairs) or rejected (every error), the text for the model, and
//! within a session what the call's meaning decides (the decision, the findings, what the
//! model is told of a call refused or held).

use std::borrow::Cow;

use serde_json::Value;
use toolargs_core::{Parsed, Rejection};
use toolargs_semantic::{Decision, Judged};

/// The verdict on one call.
#[derive(Debug)]
pub struct Verdict {
    /// The schema's verdict; `None` for a call a session refused unjudged.
    pub parsed: Option<Result<Parsed<Value>, Rejection>>,
    /// What a session made of the call, for a tool whose meaning is declared.
    pub meaning: Option<Meaning>,
}

/// A session's word on a call to a tool whose meaning is declared.
#[derive(Debug)]
pub struct Meaning {
    /// What to do with the call.
    pub decision: Decision,
    /// What the session found of the call's meaning: objects with `path`, `verdict` and `code`.
    pub findings: Vec<Value>,
    /// The text for the model (`{"ok":false,"errors":[...]}`) of a call not to run for its
    /// meaning.
    pub refused: Option<String>,
    /// What the model is told (the same shape) of a call held for confirmation, when it is not
    /// made.
    pub held: Option<String>,
    /// The ticket of a call that passed, in a session that keeps them
    /// ([`Session::with_tickets`](crate::Session::with_tickets)); 0 otherwise.
    pub ticket: u32,
}

/// One reason a call was rejected: where, its stable code, and a message for the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// The JSON path of the value at fault (`$` for the whole call).
    pub path: String,
    /// The code's stable name (`out_of_range`).
    pub code: Cow<'static, str>,
    /// What is wrong, written for the model.
    pub message: String,
}

/// What a verdict accepted says to the model.
const ACCEPTED: &str = r#"{"ok":true}"#;

impl Verdict {
    /// The schema's verdict, outside a session (or for a tool whose meaning is not declared).
    pub fn of(parsed: Result<Parsed<Value>, Rejection>) -> Verdict {
        Verdict {
            parsed: Some(parsed),
            meaning: None,
        }
    }

    /// A call judged within a session: a call rejected for its meaning is not accepted, one
    /// to confirm is (the caller asks).
    pub fn judged(judged: Judged) -> Verdict {
        let decision = judged.decision();
        let findings = judged.findings();
        let refused = judged.meaning_errors();
        let held = match (&judged.weighing, decision) {
            (Some(weighing), Decision::Confirm) => Some(weighing.for_model()),
            _ => None,
        };
        Verdict {
            parsed: judged.parsed,
            meaning: Some(Meaning {
                decision,
                findings,
                refused,
                held,
                ticket: 0,
            }),
        }
    }

    /// The text for the model of a call a session refused for its meaning.
    pub fn refused(&self) -> Option<&str> {
        self.meaning.as_ref()?.refused.as_deref()
    }

    /// The schema's accepted call, unless the session refused it.
    pub fn accepted(&self) -> Option<&Parsed<Value>> {
        if self.refused().is_some() {
            return None;
        }
        match &self.parsed {
            Some(Ok(parsed)) => Some(parsed),
            _ => None,
        }
    }

    /// Every error, in the order found: the session's when it refused the call for its
    /// meaning; empty when accepted.
    pub fn errors(&self) -> Vec<Error> {
        if let Some(refused) = self.refused() {
            return meaning_errors(refused);
        }
        match &self.parsed {
            Some(Err(rejection)) => rejection
                .errors()
                .iter()
                .map(|e| Error {
                    path: e.path.clone(),
                    code: Cow::Borrowed(e.code.as_str()),
                    message: e.message.clone(),
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The tool result to send back to the model: `{"ok":false,"errors":[...]}` when rejected,
    /// and for a call a session holds for confirmation what to tell the model when it is not
    /// made; `{"ok":true}` otherwise.
    pub fn for_model(&self) -> String {
        if let Some(text) = self
            .meaning
            .as_ref()
            .and_then(|m| m.refused.as_ref().or(m.held.as_ref()))
        {
            return text.clone();
        }
        match &self.parsed {
            Some(Err(rejection)) => rejection.for_model(),
            _ => ACCEPTED.to_owned(),
        }
    }

    /// What to do with the call: within a session, for a tool whose meaning is declared, the
    /// session's decision; otherwise the schema's verdict: proceed or reject.
    pub fn decision(&self) -> Decision {
        match (&self.meaning, &self.parsed) {
            (Some(meaning), _) => meaning.decision,
            (None, Some(Ok(_))) => Decision::Proceed,
            (None, _) => Decision::Reject,
        }
    }

    /// What the session found of the call's meaning; empty outside a session.
    pub fn findings(&self) -> &[Value] {
        self.meaning.as_ref().map_or(&[], |m| &m.findings)
    }
}

/// The errors of a session's refusal, from its text for the model (`error` there is an
/// error's code).
fn meaning_errors(refused: &str) -> Vec<Error> {
    let body: Value = serde_json::from_str(refused).unwrap_or(Value::Null);
    let text = |error: &Value, key: &str| {
        error
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    body.get("errors")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|error| Error {
            path: text(error, "path"),
            code: Cow::Owned(text(error, "error")),
            message: text(error, "message"),
        })
        .collect()
}
