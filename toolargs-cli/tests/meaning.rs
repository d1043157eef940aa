//! `toolargs gate --policy` with the meaning of a refund's amount declared, in front of a
//! server that executes every call it is sent: the calls of a model asked to refund $19.99
//! and of one whose refund timed out leave the server having executed the one refund the user
//! meant, and the verdict log holds each decision.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{json, Value};

mod common;
use common::{data, watchdog};

#[test]
fn the_server_executes_only_what_the_user_meant() {
    watchdog(120);
    let dir = std::env::temp_dir().join(format!("toolargs-meaning-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (policy, log, refunds) = (
        dir.join("policy.toml"),
        dir.join("log.jsonl"),
        dir.join("refunds.jsonl"),
    );
    std::fs::write(
        &policy,
        "[[tools]]\nname = \"issue_refund\"\n[tools.meaning]\n\
         amount_cents = { semantic = \"money\", currency = \"currency\", minor_units = true, critical = true }\n",
    )
    .unwrap();
    let mut gate = Command::new(env!("CARGO_BIN_EXE_toolargs"))
        .arg("gate")
        .arg("--policy")
        .arg(&policy)
        .arg("--log")
        .arg(&log)
        .args(["--", "python3"])
        .arg(data("refund_server.py"))
        .env("REFUNDS", &refunds)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut to = gate.stdin.take().unwrap();
    let mut from = BufReader::new(gate.stdout.take().unwrap());
    let mut ask = |message: Value| -> Value {
        writeln!(to, "{message}").unwrap();
        let mut line = String::new();
        from.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap()
    };
    ask(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}}));
    ask(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let calls = [
        json!({"order_id": "ord_1", "amount_cents": "19.99", "currency": "USD"}),
        json!({"order_id": "ord_1", "amount_cents": 199900, "currency": "USD"}),
        json!({"order_id": "ord_1", "amount_cents": 1999, "currency": "USD"}),
        json!({"currency": "USD", "order_id": "ord_1", "amount_cents": 1999.0}),
        json!({"order_id": "ord_2", "amount_cents": "15,00", "currency": "USD"}),
        json!({"order_id": "ord_2", "amount_cents": 1500, "currency": "CAD"}),
    ];
    for (id, arguments) in (2..).zip(calls) {
        let reply = ask(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "issue_refund", "arguments": arguments}}));
        assert_eq!(reply["id"], json!(id));
    }
    drop(to);
    gate.wait().unwrap();
    let executed: Vec<Value> = std::fs::read_to_string(&refunds)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(
        executed,
        [json!({"order_id": "ord_1", "amount_cents": 1999, "currency": "USD"})]
    );
    let verdicts: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let codes: Vec<Value> = verdicts.iter().map(|v| v["codes"].clone()).collect();
    assert_eq!(
        codes,
        [
            json!(["ambiguous_integer"]),
            json!(["meaning_changed"]),
            json!([]),
            json!(["duplicate_action"]),
            json!(["ambiguous_integer"]),
            json!(["meaning_changed"]),
        ]
    );
    // The decisions are in the log, without the values (no --log-arguments).
    assert_eq!(
        verdicts[1]["meaning"]["correction"]["decision"],
        json!("reject")
    );
    assert_eq!(
        verdicts[1]["meaning"]["correction"]["findings"][0]["path"],
        json!("$.amount_cents")
    );
    assert!(verdicts[1]["meaning"]["correction"]
        .get("original")
        .is_none());
    assert_eq!(
        verdicts[2]["meaning"]["correction"]["decision"],
        json!("proceed")
    );
    assert_eq!(verdicts[3]["meaning"]["duplicate_of"]["label"], json!("4"));
    assert_eq!(
        verdicts[3]["meaning"]["fingerprint"],
        verdicts[2]["meaning"]["fingerprint"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
