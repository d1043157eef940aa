use serde_json::{json, Value};

use crate::{Gate, Outcome, Route, Unchecked};

/// A gate that listed two tools: `lookup` (read-only) and `refund` (no annotations:
/// destructive), and one whose schema does not load.
fn listed() -> Gate {
    let mut gate = Gate::new();
    let list = r#"{"jsonrpc":"2.0","id":"l1","method":"tools/list"}"#;
    assert_eq!(
        gate.from_client(list).routes,
        [Route::ToServer(list.to_owned())]
    );
    let result = json!({"jsonrpc": "2.0", "id": "l1", "result": {"tools": [
        {"name": "lookup", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
         "annotations": {"readOnlyHint": true}},
        {"name": "refund", "inputSchema": {"type": "object",
            "properties": {"amount_cents": {"type": "integer", "minimum": 1}, "note": {"type": "string"}},
            "required": ["amount_cents"]}},
        {"name": "remote", "inputSchema": {"$ref": "https://example.com/schema.json"}}
    ]}})
    .to_string();
    assert_eq!(gate.from_server(&result), [Route::ToClient(result.clone())]);
    gate
}

fn call(id: impl std::fmt::Display, tool: &str, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
    )
}

fn to_client(routes: &[Route]) -> Value {
    match routes {
        [Route::ToClient(text)] => serde_json::from_str(text).unwrap(),
        other => panic!("not answered by the gate: {other:?}"),
    }
}

