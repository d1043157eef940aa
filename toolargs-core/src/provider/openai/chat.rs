//! OpenAI Chat Completions: tools are `{"type": "function", "function": {name, description,
//! parameters, strict}}`; a call streams as `choices[].delta.tool_calls[]` pieces of a
//! `chat.completion.chunk` and is logged as `choices[].message.tool_calls[].function` (or the
//! older `message.function_call`), its arguments JSON text.

use serde_json::{Map, Value};

use super::openai_schema_rules;
use crate::provider::{
    arguments_of, name_of, request_tools, response_array, text_of, Fit, Form, LoggedCall, Names,
    ProviderDef,
};
use crate::stream::calls::{Key, ToolCallStreams, Update};

pub(crate) struct OpenAiChat;

impl OpenAiChat {
    pub(crate) const NAMES: Names = Names {
        dialect: "openai_chat",
        strict_dialect: Some("openai_chat_strict"),
        format: "openai-chat",
    };
}

impl ProviderDef for OpenAiChat {
    openai_schema_rules!();

    /// `head` (name and description) with `parameters` and `strict`, wrapped as a function
    /// tool.
    fn definition(&self, head: Map<String, Value>, parameters: Value, form: Form) -> Value {
        let mut tool = Map::new();
        tool.insert("type".to_owned(), Value::from("function"));
        tool.insert(
            "function".to_owned(),
            Value::Object(super::function(head, parameters, form.strict)),
        );
        Value::Object(tool)
    }

    fn wrapper(&self) -> Option<&'static str> {
        Some("function")
    }

    fn schema_paths(&self) -> &'static [&'static [&'static str]] {
        &[&["parameters"]]
    }

    /// A `chat.completion.chunk` (which has no `type`).
    fn is_stream_event(&self, event: &Value) -> bool {
        event.get("type").is_none() && text_of(event, "object") == Some("chat.completion.chunk")
    }

    /// One `chat.completion.chunk` (any event without a `type`): a piece with a new `index`
    /// starts a call, its `function.arguments` grow it, the choice's `finish_reason`
    /// completes its calls.
    fn stream_event(
        &self,
        streams: &mut ToolCallStreams,
        event: &Value,
        updates: &mut Vec<Update>,
    ) {
        if event.get("type").is_some() {
            return;
        }
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

    fn logged_calls<'r>(&self, record: &'r Value) -> Option<Vec<LoggedCall<'r>>> {
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

    fn logged_definitions<'r>(&self, record: &'r Value) -> Vec<&'r Value> {
        request_tools(record)
            .iter()
            .filter(|t| t.get("type").is_none_or(|t| t == "function"))
            .collect()
    }

    fn response_fit(&self, response: &Value) -> Fit {
        Fit::own_if(
            response.get("choices").is_some()
                || text_of(response, "object") == Some("chat.completion"),
        )
    }

    /// Any request with `messages`: other providers' requests have them too.
    fn request_fit(&self, request: &Value) -> Fit {
        if request.get("messages").is_some() {
            Fit::Shared
        } else {
            Fit::Not
        }
    }
}
