//! OpenAI Chat Completions: `choices[].message.tool_calls[]` of type `function`, arguments as
//! JSON text (`function.arguments`); the older `message.function_call` too. Definitions are
//! the request's `tools` (`{"type": "function", "function": {...}}`).

use serde_json::Value;

use super::{args_of, name_of, request_only, request_tools, split, Args};

/// The calls of a record; `None` when it is not a chat completion exchange.
pub(super) fn calls(record: &Value) -> Option<Vec<(Option<&str>, Option<Args<'_>>)>> {
    let choices = match split(record).1.and_then(|r| r.get("choices")) {
        Some(Value::Array(choices)) => choices,
        Some(_) => return None,
        None => return request_only(record).then(Vec::new),
    };
    let mut calls = Vec::new();
    for choice in choices {
        let Some(message) = choice.get("message") else {
            continue;
        };
        let legacy = message.get("function_call").into_iter();
        let listed = message
            .get("tool_calls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|c| c.get("type").is_none_or(|t| t == "function"))
            .filter_map(|c| c.get("function"));
        for function in legacy.chain(listed) {
            calls.push((
                name_of(function.get("name")),
                args_of(function.get("arguments")),
            ));
        }
    }
    Some(calls)
}

/// The function tools of the record's request.
pub(super) fn definitions(record: &Value) -> Vec<&Value> {
    request_tools(record)
        .iter()
        .filter(|t| t.get("type").is_none_or(|t| t == "function"))
        .collect()
}
