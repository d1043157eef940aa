//! `toolargs pin` and `toolargs gate --pin` as processes, in front of `tests/data/quote_server.py`,
//! whose tools change by its environment: a server pinned and gated passes its calls; widened
//! after it was pinned, its tool's calls are refused `tool_changed`, saying what changed, until
//! it is pinned again; a tool not pinned is refused `tool_unpinned`; a server that lists a tool
//! twice, or a pin file that does not load, is an error.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

mod common;
use common::{data, watchdog};

/// A fresh folder for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("toolargs-pin-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `toolargs pin --out PINS -- python3 quote_server.py`, with `env` set for the server.
fn pin(pins: &Path, env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolargs"))
        .args(["pin", "--out"])
        .arg(pins)
        .arg("--")
        .arg("python3")
        .arg(data("quote_server.py"))
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// What the gate answered, what it logged, and what it said on stderr.
struct Session {
    answers: Vec<Value>,
    log: Vec<Value>,
    stderr: String,
}

/// `toolargs gate --pin PINS --log LOG -- python3 quote_server.py` with `env` set for the
/// server: the client initializes, lists the tools, and sends `calls` (tool, arguments), one
/// answer read for each.
fn gated(dir: &Path, pins: &Path, env: &[(&str, &str)], calls: &[(&str, Value)]) -> Session {
    watchdog(120);
    let log = dir.join(format!("verdicts-{}.jsonl", calls.len()));
    let _ = std::fs::remove_file(&log);
    let mut gate = Command::new(env!("CARGO_BIN_EXE_toolargs"))
        .args(["gate", "--pin"])
        .arg(pins)
        .arg("--log")
        .arg(&log)
        .arg("--")
        .arg("python3")
        .arg(data("quote_server.py"))
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut to = gate.stdin.take().unwrap();
    let mut from = BufReader::new(gate.stdout.take().unwrap());
    let mut ask = |message: Value| {
        writeln!(to, "{message}").unwrap();
        let mut line = String::new();
        from.read_line(&mut line).unwrap();
        serde_json::from_str::<Value>(&line).unwrap_or_else(|_| panic!("not JSON: {line:?}"))
    };
    ask(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}));
    ask(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    ask(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"cursor": "2"}}));
    let mut answers = Vec::new();
    for (id, (tool, arguments)) in calls.iter().enumerate() {
        answers.push(ask(
            json!({"jsonrpc": "2.0", "id": 10 + id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}}),
        ));
    }
    drop(to);
    let mut stderr = String::new();
    gate.stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    gate.wait().unwrap();
    let log = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    Session {
        answers,
        log,
        stderr,
    }
}

/// The error codes of a tool result the gate wrote; empty for a result of the server.
fn codes(answer: &Value) -> Vec<String> {
    let result = &answer["result"];
    if result["isError"] != json!(true) {
        return Vec::new();
    }
    result["structuredContent"]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["error"].as_str().unwrap().to_owned())
        .collect()
}

/// The arguments the server received for a call it answered.
fn received(answer: &Value) -> Value {
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    serde_json::from_str(text).unwrap()
}

