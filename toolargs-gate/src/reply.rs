//! What the gate answers the client itself: a rejected call's tool result, and JSON-RPC
//! errors.

use serde_json::{json, Value};
use toolargs_core::report::Rejection;

use crate::message::NotAMessage;

/// The result of a rejected `tools/call`: the model-facing errors as text and, when
/// `structured`, as `structuredContent`, with `isError: true` (an input error is a tool
/// result, not a JSON-RPC error). `id` is the request's id as written. `structured` is false
/// for a tool that declares an `outputSchema`: MCP holds any `structuredContent` of its results
/// to that schema, and clients check it (the TypeScript SDK's fails the call otherwise).
pub(crate) fn rejected(id: &str, rejection: &Rejection, shape: Shape) -> String {
    error_result(id, rejection.for_model(), rejection.to_model_json(), shape)
}

/// How the gate writes its own tool results for one call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    /// With the errors as `structuredContent` too (see [`rejected`]).
    pub structured: bool,
    /// With `resultType: "complete"`, which the 2026-07-28 revision requires of every result
    /// (and earlier ones do not know).
    pub tagged: bool,
}

/// The result of a call to a tool whose definition did not load, under `--unchecked block`.
pub(crate) fn blocked(id: &str, tool: &str, shape: Shape) -> String {
    refused(
        id,
        shape,
        "unchecked_tool",
        &format!("the definition of `{tool}` could not be checked, and calls to it are refused"),
    )
}

/// The result of a call to a tool the server does not list, even when the gate asked it.
pub(crate) fn unknown_tool(id: &str, tool: &str, shape: Shape) -> String {
    refused(
        id,
        shape,
        "unknown_tool",
        &format!("the server lists no tool named `{tool}`; the call was not made"),
    )
}

/// The result of a call to a tool the server's listing names more than once: the gate
/// cannot tell which definition the server would hold the call to.
pub(crate) fn duplicate_tool(id: &str, tool: &str, shape: Shape) -> String {
    refused(
        id,
        shape,
        "duplicate_tool",
        &format!("the server lists `{tool}` more than once, and calls to it are refused"),
    )
}

/// The result of a call to a tool held to a pin: `tool_changed` when its listed definition
/// is not the one pinned, `tool_unpinned` when it is not pinned. What changed is the
/// operator's to read (stderr, the verdict log), not the model's.
pub(crate) fn pin_refused(id: &str, tool: &str, code: &str, shape: Shape) -> String {
    let why = if code == "tool_changed" {
        format!("the server's definition of `{tool}` is not the one approved for it, and calls to it are refused until it is approved again; do not retry it")
    } else {
        format!("`{tool}` is not among the tools approved for this server, and calls to it are refused; do not retry it")
    };
    refused(id, shape, code, &why)
}

/// The result of a call the gate could not judge: it asked the server for its tools, and
/// `why` says what came back instead.
pub(crate) fn tools_unavailable(id: &str, tool: &str, why: &str, shape: Shape) -> String {
    refused(
        id,
        shape,
        "tools_unavailable",
        &format!("the call to `{tool}` was not made: the gate could not learn the server's tools ({why})"),
    )
}

/// The result of a call the user was asked to confirm and did not: `why` says what they
/// answered.
pub(crate) fn not_confirmed(id: &str, tool: &str, why: &str, shape: Shape) -> String {
    refused(
        id,
        shape,
        "not_confirmed",
        &format!("the call to `{tool}` was not made: {why}; do not retry it unless the user asks"),
    )
}

/// The result of a call that needs the user's confirmation when it cannot be asked for:
/// `why` says why not.
pub(crate) fn confirmation_unavailable(id: &str, tool: &str, why: &str, shape: Shape) -> String {
    refused(
        id,
        shape,
        "confirmation_unavailable",
        &format!(
            "calls to `{tool}` need the user's confirmation, and {why}; the call was not made"
        ),
    )
}

/// The most characters of a call's arguments a confirmation shows: enough for any call a
/// person reads, and a bound on what a client is asked to display.
const SHOWN_ARGUMENTS: usize = 4000;

