//! MCP: tools are `{name, description, inputSchema, annotations}`, the annotations those of
//! the tool's [`Effect`](crate::Effect); a call is a `tools/call` request (`params.name`,
//! `params.arguments` decoded; a call without arguments may leave them out, which reads as
//! `{}`), and a `tools/list` result (`result.tools`) supplies definitions. Every other message
//! is a record without calls.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::provider::{
    name_of, text_of, Fit, Form, LoggedArguments, LoggedCall, Names, ProviderDef,
};

pub(crate) struct Mcp;

impl Mcp {
    pub(crate) const NAMES: Names = Names {
        dialect: "mcp",
        strict_dialect: None,
        format: "mcp",
    };
}

impl ProviderDef for Mcp {
    /// `head` (name and description) with `inputSchema` and the annotations of the tool's
    /// effect.
    fn definition(&self, mut head: Map<String, Value>, parameters: Value, form: Form) -> Value {
        head.insert("inputSchema".to_owned(), parameters);
        head.insert("annotations".to_owned(), form.effect.mcp_annotations());
        Value::Object(head)
    }

    fn schema_paths(&self) -> &'static [&'static [&'static str]] {
        &[&["inputSchema"]]
    }

    fn logged_calls<'r>(&self, record: &'r Value) -> Option<Vec<LoggedCall<'r>>> {
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
    fn logged_definitions<'r>(&self, record: &'r Value) -> Vec<&'r Value> {
        record
            .pointer("/result/tools")
            .and_then(Value::as_array)
            .map_or_else(Vec::new, |tools| tools.iter().collect())
    }

    /// A JSON-RPC message.
    fn record_fit(&self, record: &Value) -> Fit {
        Fit::own_if(record.get("jsonrpc").is_some())
    }
}
