//! Meaning at the gate: the calls of a model asked to refund $19.99, and of one whose refund
//! timed out, through a gate whose policy says what `issue_refund`'s amount means. Nothing
//! runs but what the user meant: no refund 100 times the amount, no second refund, no
//! currency swapped, while the correction that means the original runs once.

use serde_json::{json, Value};
use toolargs_gate::{CallVerdict, Gate, Policy, Route, SessionOptions};

const POLICY: &str = r#"
[[tools]]
name = "issue_refund"
[tools.meaning]
amount_cents = { semantic = "money", currency = "currency", minor_units = true, critical = true }
"#;

fn refund_tool() -> Value {
    json!({"name": "issue_refund", "annotations": {"destructiveHint": true},
        "inputSchema": {"type": "object", "properties": {
            "order_id": {"type": "string"},
            "amount_cents": {"type": "integer"},
            "currency": {"type": "string", "pattern": "^[A-Z]{3}$"}},
        "required": ["order_id", "amount_cents", "currency"]}})
}

/// A gate that learned `tools`, with `policy` (TOML), for a client that cannot be asked to
/// confirm.
fn gate(policy: &str, tools: Value) -> Gate {
    gate_with(Policy::from_toml(policy).unwrap(), tools)
}

fn gate_with(policy: Policy, tools: Value) -> Gate {
    let mut gate = Gate::new().with_policy(policy);
    gate.from_client(r#"{"jsonrpc":"2.0","id":0,"method":"tools/list"}"#);
    let listing = json!({"jsonrpc": "2.0", "id": 0, "result": {"tools": tools}});
    gate.from_server(&listing.to_string());
    gate
}

/// What became of a call: its verdict, and whether it went on to the server.
fn call(gate: &mut Gate, id: u64, arguments: &str) -> (CallVerdict, bool) {
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"issue_refund","arguments":{arguments}}}}}"#
    );
    let handled = gate.from_client(&line);
    let forwarded = handled
        .routes
        .iter()
        .any(|route| matches!(route, Route::ToServer(_)));
    (handled.verdict.expect("a verdict"), forwarded)
}

fn codes(verdict: &CallVerdict) -> Vec<&str> {
    verdict.codes.iter().map(String::as_str).collect()
}

#[test]
fn nothing_runs_but_what_the_user_meant() {
    let mut gate = gate(POLICY, json!([refund_tool()]));
    // The user asked for $19.99; the model sent dollars where cents go.
    let (verdict, went) = call(
        &mut gate,
        1,
        r#"{"order_id":"ord_1","amount_cents":"19.99","currency":"USD"}"#,
    );
    assert!(!went);
    assert_eq!(codes(&verdict), ["ambiguous_integer"]);
    // Its correction is 100 times what was meant.
    let (verdict, went) = call(
        &mut gate,
        2,
        r#"{"order_id":"ord_1","amount_cents":199900,"currency":"USD"}"#,
    );
    assert!(!went, "{verdict:?}");
    assert_eq!(codes(&verdict), ["meaning_changed"]);
    let correction = &verdict.meaning.as_ref().unwrap()["correction"];
    assert_eq!(correction["decision"], json!("reject"));
    assert_eq!(correction["findings"][0]["path"], json!("$.amount_cents"));
    // The correction that means the original runs, once.
    let (verdict, went) = call(
        &mut gate,
        3,
        r#"{"order_id":"ord_1","amount_cents":1999,"currency":"USD"}"#,
    );
    assert!(went, "{verdict:?}");
    assert_eq!(
        verdict.meaning.as_ref().unwrap()["correction"]["decision"],
        json!("proceed")
    );
    // The same refund, regenerated after a timeout: another layout, a float for the integer.
    let (verdict, went) = call(
        &mut gate,
        4,
        r#"{"currency":"USD","order_id":"ord_1","amount_cents":1999.0}"#,
    );
    assert!(!went, "{verdict:?}");
    assert_eq!(codes(&verdict), ["duplicate_action"]);
    assert_eq!(
        verdict.meaning.as_ref().unwrap()["duplicate_of"]["label"],
        json!("3")
    );
    // Another order, with a decimal comma; its correction swaps the currency.
    let (_, went) = call(
        &mut gate,
        5,
        r#"{"order_id":"ord_2","amount_cents":"15,00","currency":"USD"}"#,
    );
    assert!(!went);
    let (verdict, went) = call(
        &mut gate,
        6,
        r#"{"order_id":"ord_2","amount_cents":1500,"currency":"CAD"}"#,
    );
    assert!(!went, "{verdict:?}");
    assert_eq!(codes(&verdict), ["meaning_changed"]);
}

#[test]
fn corrections_are_capped() {
    let options = SessionOptions::default().with_corrections_per_tool(2);
    let mut gate = gate(POLICY, json!([refund_tool()])).with_session_options(options);
    let bad = r#"{"order_id":"ord_1","amount_cents":"19.99","currency":"USD"}"#;
    for id in 1..=3 {
        let (verdict, went) = call(&mut gate, id, bad);
        assert!(!went);
        assert_eq!(codes(&verdict), ["ambiguous_integer"], "attempt {id}");
    }
    let (verdict, went) = call(
        &mut gate,
        4,
        r#"{"order_id":"ord_1","amount_cents":1999,"currency":"USD"}"#,
    );
    assert!(!went);
    assert_eq!(codes(&verdict), ["retry_budget_exhausted"]);
}

