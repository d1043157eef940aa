//! `toolargs gate` as a process, in front of a server it starts: the stdio transport, the
//! tools learned from the server, calls judged, everything else passed through, the verdict
//! log, and the server's exit status.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{json, Value};

mod common;
use common::{spawn_gate, watchdog};

/// The client's side of the gate's stdio.
struct Client {
    to: Option<std::process::ChildStdin>,
    from: BufReader<std::process::ChildStdout>,
}

impl Client {
    /// Sends a line and reads the next line back, as JSON.
    fn ask(&mut self, line: &str) -> Value {
        writeln!(self.to.as_mut().unwrap(), "{line}").unwrap();
        self.read()
    }

    /// Reads the next line, as JSON.
    fn read(&mut self) -> Value {
        let mut back = String::new();
        self.from.read_line(&mut back).unwrap();
        serde_json::from_str(&back).unwrap_or_else(|_| panic!("not JSON: {back:?}"))
    }
}

/// `toolargs gate OPTIONS -- python3 echo_server.py`, and the client's side of its stdio.
fn start_gate(options: &[&std::ffi::OsStr]) -> (std::process::Child, Client) {
    // Every read of the client blocks until the gate answers.
    watchdog(120);
    let mut gate = spawn_gate(options, Stdio::piped());
    let client = Client {
        to: gate.stdin.take(),
        from: BufReader::new(gate.stdout.take().expect("the gate's stdout")),
    };
    (gate, client)
}

#[test]
fn the_gate_judges_calls_between_a_client_and_a_server() {
    let log = std::env::temp_dir().join(format!("toolargs-gate-{}.jsonl", std::process::id()));
    // The log is appended to: a file an earlier run with this pid left would add its lines.
    let _ = std::fs::remove_file(&log);
    let (gate, mut client) = start_gate(&[
        "--log-arguments".as_ref(),
        "--log".as_ref(),
        log.as_os_str(),
    ]);
    let gate_pid = gate.id();
    let mut ask = |message: Value| client.ask(&message.to_string());
    let init = ask(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}));
    assert_eq!(init["result"]["serverInfo"]["name"], json!("echo"));
    let list = ask(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    assert_eq!(list["result"]["tools"].as_array().unwrap().len(), 2);
    let call = |id: u32, tool: &str, arguments: Value| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}});
    // Repaired on the way: the server receives an integer.
    let reply = ask(call(3, "refund", json!({"amount_cents": "1999"})));
    assert_eq!(reply["id"], json!(3));
    assert_eq!(
        reply["result"]["content"][0]["text"],
        json!(r#"{"amount_cents": 1999}"#)
    );
    // Rejected: the server never sees it; the client gets the errors as a tool result.
    let reply = ask(call(
        4,
        "refund",
        json!({"amount_cents": 1999, "overwrite": true}),
    ));
    assert_eq!(reply["result"]["isError"], json!(true));
    assert_eq!(
        reply["result"]["structuredContent"]["errors"][0]["error"],
        json!("unknown_field")
    );
    // A read-only tool: the invented key is stripped.
    let reply = ask(call(5, "lookup", json!({"q": "x", "ghost": 1})));
    assert_eq!(
        reply["result"]["content"][0]["text"],
        json!(r#"{"q": "x"}"#)
    );
    // The server's own request passes through to the client.
    let request = ask(call(7, "lookup", json!({"q": "y", "ask": true})));
    assert_eq!(request["method"], json!("sampling/createMessage"));
    assert_eq!(client.read()["id"], json!(7));
    // Not JSON: answered, and the connection goes on.
    let reply = client.ask("{not json");
    assert_eq!(reply["error"]["code"], json!(-32700));
    assert_eq!(
        client.ask(r#"{"jsonrpc":"2.0","id":6,"method":"ping"}"#)["id"],
        json!(6)
    );
    client.to.take();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut client.from, &mut rest).unwrap();
    let output = gate.wait_with_output().unwrap();
    // The server exits with 3 once its input closes; so does the gate.
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("echo: called refund"), "{stderr}");
    assert!(!stderr.contains("overwrite"));
    let verdicts: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let outcomes: Vec<&str> = verdicts
        .iter()
        .map(|v| v["outcome"].as_str().unwrap())
        .collect();
    // The line that is not JSON was refused, and logged.
    assert_eq!(
        outcomes,
        ["repaired", "rejected", "repaired", "clean", "refused"]
    );
    assert_eq!(verdicts[4]["codes"], json!(["invalid_json"]));
    assert_eq!(verdicts[4]["method"], json!(""));
    assert!(verdicts[4].get("arguments").is_none());
    // One stdio connection is one session, named after the gate's run.
    let session = verdicts[0]["session"].as_str().unwrap();
    assert!(
        session.starts_with(&format!("stdio-{}-", gate_pid)),
        "{session}"
    );
    assert!(verdicts.iter().all(|v| v["session"] == json!(session)));
    assert!(verdicts
        .iter()
        .all(|v| v["latency_us"].is_u64() && v["time"].is_f64()));
    assert_eq!(verdicts[1]["codes"], json!(["unknown_field"]));
    assert_eq!(
        verdicts[0]["arguments"],
        json!(r#"{"amount_cents":"1999"}"#)
    );
    // The log replays as calls.
    let tools =
        std::env::temp_dir().join(format!("toolargs-gate-tools-{}.json", std::process::id()));
    std::fs::write(&tools, list["result"].to_string()).unwrap();
    let replay = Command::new(env!("CARGO_BIN_EXE_toolargs"))
        .args(["replay", "--format", "json", "--tools"])
        .arg(&tools)
        .arg(&log)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&replay.stdout).unwrap();
    assert_eq!(report["total"], json!(4), "{report}");
    let _ = std::fs::remove_file(&log);
    let _ = std::fs::remove_file(&tools);
}

