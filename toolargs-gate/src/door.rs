//! The rule at the door: every message from the client is judged, answered by the gate, or
//! refused. A message the gate cannot read one way only (a member written twice, a string
//! that is not Unicode) is refused whatever its method, and a `tools/call` the gate cannot
//! judge (no id, a `null` id, params that are not an object, no tool name) is refused rather
//! than forwarded: a server may still run it. Each refusal is a verdict, for the log.

use toolargs_core::json::skim;

use crate::message::{self, Message, NotAMessage, Params};
use crate::{reply, CallVerdict, Gate, Handled, Outcome, Route};

/// Why the gate refuses a message, and how it answers.
#[derive(Debug)]
pub(crate) struct Refusal {
    /// The verdict's code: `invalid_json`, `invalid_request`, `invalid_params`,
    /// `duplicate_key`, `invalid_unicode`.
    pub code: &'static str,
    /// The JSON-RPC error code of the answer.
    pub rpc: i64,
    /// What the client is told.
    pub message: String,
    /// Where in the message, as a JSON path.
    pub path: String,
}

impl Refusal {
    fn new(code: &'static str, rpc: i64, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            rpc,
            message: message.into(),
            path: "$".to_owned(),
        }
    }
}

/// A `tools/call` the gate can judge: its id (as written) and params.
pub(crate) struct Call<'m> {
    pub id: &'m str,
    pub params: Params<'m>,
    pub name: String,
}

/// Reads the envelope of `message`, a `tools/call` read with certainty: what is needed to
/// judge it, or why it cannot be.
pub(crate) fn call<'m>(message: &Message<'m>) -> Result<Call<'m>, Refusal> {
    let Some(id) = message.id else {
        let what = if message.has_id {
            "a `tools/call` with a null id is not a request the gate forwards"
        } else {
            "a `tools/call` sent as a notification is not made: a call needs an id"
        };
        return Err(Refusal::new("invalid_request", -32600, what));
    };
    if !usable_id(id.get()) {
        let why = "the id of a `tools/call` is a string or a number";
        return Err(Refusal::new("invalid_request", -32600, why));
    }
    let Some(params) = message.params() else {
        let why = "the params of a `tools/call` are an object with the tool's `name`";
        return Err(Refusal::new("invalid_params", -32602, why));
    };
    let Some(name) = params.name.clone() else {
        let why = "the params of a `tools/call` name the tool in a string `name`";
        return Err(Refusal::new("invalid_params", -32602, why));
    };
    Ok(Call {
        id: id.get(),
        params,
        name,
    })
}

/// Whether `id` (as written) is a JSON-RPC id, a string or a number, that reads one way only.
fn usable_id(id: &str) -> bool {
    matches!(id.as_bytes().first(), Some(b'"' | b'-' | b'0'..=b'9'))
        && skim::skip_strict(id, 0, 0).is_some()
}

impl From<message::Doubt> for Refusal {
    fn from(doubt: message::Doubt) -> Refusal {
        Refusal {
            code: doubt.code,
            rpc: -32600,
            message: doubt.message(),
            path: doubt.path,
        }
    }
}

impl From<NotAMessage> for Refusal {
    fn from(reason: NotAMessage) -> Refusal {
        let code = if reason.code == -32700 {
            "invalid_json"
        } else {
            "invalid_request"
        };
        Refusal::new(code, reason.code, reason.message)
    }
}

impl Gate {
    /// Refuses the message `line` for a reason of the transport's: `code` in the verdict,
    /// `rpc` and `why` in the answer.
    pub(crate) fn refuse_line(
        &mut self,
        line: &str,
        code: &'static str,
        rpc: i64,
        why: String,
    ) -> Handled {
        let refusal = Refusal::new(code, rpc, why);
        match Message::read(line) {
            Ok(message) => self.refuse_message(Some(&message), refusal),
            Err(reason) => self.refuse_message(None, reason.into()),
        }
    }

    /// Refuses `message` (`None` for a line that is not one) for `refusal`: a request gets a
    /// JSON-RPC error with its id (`null` when the id is not certain), a notification or a
    /// response nothing; it never reaches the server.
    pub(crate) fn refuse_message(
        &mut self,
        message: Option<&Message<'_>>,
        refusal: Refusal,
    ) -> Handled {
        let request = message.is_some_and(|m| m.method.is_some() && m.has_id);
        // The id as written, when it is one a client can match: a string or a number, read
        // one way only.
        let id = message
            .and_then(|m| m.id)
            .map(|id| id.get())
            .filter(|id| usable_id(id) && refusal.path != "$.id")
            .unwrap_or("null");
        // A line that is not a message is answered as JSON-RPC says, with a null id.
        let routes = if request || message.is_none() {
            vec![Route::ToClient(reply::error(
                id,
                refusal.rpc,
                &refusal.message,
            ))]
        } else {
            Vec::new()
        };
        let params = message.and_then(Message::params);
        let tool = params
            .as_ref()
            .and_then(|p| p.name.clone())
            .unwrap_or_default();
        let verdict = CallVerdict {
            listed: self.tools.get(&tool).is_some(),
            tool,
            method: message.and_then(|m| m.method.clone()).unwrap_or_default(),
            outcome: Outcome::Refused,
            codes: vec![refusal.code.to_owned()],
            rules: Vec::new(),
            paths: vec![refusal.path],
            arguments: params
                .and_then(|p| p.arguments)
                .map_or("", |raw| raw.get())
                .to_owned(),
            confirmed: false,
            held: false,
            meaning: None,
            fingerprint: None,
            changed: None,
        };
        Handled {
            routes,
            verdict: Some(verdict),
            listing: false,
        }
    }
}
