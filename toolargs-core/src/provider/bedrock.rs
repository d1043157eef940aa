//! Amazon Bedrock's Converse API: a tool is `{"toolSpec": {name, description, inputSchema:
//! {"json": schema}}}` in a request's `toolConfig.tools`; a call is logged as a `toolUse`
//! block (`{"toolUse": {toolUseId, name, input}}`, `input` decoded) of the response's
//! `output.message.content`, and streams (ConverseStream) as a `contentBlockStart` whose
//! `start.toolUse` names it, `contentBlockDelta`s whose `delta.toolUse.input` are pieces of its
//! JSON text, and a `contentBlockStop`, each keyed by its `contentBlockIndex` within the
//! message. Stream events are read as the AWS SDKs hand them over, one member named by the
//! event's type: `{"contentBlockDelta": {"delta": ..., "contentBlockIndex": 1}}`.
//!
//! What AWS states of a tool (the API reference of the Bedrock runtime,
//! <https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html>
//! and `API_runtime_ToolInputSchema.html`): its `name` is 1 to 64 characters matching
//! `[a-zA-Z0-9_-]+`; its `description`, when given, at least 1 character; its `inputSchema`
//! a union whose `json` member is a JSON Schema, and "the top level schema type must be
//! object". The schema is taken as JSON Schema: every keyword is kept.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::provider::{
    name_fits, name_of, request_only, split, text_of, word_or_dash, Fit, Form, LoggedArguments,
    LoggedCall, Names, ProviderDef,
};
use crate::stream::calls::{Key, ToolCallStreams, Update};

pub(crate) struct BedrockConverse;

impl BedrockConverse {
    pub(crate) const NAMES: Names = Names {
        dialect: "bedrock_converse",
        strict_dialect: None,
        format: "bedrock",
    };
}

/// The events of a ConverseStream, each the one member of what an SDK hands over.
const STREAM_EVENTS: &[&str] = &[
    "messageStart",
    "contentBlockStart",
    "contentBlockDelta",
    "contentBlockStop",
    "messageStop",
    "metadata",
];

/// The event a ConverseStream record is (its type and its body): an object of one member,
/// named by one of [`STREAM_EVENTS`], whose value is an object.
fn stream_event_of(record: &Value) -> Option<(&str, &Value)> {
    let object = record.as_object()?;
    let (kind, body) = object.iter().next()?;
    let one = object.len() == 1 && body.is_object();
    (one && STREAM_EVENTS.contains(&kind.as_str())).then_some((kind.as_str(), body))
}

/// The `toolUse` members of the content blocks of a message.
fn tool_uses(content: &[Value]) -> impl Iterator<Item = &Value> {
    content.iter().filter_map(|block| block.get("toolUse"))
}

impl ProviderDef for BedrockConverse {
    /// The name is 1 to 64 letters, digits, `_` and `-`.
    fn name_refusal(&self, name: &str) -> Option<String> {
        (!name_fits(name, 64, word_or_dash))
            .then(|| "Bedrock takes names matching ^[a-zA-Z0-9_-]{1,64}$".to_owned())
    }

    /// The top level of the schema must be of type `object` (a root that says no type is
    /// shown as one; one that says another, or that a reference to the root keeps untyped,
    /// cannot be).
    fn schema_refusal(&self, parameters: &Value) -> Option<String> {
        (parameters.get("type") != Some(&Value::from("object")))
            .then(|| "Bedrock takes a schema whose top level is of type `object`".to_owned())
    }

    /// `{"toolSpec": {name, description, inputSchema: {"json": parameters}}}`; an empty
    /// description, which Bedrock refuses, is left out.
    fn definition(&self, mut head: Map<String, Value>, parameters: Value, _: Form) -> Value {
        if head.get("description").and_then(Value::as_str) == Some("") {
            head.shift_remove("description");
        }
        let mut schema = Map::new();
        schema.insert("json".to_owned(), parameters);
        head.insert("inputSchema".to_owned(), Value::Object(schema));
        let mut tool = Map::new();
        tool.insert("toolSpec".to_owned(), Value::Object(head));
        Value::Object(tool)
    }