#[test]
fn a_policy_file_makes_fields_strict_and_calls_wait_for_the_user() {
    let dir = std::env::temp_dir().join(format!("toolargs-gate-policy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let policy = dir.join("policy.toml");
    std::fs::write(
        &policy,
        r#"
[[tools]]
name = "refund"
strict = ["amount_cents"]
confirm = true

[[tools]]
name = "look*"
effect = "destructive"
strict = ["query"]
"#,
    )
    .unwrap();
    let log = dir.join("verdicts.jsonl");
    let (gate, mut client) = start_gate(&[
        "--log".as_ref(),
        log.as_os_str(),
        "--policy".as_ref(),
        policy.as_os_str(),
    ]);
    let mut ask = |message: Value| client.ask(&message.to_string());
    let init = ask(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"capabilities": {"elicitation": {}}}}));
    assert_eq!(init["result"]["serverInfo"]["name"], json!("echo"));
    ask(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    let call = |id: u32, tool: &str, arguments: Value| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}});
    // Strict: what would be repaired is rejected, before anyone is asked.
    let reply = ask(call(3, "refund", json!({"amount_cents": "1999"})));
    assert_eq!(
        reply["result"]["structuredContent"]["errors"][0]["error"],
        json!("repair_forbidden")
    );
    // Confirmed: the gate asks, the user accepts, the server gets the call.
    let request = ask(call(4, "refund", json!({"amount_cents": 1999})));
    assert_eq!(request["method"], json!("elicitation/create"));
    let reply = ask(json!({"jsonrpc": "2.0", "id": request["id"], "result": {"action": "accept"}}));
    assert_eq!(reply["id"], json!(4));
    assert_eq!(
        reply["result"]["content"][0]["text"],
        json!(r#"{"amount_cents": 1999}"#)
    );
    // Declined: the server never sees it.
    let request = ask(call(5, "refund", json!({"amount_cents": 2})));
    let reply =
        ask(json!({"jsonrpc": "2.0", "id": request["id"], "result": {"action": "decline"}}));
    assert_eq!(reply["id"], json!(5));
    assert_eq!(
        reply["result"]["structuredContent"]["errors"][0]["error"],
        json!("not_confirmed")
    );
    // Made destructive over its read-only annotation: the invented key is rejected.
    let reply = ask(call(6, "lookup", json!({"q": "x", "ghost": 1})));
    assert_eq!(
        reply["result"]["structuredContent"]["errors"][0]["error"],
        json!("unknown_field")
    );
    client.to.take();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut client.from, &mut rest).unwrap();
    let output = gate.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.matches("echo: called refund").count(), 1, "{stderr}");
    // The answers to the gate's own requests never reached the server.
    assert!(!stderr.contains("echo: got the answer"), "{stderr}");
    assert!(
        stderr.contains("the policy makes `query` of `lookup` strict"),
        "{stderr}"
    );
    let verdicts: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let outcomes: Vec<&str> = verdicts
        .iter()
        .map(|v| v["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(outcomes, ["rejected", "clean", "not_confirmed", "rejected"]);
    assert_eq!(verdicts[1]["confirmed"], json!(true));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn present_shows_the_lowered_schema_and_judges_by_the_full_one() {
    let (gate, mut client) = start_gate(&["--present".as_ref(), "openai_chat_strict".as_ref()]);
    let mut ask = |message: Value| client.ask(&message.to_string());
    ask(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}));
    let list = ask(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    let refund = &list["result"]["tools"][1];
    assert_eq!(refund["name"], json!("refund"));
    // Strict mode's form: every property required, the optional one nullable, no other key.
    assert_eq!(
        refund["inputSchema"],
        json!({"type": "object",
            "properties": {"amount_cents": {"type": "integer", "minimum": 1, "maximum": 50000},
                           "note": {"type": ["string", "null"]}},
            "required": ["amount_cents", "note"], "additionalProperties": false})
    );
    // The `null` strict mode sends for the absent note is read as absent, and recorded.
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "refund", "arguments": {"amount_cents": 5, "note": null}}});
    let reply = ask(call);
    assert_eq!(
        reply["result"]["content"][0]["text"],
        json!(r#"{"amount_cents": 5}"#)
    );
    drop(client);
    let _ = gate.wait_with_output();
}

