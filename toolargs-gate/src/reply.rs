//! What the gate answers the client itself: a rejected call's tool result, and JSON-RPC
//! errors.

use serde_json::{json, Value};
use toolargs_core::report::Rejection;

use crate::message::NotAMessage;

/// The result of a rejected `tools/call`: the model-facing errors as text and as
/// `structuredContent`, with `isError: true` (an input error is a tool result, not a
/// JSON-RPC error). `id` is the request's id as written.
pub(crate) fn rejected(id: &str, rejection: &Rejection) -> String {
    result(
        id,
        json!({
            "content": [{"type": "text", "text": rejection.for_model()}],
            "structuredContent": rejection.to_model_json(),
            "isError": true,
        }),
    )
}

/// The result of a call to a tool whose definition did not load, under `--unchecked block`.
pub(crate) fn blocked(id: &str, tool: &str) -> String {
    let body = json!({"ok": false, "errors": [{
        "error": "unchecked_tool",
        "path": "$",
        "message": format!("the definition of `{tool}` could not be checked, and calls to it are refused"),
    }]});
    result(
        id,
        json!({
            "content": [{"type": "text", "text": body.to_string()}],
            "structuredContent": body,
            "isError": true,
        }),
    )
}

/// The error answering a line that is not a message.
pub(crate) fn parse_error(reason: &NotAMessage) -> String {
    error("null", reason.code, &reason.message)
}

/// The error answering a request the server ended without answering.
pub(crate) fn server_gone(id: &str) -> String {
    error(id, -32603, "the server ended before answering")
}

fn result(id: &str, result: Value) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#)
}

fn error(id: &str, code: i64, message: &str) -> String {
    let error = json!({"code": code, "message": message});
    format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{error}}}"#)
}