    fn wrapper(&self) -> Option<&'static str> {
        Some("toolSpec")
    }

    fn schema_paths(&self) -> &'static [&'static [&'static str]] {
        &[&["inputSchema", "json"]]
    }

    fn is_stream_event(&self, event: &Value) -> bool {
        stream_event_of(event).is_some()
    }

    fn stream_event(
        &self,
        streams: &mut ToolCallStreams,
        event: &Value,
        updates: &mut Vec<Update>,
    ) {
        let Some((kind, body)) = stream_event_of(event) else {
            return;
        };
        let index = body.get("contentBlockIndex").and_then(Value::as_u64);
        let key = || Key::Block(index.unwrap_or(0));
        match kind {
            // A new message: blocks are numbered again from zero.
            "messageStart" => {
                let mut ended = streams.end();
                updates.append(&mut ended);
            }
            "contentBlockStart" => {
                if let Some(tool) = body.pointer("/start/toolUse") {
                    let (id, name) = (text_of(tool, "toolUseId"), text_of(tool, "name"));
                    streams.start(key(), id, name, updates);
                }
            }
            "contentBlockDelta" => {
                let text = body.pointer("/delta/toolUse/input").and_then(Value::as_str);
                if let (Some(call), Some(text)) = (streams.open_call(&key()), text) {
                    streams.append(call, text, updates);
                }
            }
            // A tool use that got no piece of input takes none: `{}`.
            "contentBlockStop" => streams.complete_with(&key(), Some("{}"), updates),
            _ => {}
        }
    }

    /// The `toolUse` blocks of the response's `output.message.content`.
    fn logged_calls<'r>(&self, record: &'r Value) -> Option<Vec<LoggedCall<'r>>> {
        let Some(output) = split(record).1.and_then(|r| r.get("output")) else {
            return request_only(record).then(Vec::new);
        };
        let content = output.pointer("/message/content")?.as_array()?;
        let calls = tool_uses(content).map(|call| LoggedCall {
            name: name_of(call.get("name")),
            arguments: call
                .get("input")
                .map(|input| LoggedArguments::Value(Cow::Borrowed(input))),
        });
        Some(calls.collect())
    }

    /// The tools of the request's `toolConfig` that have a `toolSpec` (not a `cachePoint`).
    fn logged_definitions<'r>(&self, record: &'r Value) -> Vec<&'r Value> {
        let request = split(record).0.unwrap_or(record);
        let tools = request
            .pointer("/toolConfig/tools")
            .and_then(Value::as_array);
        let with_spec = |tool: &&Value| tool.get("toolSpec").is_some_and(Value::is_object);
        tools.into_iter().flatten().filter(with_spec).collect()
    }

    /// An `output` that is an object holding a `message` (OpenAI Responses' is an array).
    fn response_fit(&self, response: &Value) -> Fit {
        let output = response.get("output");
        Fit::own_if(output.is_some_and(|o| o.get("message").is_some_and(Value::is_object)))
    }

    /// A request with a `toolConfig` or an `inferenceConfig`.
    fn request_fit(&self, request: &Value) -> Fit {
        Fit::own_if(
            ["toolConfig", "inferenceConfig"]
                .iter()
                .any(|k| request.get(k).is_some()),
        )
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::dialect::{lower, Dialect};
    use crate::provider::Provider;
    use crate::stream::provider::{is_stream_event, ToolCallStreams, Update};
    use crate::Effect;

    const DIALECT: Dialect = Dialect::BedrockConverse;

    fn record() -> Value {
        json!({
            "request": {
                "modelId": "anthropic.claude-3-5-sonnet-20240620-v1:0",
                "messages": [{"role": "user", "content": [{"text": "Refund order 7."}]}],
                "toolConfig": {"tools": [
                    {"toolSpec": {"name": "refund", "inputSchema": {"json": {"type": "object"}}}},
                    {"cachePoint": {"type": "default"}}
                ]}
            },
            "response": {
                "output": {"message": {"role": "assistant", "content": [
                    {"text": "Refunding."},
                    {"toolUse": {"toolUseId": "tooluse_1", "name": "refund", "input": {"amount_cents": "1999"}}},
                    {"toolUse": {"toolUseId": "tooluse_2", "name": 7, "input": {}}}
                ]}},
                "stopReason": "tool_use",
                "usage": {"inputTokens": 30, "outputTokens": 20, "totalTokens": 50}
            }
        })
    }

    #[test]
    fn a_definition_is_a_tool_spec_with_its_schema_under_input_schema_json() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {"sku": {"type": "string", "maxLength": 12}, "n": {"type": ["integer", "null"]}},
            "required": ["sku"],
            "additionalProperties": false
        });
        let lowering = lower(
            DIALECT,
            "order",
            Some("Place an order."),
            Effect::Additive,
            &schema,
        );
        let mut shown = schema.clone();
        shown.as_object_mut().unwrap().shift_remove("$schema");
        assert_eq!(
            lowering.definition,
            json!({"toolSpec": {"name": "order", "description": "Place an order.", "inputSchema": {"json": shown}}})
        );
        assert!(lowering.changes.is_empty(), "{:?}", lowering.changes);
        assert!(lowering.refusals.is_empty());
        assert_eq!(lowering.schema(), Some(&shown));
        // OpenAPI's `nullable` is said as a type array, as in every JSON Schema dialect.
        let nullable =
            json!({"type": "object", "properties": {"n": {"type": "integer", "nullable": true}}});
        let lowering = lower(DIALECT, "t", None, Effect::ReadOnly, &nullable);
        let n = &lowering.definition["toolSpec"]["inputSchema"]["json"]["properties"]["n"];
        assert_eq!(n, &json!({"type": ["integer", "null"]}));
        // No description, or an empty one, is left out.
        let bare = lower(
            DIALECT,
            "t",
            Some(""),
            Effect::ReadOnly,
            &json!({"type": "object"}),
        );
        assert_eq!(
            bare.definition,
            json!({"toolSpec": {"name": "t", "inputSchema": {"json": {"type": "object"}}}})
        );
    }

    #[test]
    fn names_and_roots_outside_what_aws_states_are_refusals() {
        let object = json!({"type": "object", "properties": {}});
        let refusals = |name: &str, schema: &Value| {
            lower(DIALECT, name, None, Effect::ReadOnly, schema).refusals
        };
        assert!(refusals("get_weather-2", &object).is_empty());
        assert_eq!(refusals("get.weather", &object).len(), 1);
        assert_eq!(refusals("", &object).len(), 1);
        assert_eq!(refusals(&"a".repeat(64), &object).len(), 0);
        assert_eq!(refusals(&"a".repeat(65), &object).len(), 1);
        assert_eq!(refusals("wetter_é", &object).len(), 1);
        // A root that says no type is shown as an object; one of another type is refused.
        let untyped = lower(
            DIALECT,
            "t",
            None,
            Effect::ReadOnly,
            &json!({"properties": {}}),
        );
        assert_eq!(
            untyped.definition["toolSpec"]["inputSchema"]["json"]["type"],
            "object"
        );
        assert!(untyped.refusals.is_empty());
        assert_eq!(refusals("t", &json!({"type": "array"})).len(), 1);
        assert_eq!(refusals("t", &json!({"type": ["object", "null"]})).len(), 1);
        // A reference to the root keeps it untyped: refused rather than narrowed.
        let recursive = json!({"properties": {"next": {"$ref": "#"}}});
        assert_eq!(refusals("t", &recursive).len(), 1);
    }

    #[test]
    fn a_logged_response_gives_its_tool_uses_and_the_request_its_tool_specs() {
        let record = record();
        assert_eq!(Provider::detect(&record), Some(Provider::BedrockConverse));
        assert_eq!(
            Provider::detect(&record["response"]),
            Some(Provider::BedrockConverse)
        );
        assert_eq!(
            Provider::detect(&json!({"request": record["request"]})),
            Some(Provider::BedrockConverse)
        );
        let calls = BedrockConverse.logged_calls(&record).unwrap();
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[0].name, Some("refund"));
        assert!(
            matches!(&calls[0].arguments, Some(LoggedArguments::Value(v)) if v["amount_cents"] == "1999")
        );
        assert_eq!(calls[1].name, Some(""), "a name that is not a string");
        let definitions = BedrockConverse.logged_definitions(&record);
        assert_eq!(definitions, [&record["request"]["toolConfig"]["tools"][0]]);
        // A request alone holds no call; a record of another provider is none of Bedrock's.
        let request_only = json!({"request": record["request"]});
        assert_eq!(
            BedrockConverse.logged_calls(&request_only),
            Some(Vec::new())
        );
        assert!(BedrockConverse
            .logged_calls(&json!({"choices": []}))
            .is_none());
        assert!(BedrockConverse
            .logged_calls(&json!({"output": [1]}))
            .is_none());
        // OpenAI Responses keeps its `output` array.
        let responses =
            json!({"output": [{"type": "function_call", "name": "a", "arguments": "{}"}]});
        assert_eq!(
            Provider::detect(&responses),
            Some(Provider::OpenAiResponses)
        );
    }

    #[test]
    fn a_converse_stream_gives_each_tool_use_its_pieces() {
        let events = [
            json!({"messageStart": {"role": "assistant"}}),
            json!({"contentBlockDelta": {"delta": {"text": "Refunding."}, "contentBlockIndex": 0}}),
            json!({"contentBlockStop": {"contentBlockIndex": 0}}),
            json!({"contentBlockStart": {"start": {"toolUse": {"toolUseId": "tooluse_1", "name": "refund"}}, "contentBlockIndex": 1}}),
            json!({"contentBlockDelta": {"delta": {"toolUse": {"input": "{\"amount_cents\": "}}, "contentBlockIndex": 1}}),
            json!({"contentBlockDelta": {"delta": {"toolUse": {"input": "1999}"}}, "contentBlockIndex": 1}}),
            json!({"contentBlockStop": {"contentBlockIndex": 1}}),
            json!({"contentBlockStart": {"start": {"toolUse": {"toolUseId": "tooluse_2", "name": "ping"}}, "contentBlockIndex": 2}}),
            json!({"contentBlockStop": {"contentBlockIndex": 2}}),
            json!({"messageStop": {"stopReason": "tool_use"}}),
            json!({"metadata": {"usage": {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3}}}),
        ];
        assert!(events.iter().all(is_stream_event));
        let mut streams = ToolCallStreams::new();
        let updates: Vec<Update> = events.iter().flat_map(|e| streams.push(e)).collect();
        assert_eq!(
            updates,
            [
                Update::Started { call: 0 },
                Update::Arguments { call: 0, from: 0 },
                Update::Arguments { call: 0, from: 17 },
                Update::Completed { call: 0 },
                Update::Started { call: 1 },
                Update::Arguments { call: 1, from: 0 },
                Update::Completed { call: 1 },
            ]
        );
        let refund = streams.call(0).unwrap();
        assert_eq!(refund.id.as_deref(), Some("tooluse_1"));
        assert_eq!(refund.name.as_deref(), Some("refund"));
        assert_eq!(refund.arguments, "{\"amount_cents\": 1999}");
        assert_eq!(streams.call(1).unwrap().arguments, "{}");
    }

    #[test]
    fn what_only_looks_like_a_stream_event_is_none() {
        for record in [
            json!({"metadata": {"a": 1}, "tool": "refund"}),
            json!({"contentBlockStop": 1}),
            json!({"contentBlockStart": {}, "type": "x"}),
            json!([{"messageStart": {}}]),
        ] {
            assert!(!is_stream_event(&record), "{record}");
            let mut streams = ToolCallStreams::new();
            assert!(streams.push(&record).is_empty(), "{record}");
        }
        // A delta for a block that never started, and a start without a tool use, are nothing.
        let mut streams = ToolCallStreams::new();
        let stray = json!({"contentBlockDelta": {"delta": {"toolUse": {"input": "{"}}, "contentBlockIndex": 4}});
        assert!(streams.push(&stray).is_empty());
        let text = json!({"contentBlockStart": {"start": {"text": ""}, "contentBlockIndex": 0}});
        assert!(streams.push(&text).is_empty());
    }
}