#[test]
fn a_pinned_server_is_gated_a_widened_one_refused_and_pinned_again_passes() {
    let dir = scratch("widened");
    let pins = dir.join("pins.json");
    let out = pin(&pins, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("2 tools pinned in"), "{stderr}");
    // The file: its version, and both pages' tools sorted by name, each with its digest and
    // its definition.
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&pins).unwrap()).unwrap();
    assert_eq!(file["version"], json!(1));
    let names: Vec<&str> = file["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["lookup", "quote"]);
    assert_eq!(
        file["tools"][1]["definition"]["inputSchema"]["properties"]["quantity"]["maximum"],
        json!(10)
    );
    assert_eq!(file["tools"][1]["sha256"].as_str().unwrap().len(), 64);

    // As pinned: judged as usual.
    let calls = [
        ("quote", json!({"order_id": "o1", "quantity": 2})),
        ("quote", json!({"order_id": "o1", "quantity": 50})),
    ];
    let session = gated(&dir, &pins, &[], &calls);
    assert_eq!(received(&session.answers[0]), calls[0].1);
    assert_eq!(codes(&session.answers[1]), ["out_of_range"]);
    assert!(!session.stderr.contains("pinned"), "{}", session.stderr);

    // Widened after it was pinned: refused, whatever the call, and said what changed.
    let wider = [("QUOTE_WIDER", "1")];
    let calls = [
        (
            "quote",
            json!({"order_id": "o2", "quantity": 500, "discount": 0.5}),
        ),
        ("quote", json!({"order_id": "o2", "quantity": 2})),
        ("lookup", json!({"q": "x"})),
    ];
    let session = gated(&dir, &pins, &wider, &calls);
    assert_eq!(codes(&session.answers[0]), ["tool_changed"]);
    assert_eq!(codes(&session.answers[1]), ["tool_changed"]);
    assert_eq!(received(&session.answers[2]), json!({"q": "x"}));
    assert!(
        !session.stderr.contains("quotes: called quote"),
        "{}",
        session.stderr
    );
    let said = "$.discount: property added; $.quantity: maximum 10 dropped";
    assert!(
        session.stderr.contains(&format!(
            "toolargs gate: `quote` changed since it was pinned: {said}; its calls are refused (tool_changed)"
        )),
        "{}",
        session.stderr
    );
    let refused: Vec<(&str, &str)> = session
        .log
        .iter()
        .map(|v| {
            (
                v["outcome"].as_str().unwrap(),
                v["changed"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        refused,
        [("refused", said), ("refused", said), ("clean", "")]
    );
    assert_eq!(session.log[0]["codes"], json!(["tool_changed"]));

    // Pinned again, what changed is said, and the widened tool's calls pass.
    let out = pin(&pins, &wider);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("`quote` changed: {said}")),
        "{stderr}"
    );
    let session = gated(&dir, &pins, &wider, &calls[..1]);
    assert_eq!(received(&session.answers[0]), calls[0].1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_tool_not_pinned_is_refused_tool_unpinned() {
    let dir = scratch("unpinned");
    let pins = dir.join("pins.json");
    assert!(pin(&pins, &[]).status.success());
    let calls = [
        ("wipe", json!({})),
        ("quote", json!({"order_id": "o", "quantity": 1})),
    ];
    let session = gated(&dir, &pins, &[("QUOTE_EXTRA", "1")], &calls);
    assert_eq!(codes(&session.answers[0]), ["tool_unpinned"]);
    assert_eq!(received(&session.answers[1]), calls[1].1);
    assert!(
        session
            .stderr
            .contains("toolargs gate: `wipe` is not pinned; its calls are refused (tool_unpinned)"),
        "{}",
        session.stderr
    );
    assert!(!session.stderr.contains("quotes: called wipe"));
    // Pinned again, the new tool is said, and pinned.
    let out = pin(&pins, &[("QUOTE_EXTRA", "1")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("`wipe`: newly pinned"), "{stderr}");
    assert!(stderr.contains("3 tools pinned"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_server_that_lists_a_tool_twice_is_not_pinned() {
    let dir = scratch("twice");
    let pins = dir.join("pins.json");
    let out = pin(&pins, &[("QUOTE_TWICE", "1")]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the server lists `quote` more than once")
            && stderr.contains("nothing was written"),
        "{stderr}"
    );
    assert!(!pins.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_pin_file_that_does_not_load_stops_the_gate_before_the_server_starts() {
    let dir = scratch("bad");
    let pins = dir.join("pins.json");
    assert!(pin(&pins, &[]).status.success());
    let text = std::fs::read_to_string(&pins).unwrap();
    // An approval edited by hand is not one.
    std::fs::write(&pins, text.replace("\"maximum\": 10", "\"maximum\": 1000")).unwrap();
    let marker = dir.join("started");
    let out = Command::new(env!("CARGO_BIN_EXE_toolargs"))
        .args(["gate", "--pin"])
        .arg(&pins)
        .args(["--", "sh", "-c"])
        .arg(format!("touch '{}'", marker.display()))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "toolargs: {}: the sha256 pinned for `quote`",
            pins.display()
        )),
        "{stderr}"
    );
    assert!(!marker.exists(), "the server was started");
    let missing = Command::new(env!("CARGO_BIN_EXE_toolargs"))
        .args(["gate", "--pin"])
        .arg(dir.join("missing.json"))
        .args(["--", "true"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read the pin file"));
    let _ = std::fs::remove_dir_all(&dir);
}