#[test]
fn clean_calls_go_on_byte_for_byte() {
    let mut gate = listed();
    for line in [
        call(json!(7), "refund", r#"{ "amount_cents" : 1999 }"#),
        call(json!("a"), "lookup", r#"{"q":"x"}"#),
        // Digits past a double, kept as sent.
        call(
            "123456789012345678901234567890",
            "refund",
            r#"{"amount_cents":5,"note":"n"}"#,
        ),
        // A repair would be needed past a double's digits: none is, so nothing is rounded.
        call(
            json!(15),
            "refund",
            r#"{"amount_cents":1, "note":"12345678901234567890123"}"#,
        ),
    ] {
        let handled = gate.from_client(&line);
        assert_eq!(handled.routes, [Route::ToServer(line.clone())]);
        assert_eq!(handled.verdict.unwrap().outcome, Outcome::Clean);
    }
}

#[test]
fn repaired_calls_go_on_with_their_arguments_replaced_in_place() {
    let mut gate = listed();
    let line = call(json!(8), "refund", r#"{"amount_cents": "1999"}"#);
    let handled = gate.from_client(&line);
    assert_eq!(
        handled.routes,
        [Route::ToServer(call(
            json!(8),
            "refund",
            r#"{"amount_cents":1999}"#
        ))]
    );
    let verdict = handled.verdict.unwrap();
    assert_eq!(
        (verdict.outcome, verdict.rules, verdict.paths),
        (
            Outcome::Repaired,
            vec!["numeric_string_to_int".to_owned()],
            vec!["$.amount_cents".to_owned()]
        )
    );
    // A read-only tool strips what it does not declare.
    let line = call(json!(9), "lookup", r#"{"q": "x", "ghost": 1}"#);
    assert_eq!(
        gate.from_client(&line).routes,
        [Route::ToServer(call(json!(9), "lookup", r#"{"q":"x"}"#))]
    );
    // No arguments at all, for a tool that needs none: added as `{}`.
    let line = r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"lookup"}}"#;
    let handled = gate.from_client(line);
    assert_eq!(handled.verdict.unwrap().outcome, Outcome::Clean);
    assert_eq!(handled.routes, [Route::ToServer(line.to_owned())]);
}

#[test]
fn rejected_calls_never_reach_the_server() {
    let mut gate = listed();
    for (arguments, code) in [
        (r#"{"amount_cents": 1999, "ghost": true}"#, "unknown_field"),
        (r#"{"amount_cents": 1, "amount_cents": 2}"#, "duplicate_key"),
        (r#"{"amount_cents": 0}"#, "out_of_range"),
        (r#"{"note": "n"}"#, "missing"),
        (r#""[1]""#, "not_object"),
    ] {
        let handled = gate.from_client(&call(json!(11), "refund", arguments));
        let reply = to_client(&handled.routes);
        assert_eq!(reply["id"], json!(11), "{arguments}: {reply}");
        assert_eq!(reply["result"]["isError"], json!(true), "{arguments}");
        assert_eq!(reply["result"]["structuredContent"]["ok"], json!(false));
        assert_eq!(
            reply["result"]["structuredContent"]["errors"][0]["error"],
            json!(code),
            "{arguments}"
        );
        let text = reply["result"]["content"][0]["text"].as_str().unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(text).unwrap(),
            reply["result"]["structuredContent"]
        );
        assert_eq!(handled.verdict.unwrap().outcome, Outcome::Rejected);
    }
}

#[test]
fn tools_not_checked_pass_or_are_blocked() {
    let mut gate = listed();
    let line = call(json!(12), "remote", r#"{"a": 1}"#);
    assert_eq!(
        gate.from_client(&line).routes,
        [Route::ToServer(line.clone())]
    );
    let unchecked = gate.tools_mut().take_new_unchecked();
    assert_eq!(unchecked.len(), 1);
    assert_eq!(unchecked[0].name, "remote");
    assert!(
        gate.tools_mut().take_new_unchecked().is_empty(),
        "named once"
    );
    // A tool the server never listed: the server owns the answer.
    let line = call(json!(13), "unlisted", r#"{"a": 1}"#);
    assert_eq!(
        gate.from_client(&line).routes,
        [Route::ToServer(line.clone())]
    );
    let mut gate = listed().with_unchecked(Unchecked::Block);
    let reply = to_client(&gate.from_client(&call(json!(14), "remote", "{}")).routes);
    assert_eq!(reply["result"]["isError"], json!(true));
}

#[test]
fn everything_else_passes_through_and_bad_lines_are_answered() {
    let mut gate = listed();
    for line in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":"s1","result":{"action":"accept"}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"file:///a"}}"#,
    ] {
        assert_eq!(
            gate.from_client(line).routes,
            [Route::ToServer(line.to_owned())]
        );
    }
    let reply = to_client(&gate.from_client("{not json").routes);
    assert_eq!(
        (reply["id"].clone(), reply["error"]["code"].clone()),
        (Value::Null, json!(-32700))
    );
    let reply = to_client(
        &gate
            .from_client(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#)
            .routes,
    );
    assert_eq!(reply["error"]["code"], json!(-32600));
    // The server ends with two requests unanswered: each gets an error, by its own id.
    let gone: Vec<Value> = gate
        .server_closed()
        .iter()
        .map(|route| to_client(std::slice::from_ref(route)))
        .collect();
    let ids: Vec<&Value> = gone.iter().map(|reply| &reply["id"]).collect();
    assert_eq!(ids, [&json!(1), &json!(2)]);
}

#[test]
fn a_first_page_replaces_the_tools_and_later_pages_add_to_them() {
    let mut gate = listed();
    gate.from_client(r#"{"jsonrpc":"2.0","id":20,"method":"tools/list"}"#);
    gate.from_server(r#"{"jsonrpc":"2.0","id":20,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"p2"}}"#);
    gate.from_client(r#"{"jsonrpc":"2.0","id":21,"method":"tools/list","params":{"cursor":"p2"}}"#);
    gate.from_server(r#"{"jsonrpc":"2.0","id":21,"result":{"tools":[{"name":"b","inputSchema":{"type":"object"}}]}}"#);
    assert!(gate.tools().get("refund").is_none());
    assert!(gate.tools().get("a").is_some() && gate.tools().get("b").is_some());
    assert_eq!(gate.tools().len(), 2);
}
