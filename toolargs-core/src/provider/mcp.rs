//! MCP: tools are `{name, description, inputSchema, annotations}`, the annotations those of
//! the tool's [`Effect`](crate::Effect); a call is a `tools/call` request (`params.name`,
//! `params.arguments` decoded; a call without arguments may leave them out, which reads as
//! `{}`), and a `tools/list` result (`result.tools`) supplies definitions. Every other message
//! is a record without calls.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::effect::Effect;
use crate::provider::{name_of, text_of, Home, LoggedArguments, LoggedCall};

pub(crate) struct Mcp;

impl Mcp {
    /// The tool definition: `head` (name and description) with `inputSchema` and the
    /// annotations of `effect`.
    pub(crate) fn definition(
        mut head: Map<String, Value>,
        parameters: Value,
        effect: Effect,
    ) -> Value {
        head.insert("inputSchema".to_owned(), parameters);
        head.insert("annotations".to_owned(), effect.mcp_annotations());
        Value::Object(head)
    }
}

impl Home for Mcp {
    const SCHEMA_MEMBERS: &'static [&'static str] = &["inputSchema"];

    fn logged_calls(record: &Value) -> Option<Vec<LoggedCall<'_>>> {
        if record.get("jsonrpc").is_none() && record.get("method").is_none() {
            return None;
        }
        if text_of(record, "method") != Some("tools/call") {
            return Some(Vec::new());
        }
        let params = record.get("params");
        let arguments = match params.and_then(|p| p.get("arguments")) {
            None | Some(Value::Null) => {
                LoggedArguments::Value(Cow::Owned(Value::Object(Map::new())))
            }
            Some(Value::String(text)) => LoggedArguments::Text(text),
            Some(value) => LoggedArguments::Value(Cow::Borrowed(value)),
        };
        Some(vec![LoggedCall {
            name: name_of(params.and_then(|p| p.get("name"))),
            arguments: Some(arguments),
        }])
    }

    /// The tools of a `tools/list` result.
    fn logged_definitions(record: &Value) -> Vec<&Value> {
        record
            .pointer("/result/tools")
            .and_then(Value::as_array)
            .map_or_else(Vec::new, |tools| tools.iter().collect())
    }

    fn is_response(_: &Value) -> bool {
        false
    }

    fn is_request(_: &Value) -> bool {
        false
    }
}
