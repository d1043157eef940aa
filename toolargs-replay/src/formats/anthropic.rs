//! Anthropic Messages: `content[]` blocks of type `tool_use`, whose `input` is already
//! decoded. Definitions are the request's `tools` with an `input_schema` (server tools such as
//! web search have none).

use std::borrow::Cow;

use serde_json::Value;

use super::{name_of, request_only, request_tools, split, Args};

/// The calls of a record; `None` when it is not a Messages exchange.
pub(super) fn calls(record: &Value) -> Option<Vec<(Option<&str>, Option<Args<'_>>)>> {
    let content = match split(record).1.and_then(|r| r.get("content")) {
        Some(Value::Array(content)) => content,
        Some(_) => return None,
        None => return request_only(record).then(Vec::new),
    };
    Some(
        content
            .iter()
            .filter(|block| block.get("type").and_then(Value::as_str) == Some("tool_use"))
            .map(|block| {
                (
                    name_of(block.get("name")),
                    block.get("input").map(|v| Args::Value(Cow::Borrowed(v))),
                )
            })
            .collect(),
    )
}

/// The custom tools of the record's request.
pub(super) fn definitions(record: &Value) -> Vec<&Value> {
    request_tools(record)
        .iter()
        .filter(|t| t.get("input_schema").is_some())
        .collect()
}
