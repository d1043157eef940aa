//! OpenAI Responses: tools are `{"type": "function", name, description, parameters, strict}`
//! (`strict` always written, since the API turns it on when it is left out); a call streams
//! as `response.output_item.added` of a `function_call`, then
//! `response.function_call_arguments.delta` and `.done`, and is logged as an `output[]` item
//! of type `function_call`, its arguments JSON text.

use serde_json::{Map, Value};

use super::openai_schema_rules;
use crate::provider::{
    arguments_of, name_of, request_tools, response_array, text_of, Fit, Form, LoggedCall, Names,
    ProviderDef,
};
use crate::stream::calls::{Key, ToolCallStreams, Update};

pub(crate) struct OpenAiResponses;

impl OpenAiResponses {
    pub(crate) const NAMES: Names = Names {
        dialect: "openai_responses",
        strict_dialect: Some("openai_responses_strict"),
        format: "openai-responses",
    };
}

impl ProviderDef for OpenAiResponses {
    openai_schema_rules!();

    /// `head` (name and description) with `parameters`, `strict` and its type.
    fn definition(&self, head: Map<String, Value>, parameters: Value, form: Form) -> Value {
        let mut function = super::function(head, parameters, form.strict);
        function.insert("type".to_owned(), Value::from("function"));
        Value::Object(function)
    }

    fn schema_paths(&self) -> &'static [&'static [&'static str]] {
        &[&["parameters"]]
    }

    /// An event whose type starts with `response.`.
    fn is_stream_event(&self, event: &Value) -> bool {
        text_of(event, "type").is_some_and(|kind| kind.starts_with("response."))
    }

    fn stream_event(
        &self,
        streams: &mut ToolCallStreams,
        event: &Value,
        updates: &mut Vec<Update>,
    ) {
        let Some(kind) = text_of(event, "type").filter(|kind| kind.starts_with("response.")) else {
            return;
        };
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

    fn logged_calls<'r>(&self, record: &'r Value) -> Option<Vec<LoggedCall<'r>>> {
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
    fn logged_definitions<'r>(&self, record: &'r Value) -> Vec<&'r Value> {
        request_tools(record)
            .iter()
            .filter(|t| text_of(t, "type") == Some("function"))
            .collect()
    }

    /// A response object, or any with `output` (which another provider's may have too).
    fn response_fit(&self, response: &Value) -> Fit {
        if text_of(response, "object") == Some("response") {
            Fit::Own
        } else if response.get("output").is_some() {
            Fit::Shared
        } else {
            Fit::Not
        }
    }

    fn request_fit(&self, request: &Value) -> Fit {
        Fit::own_if(request.get("input").is_some())
    }
}