#[test]
fn a_bad_policy_file_stops_the_gate_before_the_server_starts() {
    let dir = std::env::temp_dir().join(format!("toolargs-gate-bad-policy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let policy = dir.join("policy.toml");
    std::fs::write(
        &policy,
        "[[tools]]\nname = \"refund\"\neffect = \"sometimes\"\n",
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_toolargs"))
        .arg("gate")
        .arg("--policy")
        .arg(&policy)
        .args(["--", "/nonexistent/mcp-server"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "{}:3:10: unknown effect `sometimes`",
            policy.display()
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("nonexistent"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A signal sent to the gate reaches the server, which ends as it would on its own, and the
/// gate ends with its status: the server's code, or 128 and the signal for a server the
/// signal ended.
#[cfg(unix)]
#[test]
fn a_signal_to_the_gate_reaches_the_server_and_the_gate_ends_with_it() {
    for (signal, code, said) in [("HUP", 5, Some("echo: got signal 1")), ("TERM", 143, None)] {
        let (gate, mut client) = start_gate(&[]);
        // Once the server answers, it runs with its handler in place.
        let init = client.ask(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#);
        assert_eq!(init["result"]["serverInfo"]["name"], json!("echo"));
        let sent = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(gate.id().to_string())
            .status()
            .unwrap();
        assert!(sent.success());
        // The client's side stays open: the gate ends because the server did.
        let output = gate.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(code), "SIG{signal}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        if let Some(said) = said {
            assert!(stderr.contains(said), "SIG{signal}: {stderr}");
        }
        drop(client);
    }
}
