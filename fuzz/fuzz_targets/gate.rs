//! The MCP gate's message handling on arbitrary lines from the client and the server, after it
//! has learned two tools. Nothing may panic; every line the gate writes is one line of JSON;
//! a client line that is not JSON is answered `-32700`; a rejected call is answered with its
//! own id and `isError`; and a repaired call, sent again, is clean (the gate's repair in
//! place is idempotent). A second gate, whose policy makes every call wait for the user's
//! confirmation (by elicitation, or in the rounds of the 2026-07-28 revision), gets the same
//! lines: nothing may panic there either, and all it writes is JSON. A call to a tool the
//! gates have not learned waits for a listing of their own, which is answered with the same
//! tools: the held call comes out judged (its verdict taken once), as JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolargs_gate::{Gate, Outcome, Policy, Route};

const LIST: &str = r#"{"jsonrpc":"2.0","id":0,"method":"tools/list"}"#;
const TOOLS: &str = r#"{"jsonrpc":"2.0","id":0,"result":{"tools":[
  {"name":"refund","inputSchema":{"type":"object","properties":{
    "order_id":{"type":"string","pattern":"^ord_[0-9]{4}$"},
    "amount_cents":{"type":"integer","minimum":1,"maximum":50000},
    "notify":{"type":"boolean"},"tags":{"type":"array","items":{"type":"string"}},
    "when":{"type":"string","format":"date"}},"required":["order_id","amount_cents"]}},
  {"name":"search","annotations":{"readOnlyHint":true},"inputSchema":{"type":"object",
    "properties":{"q":{"type":"string","maxLength":20},"limit":{"type":"integer"}}}}]}}"#;

fn learned() -> Gate {
    learned_with(Gate::new())
}

fn learned_with(mut gate: Gate) -> Gate {
    gate.from_client(LIST);
    gate.from_server(&TOOLS.replace('\n', ""));
    gate
}

fn confirming() -> Gate {
    let policy = Policy::from_toml("[[tools]]\nname = \"*\"\nconfirm = true\n").unwrap();
    learned_with(Gate::new().with_policy(policy))
}

fn json_line(line: &str) -> Value {
    assert!(
        !line.contains('\n'),
        "a written line holds a newline: {line:?}"
    );
    serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
}

/// The id of `line` when it is one of the gate's own `tools/list` requests.
fn listing_id(line: &str) -> Option<Value> {
    let request = json_line(line);
    let id = request["id"].clone();
    (request["method"] == "tools/list"
        && id
            .as_str()
            .is_some_and(|id| id.starts_with("toolargs-gate-list-")))
    .then_some(id)
}

/// Answers the gate's listing `id` with the tools: every route that comes out is JSON, and
/// no more verdicts than the calls that waited.
fn answer_listing(gate: &mut Gate, id: &Value) {
    let answer = TOOLS
        .replace('\n', "")
        .replacen(r#""id":0"#, &format!(r#""id":{id}"#), 1);
    for route in gate.from_server(&answer) {
        let (Route::ToClient(text) | Route::ToServer(text)) = route;
        json_line(&text);
    }
    for released in gate.take_released() {
        assert!(
            released.verdict.held,
            "a verdict released that did not wait"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let mut gate = learned();
    let mut asking = confirming();
    for raw in data.split(|b| *b == b'\n') {
        let Some((&direction, line)) = raw.split_first() else {
            continue;
        };
        let Ok(line) = std::str::from_utf8(line) else {
            continue;
        };
        if direction % 2 == 1 {
            for route in asking.from_server(line) {
                assert_eq!(
                    route,
                    Route::ToClient(line.to_owned()),
                    "a server line changed"
                );
            }
            for route in gate.from_server(line) {
                assert_eq!(
                    route,
                    Route::ToClient(line.to_owned()),
                    "a server line changed"
                );
            }
            continue;
        }
        for route in asking.from_client(line).routes {
            let (Route::ToClient(text) | Route::ToServer(text)) = route;
            if let Some(id) = listing_id(&text) {
                answer_listing(&mut asking, &id);
            }
        }
        let handled = gate.from_client(line);
        let sent: Option<Value> = serde_json::from_str(line).ok();
        for route in &handled.routes {
            match route {
                Route::ToClient(answer) => {
                    let answer = json_line(answer);
                    match &sent {
                        None => assert_eq!(answer["error"]["code"], -32700, "{line}"),
                        Some(sent) if handled.verdict.is_some() => {
                            assert_eq!(answer["id"], sent["id"], "an answer to another id");
                            assert_eq!(answer["result"]["isError"], true);
                        }
                        Some(_) => {}
                    }
                }
                Route::ToServer(forwarded) => {
                    if let Some(id) = listing_id(forwarded) {
                        answer_listing(&mut gate, &id);
                        continue;
                    }
                    let repaired = handled
                        .verdict
                        .as_ref()
                        .is_some_and(|v| v.outcome == Outcome::Repaired);
                    if repaired {
                        let again = learned().from_client(forwarded);
                        let outcome = again.verdict.map(|v| v.outcome);
                        assert_eq!(
                            outcome,
                            Some(Outcome::Clean),
                            "a repair not idempotent: {forwarded}"
                        );
                    } else {
                        assert_eq!(forwarded, line, "a line forwarded changed without a repair");
                    }
                }
            }
        }
    }
    for route in asking.server_closed() {
        let Route::ToClient(answer) = route else {
            panic!("the gate wrote to a closed server");
        };
        json_line(&answer);
    }
    for route in gate.server_closed() {
        let Route::ToClient(answer) = route else {
            panic!("the gate wrote to a closed server");
        };
        json_line(&answer);
    }
});
