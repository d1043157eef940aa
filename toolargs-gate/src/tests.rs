use serde_json::{json, Value};

use crate::{CallVerdict, Gate, Outcome, Route, Unchecked, Unlisted};

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
fn tools_not_checked_are_blocked_unless_the_operator_passes_them() {
    // Closed by default: what the gate cannot judge does not pass.
    let mut gate = listed();
    let reply = to_client(&gate.from_client(&call(json!(14), "remote", "{}")).routes);
    assert_eq!(reply["result"]["isError"], json!(true));
    assert_eq!(
        reply["result"]["structuredContent"]["errors"][0]["error"],
        json!("unchecked_tool")
    );
    let mut gate = listed().with_unchecked(Unchecked::Pass);
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
    // Text that starts as JSON of another shape and then stops being JSON is not JSON.
    let reply = to_client(&gate.from_client(r#""1999"}}}"#).routes);
    assert_eq!(reply["error"]["code"], json!(-32700));
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

/// [`listed`] under a policy: `refund`'s `amount_cents` strict and `refund` confirmed;
/// `lookup` destructive (so unknown keys are rejected); `remote` confirmed too.
fn listed_with_policy(toml: &str) -> Gate {
    let policy = crate::Policy::from_toml(toml).unwrap();
    let mut gate = Gate::new().with_policy(policy);
    gate.from_client(r#"{"jsonrpc":"2.0","id":"l1","method":"tools/list"}"#);
    let result = json!({"jsonrpc": "2.0", "id": "l1", "result": {"tools": [
        {"name": "lookup", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
         "annotations": {"readOnlyHint": true}},
        {"name": "refund", "inputSchema": {"type": "object",
            "properties": {"amount_cents": {"type": "integer", "minimum": 1}, "quantity": {"type": "integer"}},
            "required": ["amount_cents"]}},
    ]}})
    .to_string();
    gate.from_server(&result);
    gate
}

const CONFIRM_REFUND: &str = "[[tools]]\nname = \"refund\"\nconfirm = true\n";

fn initialize(gate: &mut Gate, capabilities: Value) {
    let line = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": capabilities}})
    .to_string();
    assert_eq!(gate.from_client(&line).routes, [Route::ToServer(line)]);
    gate.from_server(r#"{"jsonrpc":"2.0","id":0,"result":{}}"#);
}

/// The gate's confirmation request for a call, and the call held (nothing reaches the
/// server yet).
fn asked(gate: &mut Gate, line: &str) -> Value {
    let handled = gate.from_client(line);
    assert_eq!(handled.verdict, None, "the verdict waits for the answer");
    let request = to_client(&handled.routes);
    assert_eq!(request["method"], json!("elicitation/create"));
    request
}

#[test]
fn a_strict_field_is_rejected_where_it_would_be_repaired() {
    let mut gate =
        listed_with_policy("[[tools]]\nname = \"refund\"\nstrict = [\"amount_cents\"]\n");
    let handled = gate.from_client(&call(json!(1), "refund", r#"{"amount_cents": "1999"}"#));
    let reply = to_client(&handled.routes);
    assert_eq!(
        reply["result"]["structuredContent"]["errors"][0]["error"],
        json!("repair_forbidden")
    );
    assert_eq!(handled.verdict.unwrap().outcome, Outcome::Rejected);
    // Sent as the schema says, it goes on; the other fields are still repaired.
    let line = call(
        json!(2),
        "refund",
        r#"{"amount_cents": 1999, "quantity": "2"}"#,
    );
    assert_eq!(
        gate.from_client(&line).routes,
        [Route::ToServer(call(
            json!(2),
            "refund",
            r#"{"amount_cents":1999,"quantity":2}"#
        ))]
    );
    // Without the policy, the same call is repaired.
    let mut gate = listed_with_policy("");
    let handled = gate.from_client(&call(json!(1), "refund", r#"{"amount_cents": "1999"}"#));
    assert_eq!(handled.verdict.unwrap().outcome, Outcome::Repaired);
}

#[test]
fn the_policy_overrides_what_the_annotations_say() {
    // `lookup` says it is read-only: made destructive, its invented keys are rejected.
    let mut gate = listed_with_policy("[[tools]]\nname = \"look*\"\neffect = \"destructive\"\n");
    let reply = to_client(
        &gate
            .from_client(&call(json!(1), "lookup", r#"{"q": "x", "ghost": 1}"#))
            .routes,
    );
    assert_eq!(
        reply["result"]["structuredContent"]["errors"][0]["error"],
        json!("unknown_field")
    );
    // `refund` says nothing (destructive): told to strip, it strips.
    let mut gate = listed_with_policy("[[tools]]\nname = \"refund\"\nunknown = \"strip\"\n");
    let line = call(json!(2), "refund", r#"{"amount_cents": 5, "ghost": 1}"#);
    assert_eq!(
        gate.from_client(&line).routes,
        [Route::ToServer(call(
            json!(2),
            "refund",
            r#"{"amount_cents":5}"#
        ))]
    );
}

#[test]
fn strict_fields_the_schema_lacks_are_named_once() {
    let policy = "[[tools]]\nname = \"refund\"\nstrict = [\"amount_cents\", \"amount\"]\n";
    let mut gate = listed_with_policy(policy);
    let missing = gate.tools_mut().take_new_policy_warnings();
    assert_eq!(
        missing,
        [crate::StrictFieldMissing {
            tool: "refund".to_owned(),
            field: "amount".to_owned()
        }]
    );
    // Listed again: not named again; a field the new schema lost is named.
    let relist = |gate: &mut Gate, id: &str, schema: Value| {
        let list = json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"}).to_string();
        gate.from_client(&list);
        let result = json!({"jsonrpc": "2.0", "id": id,
            "result": {"tools": [{"name": "refund", "inputSchema": schema}]}});
        gate.from_server(&result.to_string());
        gate.tools_mut().take_new_policy_warnings()
    };
    let schema = json!({"type": "object", "properties": {"amount_cents": {"type": "integer"}}});
    assert!(relist(&mut gate, "l2", schema).is_empty());
    let lost = relist(&mut gate, "l3", json!({"type": "object"}));
    assert_eq!(lost.len(), 1);
    assert_eq!(lost[0].field, "amount_cents");
}

#[test]
fn a_confirmed_call_waits_for_the_user_and_goes_on_as_gated() {
    let mut gate = listed_with_policy(CONFIRM_REFUND);
    initialize(&mut gate, json!({"elicitation": {}}));
    let request = asked(
        &mut gate,
        &call(json!(5), "refund", r#"{"amount_cents": "1999"}"#),
    );
    let message = request["params"]["message"].as_str().unwrap();
    assert!(
        message.contains("`refund`") && message.contains(r#"{"amount_cents":1999}"#),
        "{message}"
    );
    assert_eq!(
        request["params"]["requestedSchema"]["type"],
        json!("object")
    );
    let id = request["id"].as_str().unwrap();
    assert!(id.starts_with("toolargs-gate-"), "{id}");
    // The user accepts: the call goes to the server, repaired; the answer goes nowhere.
    let answer = json!({"jsonrpc": "2.0", "id": id, "result": {"action": "accept", "content": {}}});
    let handled = gate.from_client(&answer.to_string());
    assert_eq!(
        handled.routes,
        [Route::ToServer(call(
            json!(5),
            "refund",
            r#"{"amount_cents":1999}"#
        ))]
    );
    let verdict = handled.verdict.unwrap();
    assert_eq!(
        (verdict.outcome.clone(), verdict.confirmed),
        (Outcome::Repaired, true)
    );
    assert_eq!(verdict.to_log(false)["confirmed"], json!(true));
    // The same answer again is no longer the gate's: it passes on like any other response.
    let again = answer.to_string();
    assert_eq!(
        gate.from_client(&again).routes,
        [Route::ToServer(again.clone())]
    );
    // The server answers the call: the client gets it, and nothing is left pending.
    gate.from_server(r#"{"jsonrpc":"2.0","id":5,"result":{"content":[]}}"#);
    assert!(gate.server_closed().is_empty());
}

#[test]
fn a_call_the_user_does_not_confirm_never_reaches_the_server() {
    let mut gate = listed_with_policy(CONFIRM_REFUND);
    initialize(&mut gate, json!({"elicitation": {"form": {}}}));
    for (n, answer) in [
        json!({"result": {"action": "decline"}}),
        json!({"result": {"action": "cancel"}}),
        json!({"error": {"code": -32603, "message": "no user"}}),
        json!({"result": {}}),
    ]
    .into_iter()
    .enumerate()
    {
        let request = asked(
            &mut gate,
            &call(json!(n + 10), "refund", r#"{"amount_cents": 7}"#),
        );
        let mut answer = answer;
        answer["jsonrpc"] = json!("2.0");
        answer["id"] = request["id"].clone();
        let handled = gate.from_client(&answer.to_string());
        let reply = to_client(&handled.routes);
        assert_eq!(reply["id"], json!(n + 10), "{answer}");
        assert_eq!(reply["result"]["isError"], json!(true));
        assert_eq!(
            reply["result"]["structuredContent"]["errors"][0]["error"],
            json!("not_confirmed")
        );
        let verdict = handled.verdict.unwrap();
        assert_eq!(
            (verdict.outcome, verdict.codes),
            (Outcome::NotConfirmed, vec!["not_confirmed".to_owned()])
        );
    }
    // Every call was answered by the gate: none is waiting for the server.
    assert!(gate.server_closed().is_empty());
}

#[test]
fn without_elicitation_a_confirmed_tool_is_refused() {
    let mut gate = listed_with_policy(CONFIRM_REFUND);
    initialize(&mut gate, json!({"sampling": {}}));
    let handled = gate.from_client(&call(json!(3), "refund", r#"{"amount_cents": 7}"#));
    let reply = to_client(&handled.routes);
    assert_eq!(
        reply["result"]["structuredContent"]["errors"][0]["error"],
        json!("confirmation_unavailable")
    );
    assert_eq!(
        handled.verdict.unwrap().outcome,
        Outcome::ConfirmationUnavailable
    );
    // Rejected calls are rejected before anyone is asked; other tools are not confirmed.
    let reply = to_client(
        &gate
            .from_client(&call(json!(4), "refund", r#"{"amount_cents": 0}"#))
            .routes,
    );
    assert_eq!(
        reply["result"]["structuredContent"]["errors"][0]["error"],
        json!("out_of_range")
    );
    let line = call(json!(5), "lookup", r#"{"q": "x"}"#);
    assert_eq!(
        gate.from_client(&line).routes,
        [Route::ToServer(line.clone())]
    );
    // No `initialize` seen at all: no elicitation either.
    let mut gate = listed_with_policy(CONFIRM_REFUND);
    let reply = to_client(
        &gate
            .from_client(&call(json!(6), "refund", r#"{"amount_cents": 7}"#))
            .routes,
    );
    assert_eq!(
        reply["result"]["structuredContent"]["errors"][0]["error"],
        json!("confirmation_unavailable")
    );
}

#[test]
fn confirmations_of_several_calls_are_told_apart() {
    let mut gate = listed_with_policy("[[tools]]\nname = \"*\"\nconfirm = true\n");
    initialize(&mut gate, json!({"elicitation": {}}));
    let first = asked(
        &mut gate,
        &call(json!(1), "refund", r#"{"amount_cents": 1}"#),
    );
    // Every tool the policy names is confirmed, whatever its verdict.
    let unlisted = call(json!(2), "lookup", r#"{"q": "a"}"#);
    let second = asked(&mut gate, &unlisted);
    assert_ne!(first["id"], second["id"]);
    let answer = |id: &Value, action: &str| {
        json!({"jsonrpc": "2.0", "id": id, "result": {"action": action}}).to_string()
    };
    let handled = gate.from_client(&answer(&second["id"], "accept"));
    assert_eq!(handled.routes, [Route::ToServer(unlisted)]);
    assert_eq!(handled.verdict.unwrap().outcome, Outcome::Clean);
    let reply = to_client(&gate.from_client(&answer(&first["id"], "decline")).routes);
    assert_eq!(reply["id"], json!(1));
    // Long arguments are shown cut short.
    let long = call(
        json!(3),
        "lookup",
        &json!({"q": "x".repeat(10_000)}).to_string(),
    );
    let third = asked(&mut gate, &long);
    let message = third["params"]["message"].as_str().unwrap();
    assert!(
        message.len() < 4200 && message.ends_with("(10008 bytes in all)"),
        "{}",
        message.len()
    );
    gate.from_client(&answer(&third["id"], "cancel"));
    // The server ends: the forwarded call gets an error, the answered one does not.
    let gone: Vec<Value> = gate
        .server_closed()
        .iter()
        .map(|route| to_client(std::slice::from_ref(route)))
        .collect();
    assert_eq!(gone.len(), 1);
    assert_eq!(gone[0]["id"], json!(2));
}

#[test]
fn a_call_cancelled_while_it_waits_is_never_made() {
    let mut gate = listed_with_policy(CONFIRM_REFUND);
    initialize(&mut gate, json!({"elicitation": {}}));
    let request = asked(
        &mut gate,
        &call(json!(8), "refund", r#"{"amount_cents": 7}"#),
    );
    let cancel = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8}}"#;
    assert_eq!(
        gate.from_client(cancel).routes,
        [Route::ToServer(cancel.to_owned())]
    );
    let answer = json!({"jsonrpc": "2.0", "id": request["id"], "result": {"action": "accept"}});
    assert_eq!(
        gate.from_client(&answer.to_string()),
        crate::Handled::default()
    );
    assert!(gate.server_closed().is_empty());
}

#[test]
fn a_rejection_in_a_revision_that_names_its_version_per_request_carries_result_type() {
    let mut gate = listed();
    let modern = r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"refund","arguments":{"amount_cents":0},
        "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let reply = to_client(&gate.from_client(modern).routes);
    assert_eq!(reply["result"]["resultType"], "complete");
    assert_eq!(reply["result"]["isError"], true);
    let handshake = to_client(
        &gate
            .from_client(&call(6, "refund", r#"{"amount_cents":0}"#))
            .routes,
    );
    assert!(handshake["result"].get("resultType").is_none());
}

#[test]
fn answers_matched_by_their_channel_learn_tools_whatever_ids_other_clients_use() {
    let mut gate = Gate::new().per_exchange();
    // Two clients, each with its own id 1: one lists the tools, the other calls one.
    let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    let unknown = call(1, "refund", r#"{"amount_cents":"5"}"#);
    gate.from_client(list);
    gate.from_client(&unknown);
    let answer = r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#;
    assert_eq!(
        gate.server_answers(Some(&unknown), answer, &mut None),
        [Route::ToClient(answer.to_owned())]
    );
    let tools = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "refund",
        "inputSchema": {"type": "object", "properties": {"amount_cents": {"type": "integer"}}}}]}})
    .to_string();
    gate.server_answers(Some(list), &tools, &mut None);
    assert_eq!(gate.tools().len(), 1);
    // A message on the server's own stream, or one answering another request, teaches nothing.
    let empty = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#;
    gate.server_answers(None, empty, &mut None);
    gate.server_answers(Some(&unknown), empty, &mut None);
    assert_eq!(gate.tools().len(), 1);
    let judged = gate.from_client(&call(2, "refund", r#"{"amount_cents":"5"}"#));
    assert_eq!(judged.verdict.unwrap().outcome, Outcome::Repaired);
}

#[test]
fn a_gate_matched_by_channel_holds_no_call_for_a_confirmation() {
    let policy =
        crate::Policy::from_toml("[[tools]]\nname = \"refund\"\nconfirm = true\n").unwrap();
    let mut gate = Gate::new().with_policy(policy).per_exchange();
    let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{"elicitation":{}}}}"#;
    gate.from_client(init);
    let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    gate.from_client(list);
    let tools = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "refund",
        "inputSchema": {"type": "object", "properties": {"amount_cents": {"type": "integer"}}}}]}})
    .to_string();
    gate.server_answers(Some(list), &tools, &mut None);
    let judged = gate.from_client(&call(2, "refund", r#"{"amount_cents":5}"#));
    assert_eq!(
        judged.verdict.unwrap().outcome,
        Outcome::ConfirmationUnavailable
    );
    let reply = to_client(&judged.routes);
    assert!(reply.to_string().contains("Streamable HTTP"), "{reply}");
}

/// The spans a gate's calls make, as `tracing-subscriber`'s formatter writes them when they
/// close, in the order they closed.
#[cfg(feature = "telemetry")]
fn closed_spans(run: impl FnOnce()) -> Vec<String> {
    use std::sync::{Arc, Mutex};
    use tracing_subscriber::fmt::format::FmtSpan;

    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_ansi(false)
        .with_span_events(FmtSpan::CLOSE)
        .with_writer(move || writer.clone())
        .finish();
    tracing::subscriber::with_default(subscriber, run);
    let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    text.lines().map(str::to_owned).collect()
}

#[cfg(feature = "telemetry")]
#[test]
fn each_call_has_the_toolbox_span_from_its_arrival_to_its_answer() {
    let mut gate = listed();
    let lines = closed_spans(|| {
        // Forwarded repaired: its span waits for the server's answer.
        gate.from_client(&call(2, "refund", r#"{"amount_cents":"1999"}"#));
        // Rejected: answered by the gate, its span ends at once.
        gate.from_client(&call(3, "refund", r#"{"amount_cents":0}"#));
        tracing::info!("the server answers");
        gate.from_server(r#"{"jsonrpc":"2.0","id":2,"result":{"content":[],"isError":true}}"#);
        // Forwarded clean, then the server ends before answering.
        gate.from_client(&call(4, "lookup", r#"{"q":"x"}"#));
        gate.server_closed();
    });
    let [rejected, marker, repaired, gone] = &lines[..] else {
        panic!("{lines:#?}")
    };
    for (line, id) in [(rejected, 3), (repaired, 2), (gone, 4)] {
        assert!(line.contains("execute_tool{"), "{line}");
        assert!(
            line.contains("gen_ai.operation.name=\"execute_tool\""),
            "{line}"
        );
        assert!(
            line.contains(&format!("gen_ai.tool.call.id=\"{id}\"")),
            "{line}"
        );
        assert!(line.contains(": toolargs: close"), "{line}");
    }
    assert!(marker.contains("the server answers"), "{marker}");
    assert!(
        rejected.contains("otel.name=execute_tool refund"),
        "{rejected}"
    );
    assert!(
        rejected.contains("toolargs.outcome=\"rejected\""),
        "{rejected}"
    );
    assert!(
        rejected.contains("error.type=\"invalid_arguments\""),
        "{rejected}"
    );
    assert!(
        rejected.contains("toolargs.codes=\"out_of_range\""),
        "{rejected}"
    );
    assert!(
        repaired.contains("toolargs.outcome=\"repaired\""),
        "{repaired}"
    );
    assert!(
        repaired.contains("toolargs.rules=\"numeric_string_to_int\""),
        "{repaired}"
    );
    assert!(repaired.contains("error.type=\"tool_error\""), "{repaired}");
    assert!(gone.contains("gen_ai.tool.name=\"lookup\""), "{gone}");
    assert!(gone.contains("toolargs.outcome=\"clean\""), "{gone}");
    assert!(gone.contains("error.type=\"server_gone\""), "{gone}");
}

/// An upstream endpoint at `/mcp` on a free port, answering each request with what `answer`
/// makes of it (a content type and a body), and the gate's endpoint in front of it.
fn behind_http_gate(
    answer: impl Fn(&tiny_http::Request, &str) -> (&'static str, String) + Send + 'static,
) -> String {
    let upstream = tiny_http::Server::http("127.0.0.1:0").unwrap();
    let port = upstream.server_addr().to_ip().unwrap().port();
    std::thread::spawn(move || {
        for mut request in upstream.incoming_requests() {
            let mut body = String::new();
            request.as_reader().read_to_string(&mut body).unwrap();
            let (content_type, text) = answer(&request, &body);
            let header: tiny_http::Header =
                format!("Content-Type: {content_type}").parse().unwrap();
            let _ = request.respond(tiny_http::Response::from_string(text).with_header(header));
        }
    });
    let gate = crate::HttpGate::bind(
        "127.0.0.1:0".parse().unwrap(),
        &format!("http://127.0.0.1:{port}/mcp"),
        Gate::new,
        None,
    )
    .unwrap();
    let endpoint = gate.endpoint();
    std::thread::spawn(move || gate.serve());
    endpoint
}

/// A request's header, as the upstream got it.
fn header_of(request: &tiny_http::Request, name: &'static str) -> Option<String> {
    request
        .headers()
        .iter()
        .find(|h| h.field.equiv(name))
        .map(|h| h.value.as_str().to_owned())
}

/// Over HTTP, a repaired call goes on with `Mcp-Param-*` headers that mirror its repaired
/// arguments, which the server checks against the body (2026-07-28).
#[test]
fn a_repaired_call_goes_on_with_param_headers_that_mirror_it() {
    let (received, arrived) = std::sync::mpsc::channel();
    let received = std::sync::Mutex::new(received);
    let endpoint = behind_http_gate(move |request, body| {
        let message: Value = serde_json::from_str(body).unwrap();
        let result = match message["method"].as_str() {
            Some("tools/list") => json!({"tools": [{"name": "deploy", "inputSchema": {
                "type": "object", "properties": {
                    "region": {"type": "string", "enum": ["eu", "us"], "x-mcp-header": "Region"},
                    "dry_run": {"type": "boolean", "x-mcp-header": "Dry-Run"}},
                "required": ["region"]}}]}),
            _ => {
                received
                    .lock()
                    .unwrap()
                    .send((
                        message["params"]["arguments"].clone(),
                        header_of(request, "Mcp-Param-Region"),
                        header_of(request, "Mcp-Param-Dry-Run"),
                    ))
                    .unwrap();
                json!({"content": []})
            }
        };
        let answer = json!({"jsonrpc": "2.0", "id": message["id"], "result": result});
        ("application/json", answer.to_string())
    });
    let post = |message: Value, headers: &[(&str, &str)]| {
        let mut request = ureq::post(&endpoint)
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let mut answer = request.send(message.to_string()).unwrap();
        serde_json::from_str::<Value>(&answer.body_mut().read_to_string().unwrap()).unwrap()
    };
    post(
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        &[],
    );
    let deploy = |id: u32, arguments: Value| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "deploy", "arguments": arguments}})
    };
    // Repaired: the headers follow the arguments.
    post(
        deploy(2, json!({"region": "EU", "dry_run": "TRUE"})),
        &[("Mcp-Param-Region", "EU"), ("Mcp-Param-Dry-Run", "TRUE")],
    );
    let (arguments, region, dry_run) = arrived.recv().unwrap();
    assert_eq!(arguments, json!({"region": "eu", "dry_run": true}));
    assert_eq!(region.as_deref(), Some("eu"));
    assert_eq!(dry_run.as_deref(), Some("true"));
    // Clean: the headers go on as the client wrote them; none is added.
    post(
        deploy(3, json!({"region": "us"})),
        &[("Mcp-Param-Region", "us")],
    );
    assert_eq!(
        arrived.recv().unwrap(),
        (json!({"region": "us"}), Some("us".to_owned()), None)
    );
}

/// A client resuming the server's stream: `Last-Event-ID` reaches the upstream, and the
/// events it replays come back as it wrote them, their ids kept.
#[test]
fn a_resumed_stream_passes_through_with_its_event_ids() {
    let endpoint = behind_http_gate(|request, _| {
        let last = header_of(request, "Last-Event-ID").unwrap_or_default();
        let events = format!(
            "id: {last}-1\nevent: message\ndata: {}\n\n: a comment\nid: {last}-2\ndata: {}\n\n",
            json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}),
            json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "x"}}),
        );
        ("text/event-stream", events)
    });
    let mut answer = ureq::get(&endpoint)
        .header("Accept", "text/event-stream")
        .header("Last-Event-ID", "stream-7")
        .call()
        .unwrap();
    let body = answer.body_mut().read_to_string().unwrap();
    assert!(
        body.starts_with("id: stream-7-1\nevent: message\ndata: {\"jsonrpc\""),
        "{body}"
    );
    assert!(
        body.contains(": a comment\nid: stream-7-2\ndata: "),
        "{body}"
    );
    assert!(body.contains("notifications/message"), "{body}");
}

/// A `tools/call` of the 2026-07-28 revision: the protocol version and the client's
/// capabilities in its `_meta`, and the members of a retry (`inputResponses`,
/// `requestState`) when given.
fn tagged_call(id: u32, arguments: Value, elicits: bool, retry: Option<(Value, &str)>) -> String {
    let capabilities = if elicits {
        json!({"elicitation": {}})
    } else {
        json!({})
    };
    let mut params = json!({"name": "refund", "arguments": arguments, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities}});
    if let Some((answers, state)) = retry {
        params["inputResponses"] = answers;
        params["requestState"] = json!(state);
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}).to_string()
}

/// The gate's `input_required` answer to a call: its request state, once checked.
fn asked_in_rounds(gate: &mut Gate, line: &str) -> String {
    let handled = gate.from_client(line);
    assert_eq!(handled.verdict, None, "the verdict comes with the retry");
    let result = to_client(&handled.routes)["result"].clone();
    assert_eq!(result["resultType"], json!("input_required"), "{result}");
    let request = &result["inputRequests"]["toolargs-gate/confirm"];
    assert_eq!(request["method"], json!("elicitation/create"), "{result}");
    assert!(request["params"]["message"]
        .as_str()
        .unwrap()
        .contains("`refund`"));
    result["requestState"].as_str().unwrap().to_owned()
}

#[test]
fn in_the_2026_07_28_rounds_a_confirmed_call_goes_on_once_the_user_accepts() {
    for per_exchange in [false, true] {
        let mut gate = listed_with_policy(CONFIRM_REFUND);
        if per_exchange {
            gate = gate.per_exchange();
        }
        // Repaired, then asked about as it would be forwarded.
        let first = tagged_call(1, json!({"amount_cents": "1999"}), true, None);
        let state = asked_in_rounds(&mut gate, &first);
        let accept = json!({"toolargs-gate/confirm": {"action": "accept", "content": {}},
            "server/own": {"action": "accept"}});
        let retry = tagged_call(
            2,
            json!({"amount_cents": "1999"}),
            true,
            Some((accept.clone(), &state)),
        );
        let handled = gate.from_client(&retry);
        let [Route::ToServer(forwarded)] = &handled.routes[..] else {
            panic!("not forwarded: {:?}", handled.routes)
        };
        let forwarded: Value = serde_json::from_str(forwarded).unwrap();
        // Repaired, the gate's answer and state gone, the rest as sent.
        assert_eq!(
            forwarded["params"]["arguments"],
            json!({"amount_cents": 1999})
        );
        assert_eq!(
            forwarded["params"]["inputResponses"],
            json!({"server/own": {"action": "accept"}})
        );
        assert!(forwarded["params"].get("requestState").is_none());
        assert_eq!(forwarded["id"], json!(2));
        let verdict = handled.verdict.unwrap();
        assert_eq!(
            (verdict.outcome, verdict.confirmed),
            (Outcome::Repaired, true)
        );
        // A state stands for one call, once.
        asked_in_rounds(&mut gate, &retry);
        // Nor for other arguments.
        let state = asked_in_rounds(&mut gate, &first);
        let other = tagged_call(3, json!({"amount_cents": 5}), true, Some((accept, &state)));
        asked_in_rounds(&mut gate, &other);
    }
}

#[test]
fn in_the_2026_07_28_rounds_a_call_the_user_does_not_accept_is_refused() {
    let mut gate = listed_with_policy(CONFIRM_REFUND);
    let first = tagged_call(1, json!({"amount_cents": 5}), true, None);
    for (answer, why) in [
        (
            json!({"toolargs-gate/confirm": {"action": "decline"}}),
            "declined",
        ),
        (
            json!({"toolargs-gate/confirm": {"action": "cancel"}}),
            "dismissed",
        ),
        (json!({"other": {"action": "accept"}}), "not an acceptance"),
    ] {
        let state = asked_in_rounds(&mut gate, &first);
        let handled = gate.from_client(&tagged_call(
            2,
            json!({"amount_cents": 5}),
            true,
            Some((answer, &state)),
        ));
        let reply = to_client(&handled.routes);
        assert_eq!(reply["result"]["resultType"], json!("complete"));
        assert_eq!(reply["result"]["isError"], json!(true));
        let text = reply["result"]["content"][0]["text"].as_str().unwrap();
        assert!(
            text.contains("not_confirmed") && text.contains(why),
            "{text}"
        );
        assert_eq!(handled.verdict.unwrap().outcome, Outcome::NotConfirmed);
    }
    // A client that declares no elicitation cannot be asked.
    let handled = gate.from_client(&tagged_call(4, json!({"amount_cents": 5}), false, None));
    assert_eq!(
        handled.verdict.unwrap().outcome,
        Outcome::ConfirmationUnavailable
    );
}

/// The tools of [`listed`], as a server answers the `tools/list` request with `id` (JSON),
/// with `next` as its `nextCursor` when given.
fn tools_page(id: &Value, tools: Value, next: Option<&str>) -> String {
    let mut result = json!({"tools": tools});
    if let Some(next) = next {
        result["nextCursor"] = json!(next);
    }
    json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string()
}

fn refund_tool() -> Value {
    json!({"name": "refund", "inputSchema": {"type": "object",
        "properties": {"amount_cents": {"type": "integer", "minimum": 1}},
        "required": ["amount_cents"]}})
}

/// The gate's own listing request among `routes`: its id, and its params.
fn listing_request(routes: &[Route]) -> (Value, Value) {
    let [Route::ToServer(request)] = routes else {
        panic!("no listing asked for: {routes:?}");
    };
    let request: Value = serde_json::from_str(request).unwrap();
    assert_eq!(request["method"], json!("tools/list"), "{request}");
    assert!(
        request["id"]
            .as_str()
            .is_some_and(|id| id.starts_with("toolargs-gate-list-")),
        "{request}"
    );
    (request["id"].clone(), request["params"].clone())
}

#[test]
fn a_call_before_any_listing_waits_while_the_gate_lists_the_tools_itself() {
    let mut gate = Gate::new();
    initialize(&mut gate, json!({}));
    // A key sent twice, to a tool the client never listed.
    let line = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"refund","arguments":{"amount_cents":5,"amount_cents":6}}}"#;
    let held = gate.from_client(line);
    assert_eq!(held.verdict, None);
    let (id, _) = listing_request(&held.routes);
    // The server's answer to the gate's listing judges the call; it is not the client's.
    let routes = gate.from_server(&tools_page(&id, json!([refund_tool()]), None));
    let reply = to_client(&routes);
    assert_eq!(reply["id"], json!(7));
    assert_eq!(reply["result"]["isError"], json!(true));
    assert!(reply.to_string().contains("duplicate_key"), "{reply}");
    let released = gate.take_released();
    assert_eq!(released.len(), 1);
    assert_eq!(released[0].verdict.outcome, Outcome::Rejected);
    assert!(released[0].verdict.held);
    assert_eq!(released[0].verdict.to_log(false)["held"], json!(true));
    assert!(gate.take_released().is_empty(), "taken once");
    // Learned now: the next call is judged at once, as after the client's own listing.
    let line = call(json!(8), "refund", r#"{"amount_cents": "12"}"#);
    let judged = gate.from_client(&line);
    assert_eq!(judged.verdict.unwrap().outcome, Outcome::Repaired);
}

#[test]
fn every_page_is_read_and_the_calls_that_arrive_meanwhile_wait_in_order() {
    let mut gate = Gate::new();
    let first = call(json!(1), "refund", r#"{"amount_cents": "3"}"#);
    let (id, params) = listing_request(&gate.from_client(&first).routes);
    assert_eq!(params, Value::Null, "a first page asks for no cursor");
    // A second call, to a tool the gate knows nothing of either, joins the listing.
    let second = call(json!(2), "lookup", r#"{"q": "4"}"#);
    assert_eq!(gate.from_client(&second).routes, []);
    let routes = gate.from_server(&tools_page(&id, json!([refund_tool()]), Some("page-2")));
    let (next, params) = listing_request(&routes);
    assert_ne!(next, id);
    assert_eq!(params, json!({"cursor": "page-2"}));
    let lookup = json!({"name": "lookup", "annotations": {"readOnlyHint": true},
        "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}});
    let routes = gate.from_server(&tools_page(&next, json!([lookup]), None));
    let repaired = first.replace(r#"{"amount_cents": "3"}"#, r#"{"amount_cents":3}"#);
    assert_eq!(routes, [Route::ToServer(repaired), Route::ToServer(second)]);
    let outcomes: Vec<Outcome> = gate
        .take_released()
        .into_iter()
        .map(|call| call.verdict.outcome)
        .collect();
    assert_eq!(outcomes, [Outcome::Repaired, Outcome::Clean]);
}

#[test]
fn a_tool_the_server_does_not_list_is_refused_unless_told_to_pass() {
    for (unlisted, passes) in [(Unlisted::Refuse, false), (Unlisted::Pass, true)] {
        let check = |routes: Vec<Route>, verdict: CallVerdict, line: &str| {
            if passes {
                assert_eq!(routes, [Route::ToServer(line.to_owned())]);
                assert_eq!(verdict.outcome, Outcome::Unchecked);
            } else {
                let reply = to_client(&routes);
                assert_eq!(reply["id"], json!(13));
                assert_eq!(
                    reply["result"]["structuredContent"]["errors"][0]["error"],
                    json!("unknown_tool")
                );
                assert_eq!(verdict.outcome, Outcome::UnknownTool);
                assert_eq!(verdict.codes, ["unknown_tool"]);
            }
        };
        let mut gate = listed().with_unlisted(unlisted);
        let line = call(json!(13), "invented", r#"{"a": 1}"#);
        // Just after a listing, an invented name costs the server no listing of its own.
        let handled = gate.from_client(&line);
        check(handled.routes, handled.verdict.unwrap(), &line);
        // Past the window, the gate asks again: the tool may be new.
        gate.listing_window = Some(std::time::Duration::ZERO);
        let (id, _) = listing_request(&gate.from_client(&line).routes);
        let routes = gate.from_server(&tools_page(&id, json!([refund_tool()]), None));
        check(routes, gate.take_released().remove(0).verdict, &line);
    }
}

#[test]
fn a_listing_that_fails_refuses_the_calls_it_held() {
    for answer in [
        json!({"error": {"code": -32600, "message": "not initialized"}}),
        json!({"result": "tools"}),
    ] {
        let mut gate = Gate::new();
        let line = call(json!(3), "refund", r#"{"amount_cents": 3}"#);
        let (id, _) = listing_request(&gate.from_client(&line).routes);
        let mut answer = answer;
        answer["jsonrpc"] = json!("2.0");
        answer["id"] = id;
        let reply = to_client(&gate.from_server(&answer.to_string()));
        assert_eq!(reply["id"], json!(3));
        assert_eq!(
            reply["result"]["structuredContent"]["errors"][0]["error"],
            json!("tools_unavailable"),
            "{reply}"
        );
        let verdict = gate.take_released().remove(0).verdict;
        assert_eq!(verdict.outcome, Outcome::ToolsUnavailable);
    }
    // A server whose cursors never end.
    let mut gate = Gate::new();
    let (mut id, _) = listing_request(
        &gate
            .from_client(&call(json!(4), "refund", r#"{"amount_cents": 3}"#))
            .routes,
    );
    for page in 0.. {
        let routes = gate.from_server(&tools_page(&id, json!([]), Some("again")));
        if page < crate::listing::MAX_PAGES - 1 {
            id = listing_request(&routes).0;
            continue;
        }
        let reply = to_client(&routes);
        assert!(reply.to_string().contains("tools_unavailable"), "{reply}");
        break;
    }
}

#[test]
fn after_list_changed_the_next_call_waits_for_a_fresh_listing() {
    let mut gate = listed();
    gate.from_server(r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#);
    // `refund` now has a maximum the old schema did not.
    let line = call(json!(5), "refund", r#"{"amount_cents": 900}"#);
    let (id, _) = listing_request(&gate.from_client(&line).routes);
    let changed = json!([{"name": "refund", "inputSchema": {"type": "object",
        "properties": {"amount_cents": {"type": "integer", "maximum": 100}}}}]);
    let reply = to_client(&gate.from_server(&tools_page(&id, changed, None)));
    assert!(reply.to_string().contains("out_of_range"), "{reply}");
    // Fresh again: judged at once.
    let line = call(json!(6), "refund", r#"{"amount_cents": 90}"#);
    assert_eq!(gate.from_client(&line).routes, [Route::ToServer(line)]);
}

#[test]
fn a_held_call_cancelled_or_left_by_the_server_is_never_made() {
    let mut gate = Gate::new();
    let cancelled = call(json!(1), "refund", r#"{"amount_cents": 3}"#);
    let (id, _) = listing_request(&gate.from_client(&cancelled).routes);
    let kept = call(json!(2), "refund", r#"{"amount_cents": 4}"#);
    gate.from_client(&kept);
    let cancel = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#;
    assert_eq!(
        gate.from_client(cancel).routes,
        [Route::ToServer(cancel.to_owned())]
    );
    let routes = gate.from_server(&tools_page(&id, json!([refund_tool()]), None));
    assert_eq!(routes, [Route::ToServer(kept)]);
    // The server ends while a listing holds a call: the call is answered, never made.
    let mut gate = Gate::new();
    gate.from_client(&call(json!(9), "refund", r#"{"amount_cents": 3}"#));
    let gone = gate.server_closed();
    assert_eq!(gone.len(), 1);
    assert_eq!(to_client(&gone)["id"], json!(9));
    assert!(gate.take_released().is_empty());
}

#[test]
fn a_listing_never_takes_an_id_the_client_uses_and_carries_the_calls_revision() {
    let mut gate = Gate::new();
    // A client request in flight with the id the gate would take first.
    gate.from_client(r#"{"jsonrpc":"2.0","id":"toolargs-gate-list-1","method":"ping"}"#);
    let line = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "refund", "arguments": {"amount_cents": 3},
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {},
                  "progressToken": 5}}})
    .to_string();
    let (id, params) = listing_request(&gate.from_client(&line).routes);
    assert_ne!(id, json!("toolargs-gate-list-1"));
    assert_eq!(
        params,
        json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                         "io.modelcontextprotocol/clientCapabilities": {}}})
    );
}

#[test]
fn a_gate_matched_by_channel_lists_once_per_held_call() {
    let mut gate = Gate::new().per_exchange();
    let first = call(json!(1), "refund", r#"{"amount_cents": "3"}"#);
    let held = gate.from_client(&first);
    assert!(held.listing);
    let (one, _) = listing_request(&held.routes);
    // Another client of the shared gate, same id: a listing of its own.
    let second = call(json!(1), "refund", r#"{"amount_cents": 0}"#);
    let held = gate.from_client(&second);
    let (two, _) = listing_request(&held.routes);
    assert_ne!(one, two);
    let handled = gate.server_line(&tools_page(&two, json!([refund_tool()]), None));
    assert!(!handled.listing);
    assert!(to_client(&handled.routes)
        .to_string()
        .contains("out_of_range"));
    let handled = gate.server_line(&tools_page(&one, json!([refund_tool()]), None));
    assert_eq!(
        handled.routes,
        [Route::ToServer(first.replace(
            r#"{"amount_cents": "3"}"#,
            r#"{"amount_cents":3}"#
        ))]
    );
}

#[test]
fn held_and_unlisted_calls_are_counted_from_their_verdicts() {
    let metrics = crate::Metrics::new();
    let mut gate = Gate::new();
    let first = gate.from_client(&call(json!(1), "refund", r#"{"amount_cents": 3}"#));
    let (listing, _) = listing_request(&first.routes);
    // The second waits for the listing the first call started.
    gate.from_client(&call(json!(2), "invented", r#"{"amount_cents": 3}"#));
    gate.from_server(&tools_page(&listing, json!([refund_tool()]), None));
    for call in gate.take_released() {
        metrics.record_call(&call.verdict, call.arrived.elapsed());
    }
    let text = metrics.encode();
    assert!(text.contains("toolargs_gate_held_calls_total 2"), "{text}");
    assert!(
        text.contains("toolargs_gate_unlisted_calls_total 1"),
        "{text}"
    );
}
