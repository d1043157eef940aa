//! MCP JSON-RPC messages: a `tools/call` request is a call (`params.name`, `params.arguments`
//! decoded; the protocol lets a call without arguments leave them out, which reads as `{}`). A
//! `tools/list` result (`result.tools`) supplies definitions. Every other message is a record
//! without calls.

use std::borrow::Cow;

use serde_json::Value;

use super::{name_of, Args};

/// The calls of a message; `None` when it is not a JSON-RPC message.
pub(super) fn calls(record: &Value) -> Option<Vec<(Option<&str>, Option<Args<'_>>)>> {
    if record.get("jsonrpc").is_none() && record.get("method").is_none() {
        return None;
    }
    if record.get("method").and_then(Value::as_str) != Some("tools/call") {
        return Some(Vec::new());
    }
    let params = record.get("params");
    let arguments = match params.and_then(|p| p.get("arguments")) {
        None | Some(Value::Null) => Args::Value(Cow::Owned(Value::Object(Default::default()))),
        Some(Value::String(text)) => Args::Text(text),
        Some(value) => Args::Value(Cow::Borrowed(value)),
    };
    Some(vec![(
        name_of(params.and_then(|p| p.get("name"))),
        Some(arguments),
    )])
}

/// The tools of a `tools/list` result.
pub(super) fn definitions(record: &Value) -> Vec<&Value> {
    record
        .get("result")
        .and_then(|r| r.get("tools"))
        .and_then(Value::as_array)
        .map_or_else(Vec::new, |tools| tools.iter().collect())
}
