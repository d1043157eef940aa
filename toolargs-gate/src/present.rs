//! A `tools/list` result shown to the client in a provider's dialect: each tool whose
//! definition loaded gets, as its `inputSchema`, the schema that provider accepts
//! ([`Spec::lowering`](toolargs_dynamic::Spec::lowering)), while the gate judges every call by
//! the full schema it learned from the server. Off unless asked for
//! ([`Gate::presenting`](crate::Gate::presenting)), since MCP clients differ in what they pass on.

use serde_json::Value;
use toolargs_core::Dialect;

use crate::tools::Tools;

/// `line`, a JSON-RPC answer holding a `tools/list` result, with each loaded tool's
/// `inputSchema` lowered for `dialect`; the line as it is when it holds no tools or a tool
/// list the gate could not read.
pub(crate) fn presented(line: &str, dialect: Dialect, tools: &Tools) -> String {
    let Ok(mut message) = serde_json::from_str::<Value>(line) else {
        return line.to_owned();
    };
    let Some(listed) = message
        .pointer_mut("/result/tools")
        .and_then(Value::as_array_mut)
    else {
        return line.to_owned();
    };
    for tool in listed {
        let Some(Ok(spec)) = tool
            .get("name")
            .and_then(Value::as_str)
            .and_then(|n| tools.get(n))
        else {
            continue;
        };
        let lowering = spec.lowering(dialect);
        let schema = lowering
            .schema()
            .cloned()
            .unwrap_or_else(|| serde_json::json!({"type": "object", "properties": {}}));
        tool["inputSchema"] = schema;
    }
    message.to_string()
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};
    use toolargs_core::Dialect;

    use crate::{Gate, Route};

    fn listed(gate: &mut Gate) -> Value {
        gate.from_client(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
        let answer = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
            {"name": "refund", "inputSchema": {"type": "object",
                "properties": {"amount_cents": {"type": "integer", "exclusiveMinimum": 0},
                               "note": {"type": "string", "maxLength": 20}},
                "required": ["amount_cents"], "additionalProperties": false}},
            {"name": "remote", "inputSchema": {"$ref": "https://example.com/schema.json"}}
        ]}});
        let routes = gate.from_server(&answer.to_string());
        let [Route::ToClient(line)] = routes.as_slice() else {
            panic!("{routes:?}");
        };
        serde_json::from_str(line).unwrap()
    }

    #[test]
    fn the_client_sees_the_lowered_schema_and_the_gate_judges_by_the_full_one() {
        let mut gate = Gate::new().presenting(Dialect::Gemini);
        let answer = listed(&mut gate);
        let tools = &answer["result"]["tools"];
        assert_eq!(
            tools[0]["inputSchema"],
            json!({"type": "object",
                "properties": {"amount_cents": {"type": "integer", "minimum": 0},
                               "note": {"type": "string", "maxLength": 20}},
                "required": ["amount_cents"]})
        );
        // A definition that did not load is shown as the server wrote it.
        assert_eq!(
            tools[1]["inputSchema"],
            json!({"$ref": "https://example.com/schema.json"})
        );
        // The full schema's `exclusiveMinimum` still holds at the gate.
        let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"refund","arguments":{"amount_cents":0}}}"#;
        let handled = gate.from_client(call);
        let refused = handled
            .routes
            .iter()
            .any(|r| matches!(r, Route::ToClient(line) if line.contains("out_of_range")));
        assert!(refused, "{:?}", handled.routes);
    }

    #[test]
    fn without_a_dialect_the_list_passes_as_sent() {
        let mut gate = Gate::new();
        let answer = listed(&mut gate);
        assert_eq!(
            answer["result"]["tools"][0]["inputSchema"]["properties"]["amount_cents"],
            json!({"type": "integer", "exclusiveMinimum": 0})
        );
    }

    #[test]
    fn over_http_the_answer_on_the_listing_exchange_is_shown_lowered_too() {
        let mut gate = Gate::new().presenting(Dialect::Anthropic).per_exchange();
        let request = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        gate.from_client(request);
        let answer = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
            {"name": "pick", "inputSchema": {"type": "object",
                "properties": {"n": {"type": "integer"}},
                "oneOf": [{"required": ["n"]}, {"required": ["m"]}]}}
        ]}});
        let routes = gate.server_answers(Some(request), &answer.to_string(), &mut None);
        let [Route::ToClient(line)] = routes.as_slice() else {
            panic!("{routes:?}");
        };
        let shown: Value = serde_json::from_str(line).unwrap();
        // Anthropic takes no union at the root of `input_schema`.
        assert_eq!(
            shown["result"]["tools"][0]["inputSchema"],
            json!({"type": "object", "properties": {"n": {"type": "integer"}}})
        );
    }
}