#[test]
fn an_idempotent_tool_repeats_and_a_read_only_one_is_never_a_duplicate() {
    let clean = r#"{"order_id":"ord_1","amount_cents":1999,"currency":"USD"}"#;
    let idempotent = POLICY.replace("[tools.meaning]", "idempotent = true\n[tools.meaning]");
    let mut read_only = refund_tool();
    read_only["annotations"] = json!({"readOnlyHint": true});
    for mut gate in [
        gate(&idempotent, json!([refund_tool()])),
        gate(POLICY, json!([read_only])),
    ] {
        for id in 1..=2 {
            assert!(call(&mut gate, id, clean).1, "call {id}");
        }
    }
    // Without: the second is held, and refused since this client cannot confirm.
    let mut gate = gate(POLICY, json!([refund_tool()]));
    assert!(call(&mut gate, 1, clean).1);
    assert!(!call(&mut gate, 2, clean).1);
}

#[test]
fn a_meaning_that_does_not_fit_the_schema_refuses_the_tool() {
    let policy = r#"
[[tools]]
name = "issue_refund"
[tools.meaning]
amount = { semantic = "money", currency = "USD" }
"#;
    let mut gate = gate(policy, json!([refund_tool()]));
    let (verdict, went) = call(
        &mut gate,
        1,
        r#"{"order_id":"ord_1","amount_cents":1999,"currency":"USD"}"#,
    );
    assert!(!went);
    assert_eq!(codes(&verdict), ["meaning_invalid"]);
}

#[test]
fn the_schema_itself_can_say_what_an_argument_means() {
    let mut tool = refund_tool();
    tool["inputSchema"]["properties"]["amount_cents"]["x-toolargs"] =
        json!({"semantic": "money", "currency": "currency", "minor_units": true, "critical": true});
    let mut gate = gate("", json!([tool]));
    call(
        &mut gate,
        1,
        r#"{"order_id":"ord_1","amount_cents":"19.99","currency":"USD"}"#,
    );
    let (verdict, went) = call(
        &mut gate,
        2,
        r#"{"order_id":"ord_1","amount_cents":199900,"currency":"USD"}"#,
    );
    assert!(!went);
    assert_eq!(codes(&verdict), ["meaning_changed"]);
}

#[test]
fn a_client_that_can_ask_the_user_gets_the_duplicate_confirmed_once() {
    let mut gate = gate(POLICY, json!([refund_tool()]));
    let initialize = json!({"jsonrpc": "2.0", "id": 100, "method": "initialize",
        "params": {"capabilities": {"elicitation": {}}}});
    gate.from_client(&initialize.to_string());
    let clean = r#"{"order_id":"ord_1","amount_cents":1999,"currency":"USD"}"#;
    assert!(call(&mut gate, 1, clean).1);
    // The second is held while the user is asked why it would run twice.
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"issue_refund","arguments":{clean}}}}}"#
    );
    let handled = gate.from_client(&line);
    let [Route::ToClient(request)] = handled.routes.as_slice() else {
        panic!("no question for the user: {:?}", handled.routes);
    };
    let request: Value = serde_json::from_str(request).unwrap();
    assert_eq!(request["method"], json!("elicitation/create"));
    let message = request["params"]["message"].as_str().unwrap();
    assert!(message.contains("s ago"), "{message}");
    let answer = json!({"jsonrpc": "2.0", "id": request["id"], "result": {"action": "accept"}});
    let handled = gate.from_client(&answer.to_string());
    assert_eq!(handled.routes, [Route::ToServer(line)]);
    assert!(handled.verdict.unwrap().confirmed);
}

/// The golden pairs every door is tested with (`tests/data/golden_pairs.json`): an invoice
/// tool with an argument of each kind they cover, its meaning, and the pairs.
fn golden_pairs() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/golden_pairs.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_golden_pairs_of_each_kind_are_decided_by_what_they_mean() {
    let golden = golden_pairs();
    let policy = json!({"tools": [{"name": "create_invoice", "meaning": golden["meaning"]}]});
    let pairs = golden["pairs"].as_array().unwrap().iter().map(|pair| {
        let refused = pair["code"].as_str().map(str::to_owned);
        (
            pair["what"].clone(),
            pair["meant"].clone(),
            pair["corrected"].clone(),
            refused,
        )
    });
    for (what, meant, corrected, refused) in pairs {
        let mut gate = gate_with(
            Policy::from_json(&policy.to_string()).unwrap(),
            json!([golden["tool"]]),
        );
        let mut original = meant.clone();
        original["memo"] = json!("invented");
        let line = |id: u64, arguments: &Value| {
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": "create_invoice", "arguments": arguments}})
            .to_string()
        };
        let first = gate.from_client(&line(1, &original)).verdict.unwrap();
        assert!(
            codes(&first).contains(&"unknown_field"),
            "{what}: {first:?}"
        );
        let handled = gate.from_client(&line(2, &corrected));
        let verdict = handled.verdict.unwrap();
        let went = handled
            .routes
            .iter()
            .any(|route| matches!(route, Route::ToServer(_)));
        match refused {
            None => assert!(went, "{what}: {verdict:?}"),
            Some(code) => {
                assert!(!went, "{what}");
                assert_eq!(codes(&verdict), [code.as_str()], "{what}: {verdict:?}");
            }
        }
    }
}
