//! OpenAI Chat Completions: tools are `{"type": "function", "function": {name, description,
//! parameters, strict}}`; a call streams as `choices[].delta.tool_calls[]` pieces of a
//! `chat.completion.chunk` and is logged as `choices[].message.tool_calls[].function` (or the
//! older `message.function_call`), its arguments JSON text.

use serde_json::{Map, Value};

use crate::provider::{
    arguments_of, name_of, request_tools, response_array, text_of, Home, LoggedCall,
};
use crate::stream::calls::{Key, ToolCallStreams, Update};

pub(crate) struct OpenAiChat;

impl OpenAiChat {
    /// The tool definition: `head` (name and description) with `parameters` and `strict`,
    /// wrapped as a function tool.
    pub(crate) fn definition(head: Map<String, Value>, parameters: Value, strict: bool) -> Value {
        let mut tool = Map::new();
        tool.insert("type".to_owned(), Value::from("function"));
        tool.insert(
            "function".to_owned(),
            Value::Object(super::function(head, parameters, strict)),
        );
        Value::Object(tool)
    }

    /// True when a record without a `type` is a `chat.completion.chunk`.
    pub(crate) fn is_stream_event(record: &Value) -> bool {
        text_of(record, "object") == Some("chat.completion.chunk")
    }

    /// One `chat.completion.chunk`: a piece with a new `index` starts a call, its
    /// `function.arguments` grow it, the choice's `finish_reason` completes its calls.
    pub(crate) fn stream_event(
        streams: &mut ToolCallStreams,
        event: &Value,
        updates: &mut Vec<Update>,
    ) {
        let response = text_of(event, "id").unwrap_or_default().to_owned();
        let choices = event.get("choices").and_then(Value::as_array);
        for choice in choices.into_iter().flatten() {
            let index = choice.get("index").and_then(Value::as_u64).unwrap_or(0);
            let calls = choice
                .pointer("/delta/tool_calls")
                .and_then(Value::as_array);
            for piece in calls.into_iter().flatten() {
                let position = piece.get("index").and_then(Value::as_u64).unwrap_or(0);
                let function = piece.get("function");
                let key = Key::Chat(response.clone(), index, position);
                let name = function.and_then(|f| text_of(f, "name"));
                let call = streams.start(key, text_of(piece, "id"), name, updates);
                if let Some(text) = function.and_then(|f| text_of(f, "arguments")) {
                    streams.append(call, text, updates);
                }
            }
            if choice.get("finish_reason").is_some_and(|f| !f.is_null()) {
                streams.complete_where(
                    |key| matches!(key, Key::Chat(r, c, _) if *r == response && *c == index),
                    updates,
                );
            }
        }
    }
}

impl Home for OpenAiChat {
    const WRAPPER: Option<&'static str> = Some("function");
    const SCHEMA_MEMBERS: &'static [&'static str] = &["parameters"];

    fn logged_calls(record: &Value) -> Option<Vec<LoggedCall<'_>>> {
        let choices = response_array(record, "choices").ok()?;
        let mut calls = Vec::new();
        for choice in choices.into_iter().flatten() {
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
                calls.push(LoggedCall {
                    name: name_of(function.get("name")),
                    arguments: arguments_of(function.get("arguments")),
                });
            }
        }
        Some(calls)
    }

    fn logged_definitions(record: &Value) -> Vec<&Value> {
        request_tools(record)
            .iter()
            .filter(|t| t.get("type").is_none_or(|t| t == "function"))
            .collect()
    }

    fn is_response(response: &Value) -> bool {
        response.get("choices").is_some() || text_of(response, "object") == Some("chat.completion")
    }

    fn is_request(request: &Value) -> bool {
        request.get("messages").is_some()
    }
}