/// The gate's own request asking the user to confirm a call to `tool` with `arguments` (the
/// JSON text that would be forwarded): an elicitation that asks for nothing but the answer.
/// `why`, when given, says why it is asked.
pub(crate) fn confirmation_request(
    id: &str,
    tool: &str,
    arguments: &str,
    why: Option<&str>,
) -> String {
    let params = confirmation_params(tool, arguments, why);
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"elicitation/create","params":{params}}}"#)
}

/// The answer to a call of the 2026-07-28 revision that needs the user's confirmation: an
/// `input_required` result whose one input request, under `key`, is the elicitation of
/// [`confirmation_request`], and whose `requestState` is `state`; the client asks the user
/// and retries the call with the answer and the state.
pub(crate) fn confirmation_round(
    id: &str,
    key: &str,
    state: &str,
    tool: &str,
    arguments: &str,
    why: Option<&str>,
) -> String {
    let result = json!({
        "resultType": "input_required",
        "inputRequests": {key: {
            "method": "elicitation/create",
            "params": confirmation_params(tool, arguments, why),
        }},
        "requestState": state,
    });
    self::result(id, result)
}

/// The params of the elicitation that asks the user to confirm a call, for `why` when given.
fn confirmation_params(tool: &str, arguments: &str, why: Option<&str>) -> Value {
    let shown = match arguments.char_indices().nth(SHOWN_ARGUMENTS) {
        Some((end, _)) => format!("{}… ({} bytes in all)", &arguments[..end], arguments.len()),
        None => arguments.to_owned(),
    };
    let why = why.map_or(String::new(), |why| format!("{why}\n"));
    json!({
        "message": format!("{why}Allow the call to `{tool}` with these arguments?\n{shown}"),
        "requestedSchema": {"type": "object", "properties": {}},
    })
}

/// The result of a call the gate refused for its meaning: `for_model`, the errors for the
/// model (JSON text of `{"ok": false, "errors": [...]}`).
pub(crate) fn meaning_refused(id: &str, for_model: &str, shape: Shape) -> String {
    let body: Value = serde_json::from_str(for_model).unwrap_or(Value::Null);
    error_result(id, for_model.to_owned(), body, shape)
}

/// A refused call's tool result: one error, `code` at the root, in the model-facing shape of
/// a rejection (`structured` as for [`rejected`]).
pub(crate) fn refused(id: &str, shape: Shape, code: &str, message: &str) -> String {
    let body = json!({"ok": false, "errors": [{
        "error": code,
        "path": "$",
        "message": message,
    }]});
    error_result(id, body.to_string(), body, shape)
}

/// An `isError` tool result: `text`, and `body` as `structuredContent` when `structured`.
fn error_result(id: &str, text: String, body: Value, shape: Shape) -> String {
    let mut content = json!({
        "content": [{"type": "text", "text": text}],
        "isError": true,
    });
    if shape.structured {
        content["structuredContent"] = body;
    }
    if shape.tagged {
        content["resultType"] = Value::from("complete");
    }
    result(id, content)
}

/// The error answering a line that is not a message.
pub(crate) fn parse_error(reason: &NotAMessage) -> String {
    error("null", reason.code, &reason.message)
}

/// The error answering a request the server ended without answering.
pub(crate) fn server_gone(id: &str) -> String {
    error(id, -32603, "the server ended before answering")
}

/// The error answering the client's message `line` (its id as written, or `null`) that
/// could not be forwarded: `why` says what failed.
pub(crate) fn not_forwarded(line: &str, why: &str) -> String {
    let message = crate::message::Message::read(line).ok();
    let id = message
        .and_then(|message| message.id)
        .map_or("null", |id| id.get());
    error(id, -32603, why)
}

fn result(id: &str, result: Value) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#)
}

/// A JSON-RPC error answering the request with `id` (as written).
pub(crate) fn error(id: &str, code: i64, message: &str) -> String {
    let error = json!({"code": code, "message": message});
    format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{error}}}"#)
}
