//! Anthropic Messages: tools are `{name, description, input_schema}` (server tools such as
//! web search have no `input_schema`); a call streams as a `tool_use` content block
//! (`content_block_start`, `input_json_delta` pieces, `content_block_stop`) and is logged as a
//! `content[]` block of type `tool_use`, its `input` already decoded.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::provider::{
    name_fits, name_of, request_tools, response_array, text_of, word_or_dash, Fit, Form,
    LoggedArguments, LoggedCall, Names, ProviderDef,
};
use crate::stream::calls::{Key, ToolCallStreams, Update};

pub(crate) struct Anthropic;

/// The events of a Messages stream.
const STREAM_EVENTS: &[&str] = &[
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
];

impl Anthropic {
    pub(crate) const NAMES: Names = Names {
        dialect: "anthropic",
        strict_dialect: None,
        format: "anthropic",
    };
}

impl ProviderDef for Anthropic {
    /// Names match `^[a-zA-Z0-9_-]{1,128}$`.
    fn name_refusal(&self, name: &str) -> Option<String> {
        (!name_fits(name, 128, word_or_dash))
            .then(|| "Anthropic takes names matching ^[a-zA-Z0-9_-]{1,128}$".to_owned())
    }

    /// A union or intersection of schemas at the root of `input_schema`.
    fn refuses_at_root(&self, keyword: &str) -> bool {
        matches!(keyword, "anyOf" | "oneOf" | "allOf")
    }

    /// `head` (name and description) with `input_schema`.
    fn definition(&self, mut head: Map<String, Value>, parameters: Value, _: Form) -> Value {
        head.insert("input_schema".to_owned(), parameters);
        Value::Object(head)
    }

    fn schema_paths(&self) -> &'static [&'static [&'static str]] {
        &[&["input_schema"]]
    }

    fn is_stream_event(&self, event: &Value) -> bool {
        text_of(event, "type").is_some_and(|kind| STREAM_EVENTS.contains(&kind))
    }

    fn stream_event(
        &self,
        streams: &mut ToolCallStreams,
        event: &Value,
        updates: &mut Vec<Update>,
    ) {
        let Some(kind) = text_of(event, "type") else {
            return;
        };
        let key = || Key::Block(event.get("index").and_then(Value::as_u64).unwrap_or(0));
        match kind {
            "message_start" => {
                // A new message: blocks are numbered again from zero.
                let mut ended = streams.end();
                updates.append(&mut ended);
                if let Some(model) = event.pointer("/message/model").and_then(Value::as_str) {
                    streams.set_model(model);
                }
            }
            "content_block_start" => {
                let Some(block) = event.get("content_block") else {
                    return;
                };
                if text_of(block, "type") == Some("tool_use") {
                    streams.start(key(), text_of(block, "id"), text_of(block, "name"), updates);
                }
            }
            "content_block_delta" => {
                let delta = event.get("delta");
                if delta.and_then(|d| text_of(d, "type")) != Some("input_json_delta") {
                    return;
                }
                let text = delta.and_then(|d| text_of(d, "partial_json"));
                if let (Some(call), Some(text)) = (streams.open_call(&key()), text) {
                    streams.append(call, text, updates);
                }
            }
            // A block with no piece of input has the input of its start, which is `{}`.
            "content_block_stop" => streams.complete_with(&key(), Some("{}"), updates),
            _ => {}
        }
    }

    fn logged_calls<'r>(&self, record: &'r Value) -> Option<Vec<LoggedCall<'r>>> {
        let content = response_array(record, "content").ok()?;
        Some(
            content
                .into_iter()
                .flatten()
                .filter(|block| text_of(block, "type") == Some("tool_use"))
                .map(|block| LoggedCall {
                    name: name_of(block.get("name")),
                    arguments: block
                        .get("input")
                        .map(|v| LoggedArguments::Value(Cow::Borrowed(v))),
                })
                .collect(),
        )
    }

    /// The custom tools of the request (server tools have no schema to check).
    fn logged_definitions<'r>(&self, record: &'r Value) -> Vec<&'r Value> {
        request_tools(record)
            .iter()
            .filter(|t| t.get("input_schema").is_some())
            .collect()
    }

    fn response_fit(&self, response: &Value) -> Fit {
        Fit::own_if(
            response.get("content").is_some_and(Value::is_array)
                || text_of(response, "type") == Some("message"),
        )
    }

    fn request_fit(&self, request: &Value) -> Fit {
        let tools = request.get("tools").and_then(Value::as_array);
        Fit::own_if(
            request.get("max_tokens").is_some() && request.get("system").is_some()
                || tools.is_some_and(|t| t.iter().any(|t| t.get("input_schema").is_some())),
        )
    }
}
