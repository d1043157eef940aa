//! OpenAI Responses: tools are `{"type": "function", name, description, parameters, strict}`
//! (`strict` always written, since the API turns it on when it is left out); a call streams
//! as `response.output_item.added` of a `function_call`, then
//! `response.function_call_arguments.delta` and `.done`, and is logged as an `output[]` item
//! of type `function_call`, its arguments JSON text.

use serde_json::{Map, Value};

use crate::provider::{
    arguments_of, name_of, request_tools, response_array, text_of, Home, LoggedCall,
};
use crate::stream::calls::{Key, ToolCallStreams, Update};

pub(crate) struct OpenAiResponses;

impl OpenAiResponses {
    /// The tool definition: `head` (name and description) with `parameters`, `strict` and its
    /// type.
    pub(crate) fn definition(head: Map<String, Value>, parameters: Value, strict: bool) -> Value {
        let mut function = super::function(head, parameters, strict);
        function.insert("type".to_owned(), Value::from("function"));
        Value::Object(function)
    }

    /// True when a stream event is one of the Responses API's.
    pub(crate) fn is_stream_event(kind: &str) -> bool {
        kind.starts_with("response.")
    }

    /// One Responses event of type `kind`.
    pub(crate) fn stream_event(
        streams: &mut ToolCallStreams,
        kind: &str,
        event: &Value,
        updates: &mut Vec<Update>,
    ) {
        if let Some(model) = event.pointer("/response/model").and_then(Value::as_str) {
            streams.set_model(model);
        }
        let item = event.get("item");
        let item_id = text_of(event, "item_id")
            .or_else(|| item.and_then(|i| text_of(i, "id")))
            .map(|id| Key::Item(id.to_owned()));
        let is_call = item.is_none_or(|i| text_of(i, "type") == Some("function_call"));
        let (Some(key), true) = (item_id, is_call) else {
            return;
        };
        match kind {
            "response.output_item.added" => {
                let item = item.unwrap_or(&Value::Null);
                let call = streams.start(
                    key,
                    text_of(item, "call_id"),
                    text_of(item, "name"),
                    updates,
                );
                if let Some(text) = text_of(item, "arguments") {
                    streams.append(call, text, updates);
                }
            }
            "response.function_call_arguments.delta" => {
                if let (Some(call), Some(text)) = (streams.open_call(&key), text_of(event, "delta"))
                {
                    streams.append(call, text, updates);
                }
            }
            "response.function_call_arguments.done" | "response.output_item.done" => {
                // The whole text comes again at the end; it is taken only when no piece came.
                let whole = text_of(event, "arguments")
                    .or_else(|| item.and_then(|i| text_of(i, "arguments")));
                streams.complete_with(&key, whole, updates);
            }
            _ => {}
        }
    }
}

impl Home for OpenAiResponses {
    const SCHEMA_MEMBERS: &'static [&'static str] = &["parameters"];

    fn logged_calls(record: &Value) -> Option<Vec<LoggedCall<'_>>> {
        let output = response_array(record, "output").ok()?;
        Some(
            output
                .into_iter()
                .flatten()
                .filter(|item| text_of(item, "type") == Some("function_call"))
                .map(|item| LoggedCall {
                    name: name_of(item.get("name")),
                    arguments: arguments_of(item.get("arguments")),
                })
                .collect(),
        )
    }

    /// The function tools of the request (built-in tools such as `web_search` have no
    /// parameters to check).
    fn logged_definitions(record: &Value) -> Vec<&Value> {
        request_tools(record)
            .iter()
            .filter(|t| text_of(t, "type") == Some("function"))
            .collect()
    }

    fn is_response(response: &Value) -> bool {
        response.get("output").is_some() || text_of(response, "object") == Some("response")
    }

    fn is_request(request: &Value) -> bool {
        request.get("input").is_some()
    }
}
