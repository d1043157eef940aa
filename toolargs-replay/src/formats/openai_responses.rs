//! OpenAI Responses: `output[]` items of type `function_call` (`name`, `arguments` as JSON
//! text, `call_id`). Definitions are the request's `tools` of type `function`.

use serde_json::Value;

use super::{args_of, name_of, request_only, request_tools, split, Args};

/// The calls of a record; `None` when it is not a Responses exchange.
pub(super) fn calls(record: &Value) -> Option<Vec<(Option<&str>, Option<Args<'_>>)>> {
    let output = match split(record).1.and_then(|r| r.get("output")) {
        Some(Value::Array(output)) => output,
        Some(_) => return None,
        None => return request_only(record).then(Vec::new),
    };
    Some(
        output
            .iter()
            .filter(|item| item.get("type").and_then(Value::as_str) == Some("function_call"))
            .map(|item| (name_of(item.get("name")), args_of(item.get("arguments"))))
            .collect(),
    )
}

/// The function tools of the record's request (built-in tools such as `web_search` have no
/// parameters to check).
pub(super) fn definitions(record: &Value) -> Vec<&Value> {
    request_tools(record)
        .iter()
        .filter(|t| t.get("type").and_then(Value::as_str) == Some("function"))
        .collect()
}
