//! The MCP gate's message handling on arbitrary lines from the client and the server, after it
//! has learned two tools. Nothing may panic; every line the gate writes is one line of JSON;
//! a client line that is not JSON is answered `-32700`; a message refused at the door is
//! answered `-32600` or `-32602` with its own id or `null`; any other call the gate answers
//! (rejected, or refused for its tool) is answered with its own id and `isError`.
//!
//! Every line the gate sends the server is read completely and one way only (no key twice at
//! any depth, no lone surrogate); it goes unchanged unless repaired; and a `tools/call` among
//! them was judged clean or repaired (or is to a tool whose definition did not load, which
//! the gate passes on unchecked), and sent again it is judged clean (unchecked) and goes on
//! unchanged: what went on is what was judged.
//!
//! A second gate, whose policy makes every call wait for the user's confirmation (by
//! elicitation, or in the rounds of the 2026-07-28 revision), gets the same lines: nothing may
//! panic there either, all it writes is JSON, and what it sends the server holds to the same
//! reading and verdicts. A call to a tool the gates have not learned waits for a listing of
//! their own, which is answered with the same tools: the held call comes out judged (its
//! verdict taken once), as JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::value::RawValue;
use serde_json::Value;
use toolargs_core::json::skim;
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

/// `line`, on its way to the server, is read completely and one way only: no key twice at
/// any depth (compared decoded), no lone surrogate.
fn assert_one_reading(line: &str) {
    let read = skim::skip_strict(line, 0, skim::MAX_DEPTH);
    assert!(
        read.is_some_and(|span| line[span.end..].trim().is_empty()),
        "forwarded, and not read one way only: {line}"
    );
}

/// The tool `line` calls, when it is a `tools/call` (`""` when it names none).
fn called(line: &str) -> Option<String> {
    let message: Value = serde_json::from_str(line).ok()?;
    (message["method"] == "tools/call").then(|| {
        message["params"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    })
}

/// Whether `outcome` lets a call to `tool` go on: clean, repaired, or unchecked for a tool
/// whose definition did not load.
fn goes_on(gate: &Gate, tool: &str, outcome: &Outcome) -> bool {
    match outcome {
        Outcome::Clean | Outcome::Repaired => true,
        Outcome::Unchecked => gate.tools().get(tool).is_some_and(|spec| spec.is_err()),
        _ => false,
    }
}

/// `call`, a `tools/call` that went on to the server, sent again: judged clean (unchecked for
/// a tool that is), and forwarded unchanged.
fn assert_judged_again(gate: &mut Gate, tool: &str, call: &str) {
    let unchecked = gate.tools().get(tool).is_some_and(|spec| spec.is_err());
    let again = gate.from_client(call);
    let outcome = again.verdict.map(|v| v.outcome);
    let expected = if unchecked {
        Outcome::Unchecked
    } else {
        Outcome::Clean
    };
    assert_eq!(
        outcome,
        Some(expected),
        "a call that went on is not clean: {call}"
    );
    assert_eq!(
        again.routes,
        [Route::ToServer(call.to_owned())],
        "a clean call changed: {call}"
    );
}

/// Answers the gate's listing `id` with the tools: every route that comes out is JSON, no
/// more verdicts than the calls that waited, and a call that goes on was judged on its
/// release (and, `again`, is judged clean when sent again).
fn answer_listing(gate: &mut Gate, id: &Value, again: bool) {
    let answer = TOOLS
        .replace('\n', "")
        .replacen(r#""id":0"#, &format!(r#""id":{id}"#), 1);
    let routes = gate.from_server(&answer);
    let released = gate.take_released();
    for released in &released {
        assert!(
            released.verdict.held,
            "a verdict released that did not wait"
        );
    }
    for route in routes {
        let (Route::ToClient(text) | Route::ToServer(text)) = &route;
        json_line(text);
        let Route::ToServer(forwarded) = route else {
            continue;
        };
        assert_one_reading(&forwarded);
        if let Some(tool) = called(&forwarded) {
            let judged = released
                .iter()
                .any(|r| r.verdict.tool == tool && goes_on(gate, &tool, &r.verdict.outcome));
            assert!(judged, "a held call went on unjudged: {forwarded}");
            if again {
                assert_judged_again(gate, &tool, &forwarded);
            }
        }
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
        let handled = asking.from_client(line);
        for route in handled.routes {
            let (Route::ToClient(text) | Route::ToServer(text)) = &route;
            json_line(text);
            let Route::ToServer(forwarded) = route else {
                continue;
            };
            assert_one_reading(&forwarded);
            if let Some(id) = listing_id(&forwarded) {
                answer_listing(&mut asking, &id, false);
            } else if let Some(tool) = called(&forwarded) {
                // Sent again, it would wait for the user's confirmation again: its verdict
                // is checked, not a second one.
                let outcome = handled.verdict.as_ref().map(|v| &v.outcome);
                assert!(
                    outcome.is_some_and(|outcome| goes_on(&asking, &tool, outcome)),
                    "a call went on with the verdict {outcome:?}: {forwarded}"
                );
            }
        }
        let handled = gate.from_client(line);
        // Text the gate reads as JSON (a lone surrogate is text, whatever it decodes to),
        // and the message as a parsed value, when it is one.
        let text = serde_json::from_str::<Box<RawValue>>(line).is_ok();
        let sent: Option<Value> = serde_json::from_str(line).ok();
        let outcome = handled.verdict.as_ref().map(|v| v.outcome.clone());
        for route in &handled.routes {
            match route {
                Route::ToClient(answer) => {
                    let answer = json_line(answer);
                    match (&sent, &outcome) {
                        _ if !text => assert_eq!(answer["error"]["code"], -32700, "{line}"),
                        // Refused at the door: an error, to the id when it is certain.
                        (Some(sent), Some(Outcome::Refused)) if answer.get("error").is_some() => {
                            let code = answer["error"]["code"].as_i64();
                            assert!(
                                matches!(code, Some(-32600 | -32602)),
                                "a refusal answered {answer}: {line}"
                            );
                            assert!(
                                answer["id"] == sent["id"] || answer["id"].is_null(),
                                "an answer to another id: {answer}"
                            );
                        }
                        (Some(sent), Some(_)) => {
                            assert_eq!(answer["id"], sent["id"], "an answer to another id");
                            assert_eq!(answer["result"]["isError"], true);
                        }
                        _ => {}
                    }
                }
                Route::ToServer(forwarded) => {
                    assert_one_reading(forwarded);
                    if let Some(id) = listing_id(forwarded) {
                        answer_listing(&mut gate, &id, true);
                        continue;
                    }
                    if outcome != Some(Outcome::Repaired) {
                        assert_eq!(forwarded, line, "a line forwarded changed without a repair");
                    }
                    if let Some(tool) = called(forwarded) {
                        assert!(
                            outcome
                                .as_ref()
                                .is_some_and(|outcome| goes_on(&gate, &tool, outcome)),
                            "a call went on with the verdict {outcome:?}: {forwarded}"
                        );
                        assert_judged_again(&mut gate, &tool, forwarded);
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
