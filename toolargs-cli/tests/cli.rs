//! The `toolargs` binary end to end: golden outputs, counting rules, bad records, grouping,
//! the regression gate and `check`.
//!
//! Set `UPDATE_GOLDEN=1` to rewrite the golden files after an intended change.

use assert_cmd::Command;
use serde_json::{json, Value};

mod common;
use common::data;

fn toolargs() -> Command {
    Command::cargo_bin("toolargs").unwrap()
}

/// Replays `calls.jsonl`, named relative to the data directory so that locations in the
/// output are the same on every machine.
fn replay(args: &[&str]) -> (String, i32) {
    let out = toolargs()
        .current_dir(data(""))
        .arg("replay")
        .arg("--tools")
        .arg("tools.json")
        .args(args)
        .arg("calls.jsonl")
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

fn golden(name: &str, actual: &str) {
    let path = data(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, actual).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        actual,
        expected,
        "{} differs; rerun with UPDATE_GOLDEN=1 if intended",
        path.display()
    );
}

#[test]
fn golden_outputs_for_every_format() {
    for (format, file) in [
        ("table", "golden.txt"),
        ("json", "golden.json"),
        ("markdown", "golden.md"),
        ("html", "golden.html"),
    ] {
        let (out, code) = replay(&["--by", "model", "--format", format]);
        assert_eq!(code, 0);
        golden(file, &out);
    }
}

#[test]
fn counting_rules() {
    let (out, _) = replay(&["--format", "json", "--jobs", "1"]);
    let report: Value = serde_json::from_str(&out).unwrap();
    // Every line read counts, bad ones included; blank lines are not records.
    assert_eq!(report["total"], json!(12));
    assert_eq!(
        (
            report["ok_clean"].clone(),
            report["ok_repaired"].clone(),
            report["rejected"].clone()
        ),
        (json!(1), json!(3), json!(3))
    );
    // Every repair of an accepted call counts, the stripped `sort` of a read-only tool too.
    assert_eq!(
        report["repairs"],
        json!({"numeric_string_to_int": 2, "strip_code_fence": 1, "strip_unknown_field": 1})
    );
    // A rejected call counts once per distinct code: line 7 has missing, pattern, unknown_field.
    assert_eq!(
        report["rejections"],
        json!({"ambiguous_integer": 1, "missing": 2, "pattern": 1, "unknown_field": 2})
    );
    assert_eq!(
        report["bad_records"]["not_json"],
        json!({"count": 1, "first_lines": [8]})
    );
    assert_eq!(
        report["bad_records"]["missing_arguments"]["first_lines"],
        json!([9])
    );
    assert_eq!(
        report["bad_records"]["unknown_tool"]["first_lines"],
        json!([10])
    );
    assert_eq!(
        report["bad_records"]["not_object"]["first_lines"],
        json!([11])
    );
    assert_eq!(
        report["bad_records"]["missing_tool"]["first_lines"],
        json!([12])
    );
    assert_eq!(report["groups"], json!([]));
    // The result does not depend on the number of workers.
    let (parallel, _) = replay(&["--format", "json", "--jobs", "4"]);
    assert_eq!(parallel, out);
}

#[test]
fn grouping_by_several_fields() {
    let (out, _) = replay(&["--format", "json", "--by", "model,tool"]);
    let report: Value = serde_json::from_str(&out).unwrap();
    let keys: Vec<Value> = report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["key"].clone())
        .collect();
    assert!(keys.contains(&json!({"model": "a", "tool": "search_orders"})));
    let search = report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["key"]["tool"] == "search_orders")
        .unwrap();
    assert_eq!(search["ok_repaired"], json!(1));
    assert_eq!(
        search["repairs"],
        json!({"numeric_string_to_int": 1, "strip_unknown_field": 1})
    );
    let totals: u64 = report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["total"].as_u64().unwrap())
        .sum();
    // Lines that are not JSON objects have no fields to group by.
    assert_eq!(totals, 12 - 2);
}

#[test]
fn the_regression_gate_fails_on_a_rising_rate() {
    let dir = std::env::temp_dir().join(format!("toolargs-gate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (report, _) = replay(&["--format", "json"]);
    let same = dir.join("same.json");
    std::fs::write(&same, &report).unwrap();
    let out = toolargs()
        .args(["replay", "--format", "json", "--against"])
        .arg(&same)
        .arg("--tools")
        .arg(data("tools.json"))
        .arg(data("calls.jsonl"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("+0.00 pp"));

    // A baseline with fewer numeric_string_to_int repairs: the rate rose from 0 to 28.57%.
    let mut lower: Value = serde_json::from_str(&report).unwrap();
    lower["repairs"]["numeric_string_to_int"] = json!(0);
    let lower_path = dir.join("lower.json");
    std::fs::write(&lower_path, lower.to_string()).unwrap();
    let out = toolargs()
        .args(["replay", "--format", "json", "--against"])
        .arg(&lower_path)
        .arg("--tools")
        .arg(data("tools.json"))
        .arg(data("calls.jsonl"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("numeric_string_to_int") && stderr.contains("REGRESSION"),
        "{stderr}"
    );
    // ...unless the tolerated rise is larger.
    let out = toolargs()
        .args(["replay", "--max-rise", "30", "--against"])
        .arg(&lower_path)
        .arg("--tools")
        .arg(data("tools.json"))
        .arg(data("calls.jsonl"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn replay_reads_standard_input() {
    let log = std::fs::read_to_string(data("calls.jsonl")).unwrap();
    let out = toolargs()
        .args(["replay", "--format", "json", "--tools"])
        .arg(data("tools.json"))
        .arg("-")
        .write_stdin(log)
        .output()
        .unwrap();
    let report: Value = serde_json::from_str(&String::from_utf8(out.stdout).unwrap()).unwrap();
    assert_eq!(report["total"], json!(12));
}

#[test]
fn check_accepts_repairs_and_rejects() {
    let out = toolargs()
        .args(["check", "--tool", "issue_refund", "--tools"])
        .arg(data("tools.json"))
        .arg(r#"{"order_id":"ord_A1b2C3d4","amount_cents":"1999","reason":"Late"}"#)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let body: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        body["arguments"],
        json!({"order_id": "ord_A1b2C3d4", "amount_cents": 1999, "reason": "late", "notify_customer": false, "tags": []})
    );
    assert_eq!(
        body["repairs"][0],
        json!({"path": "$.amount_cents", "rule": "numeric_string_to_int", "before": "1999", "after": 1999})
    );

    let out = toolargs()
        .args(["check", "--tool", "issue_refund", "--tools"])
        .arg(data("tools.json"))
        .write_stdin(r#"{"order_id":"ord_A1b2C3d4","amount_cents":"19.99","reason":"late"}"#)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let body: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(body["ok"], json!(false));
    assert_eq!(body["errors"][0]["error"], json!("ambiguous_integer"));

    let out = toolargs()
        .args(["check", "--tools"])
        .arg(data("tools.json"))
        .arg("{}")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "two tools and no --tool");
    let out = toolargs()
        .args(["check", "--tool", "nope", "--tools"])
        .arg(data("tools.json"))
        .arg("{}")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no tool named `nope`"));
}

#[test]
fn a_bad_tools_file_is_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("toolargs-tools-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tools = dir.join("tools.json");
    std::fs::write(&tools, r#"[{"name":"t","parameters":{"type":"object","properties":{"a":{"type":"no-such-type"}}}}]"#).unwrap();
    let out = toolargs()
        .args(["check", "--tools"])
        .arg(&tools)
        .arg("{}")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("/0/parameters/properties/a/type") && stderr.contains("no-such-type"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Replays `calls_partial.jsonl` against `tools_partial.json`, whose second definition
/// (`archive_order`) has a type that does not exist.
fn replay_partial(args: &[&str]) -> (String, String, i32) {
    let out = toolargs()
        .arg("replay")
        .arg("--tools")
        .arg(data("tools_partial.json"))
        .args(args)
        .arg(data("calls_partial.jsonl"))
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

/// Where the broken definition goes wrong, and a word of why.
const REFUSED_AT: &str = "/tools/1/function/parameters/properties/order_id";
const REFUSED_WHY: &str = "no-such-type";

#[test]
fn a_refused_definition_does_not_stop_the_others() {
    let (out, _, code) = replay_partial(&["--format", "json", "--by", "model"]);
    assert_eq!(code, 0);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["total"], json!(8));
    // The two good tools replay as usual.
    assert_eq!(
        (
            report["ok_clean"].clone(),
            report["ok_repaired"].clone(),
            report["rejected"].clone()
        ),
        (json!(2), json!(1), json!(1))
    );
    assert_eq!(report["repairs"], json!({"numeric_string_to_int": 1}));
    assert_eq!(report["rejections"], json!({"ambiguous_integer": 1}));
    // Calls to the refused tool are unchecked, not unknown; a tool absent from the list still is.
    assert_eq!(report["unchecked"], json!(2));
    assert_eq!(report["unchecked_tools"], json!({"archive_order": 2}));
    assert_eq!(
        report["bad_records"]["unknown_tool"],
        json!({"count": 1, "first_lines": [7]})
    );
    assert_eq!(
        report["bad_records"]["missing_arguments"]["first_lines"],
        json!([8])
    );
    let groups = report["groups"].as_array().unwrap();
    assert_eq!(
        groups
            .iter()
            .map(|g| g["unchecked"].clone())
            .collect::<Vec<_>>(),
        [json!(1), json!(1)]
    );
    // The refused definition, where and why.
    let refused = report["refused_definitions"].as_array().unwrap();
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0]["index"], json!(1));
    assert_eq!(refused[0]["tool"], json!("archive_order"));
    let pointer = refused[0]["pointer"].as_str().unwrap();
    assert!(pointer.starts_with(REFUSED_AT), "{pointer}");
    let reason = refused[0]["reason"].as_str().unwrap();
    assert!(reason.contains(REFUSED_WHY), "{reason}");
    assert_eq!(report["load_warnings"]["count"], json!(0));
}

#[test]
fn every_format_lists_the_refused_definition_and_the_unchecked_calls() {
    for format in ["table", "markdown", "html"] {
        let (out, _, code) = replay_partial(&["--format", format, "--by", "model"]);
        assert_eq!(code, 0, "{format}");
        assert!(out.contains("refused definitions: 1"), "{format}: {out}");
        assert!(out.contains(REFUSED_AT), "{format}: {out}");
        assert!(out.contains(REFUSED_WHY), "{format}: {out}");
        assert!(out.contains("archive_order"), "{format}: {out}");
        assert!(
            out.contains("2 unchecked") || out.contains("**2** unchecked"),
            "{format}: {out}"
        );
        assert!(out.contains("unknown_tool"), "{format}: {out}");
        // The per-group table gains an unchecked column.
        let column = match format {
            "table" => "rejected  unchecked  bad",
            "markdown" => "| rejected | unchecked | bad |",
            _ => "<th>rejected</th><th>unchecked</th><th>bad</th>",
        };
        assert!(out.contains(column), "{format}: {out}");
    }
    let (table, _, _) = replay_partial(&["--format", "table"]);
    assert!(
        table.starts_with("8 records: 4 calls, 2 unchecked, 2 bad records\n"),
        "{table}"
    );
    let line = table
        .lines()
        .skip_while(|l| !l.starts_with("unchecked"))
        .nth(1)
        .unwrap();
    assert_eq!(
        line.split_whitespace().collect::<Vec<_>>(),
        ["archive_order", "2"]
    );
}

#[test]
fn strict_tools_fails_on_a_refused_definition() {
    let (out, stderr, code) = replay_partial(&["--strict-tools", "--format", "json"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        stderr.contains("--strict-tools")
            && stderr.contains("archive_order")
            && stderr.contains(REFUSED_AT)
            && stderr.contains(REFUSED_WHY),
        "{stderr}"
    );
    let out = toolargs()
        .args([
            "check",
            "--strict-tools",
            "--tool",
            "issue_refund",
            "--tools",
        ])
        .arg(data("tools_partial.json"))
        .arg(r#"{"order_id":"ord_A1b2C3d4","amount_cents":5,"reason":"late"}"#)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // A list that loads whole passes the flag.
    let (out, code) = replay(&["--strict-tools", "--format", "json"]);
    assert_eq!(code, 0);
    assert_eq!(out, replay(&["--format", "json"]).0);
}

#[test]
fn check_notes_refused_definitions_and_refuses_to_check_against_one() {
    let out = toolargs()
        .args(["check", "--tool", "issue_refund", "--tools"])
        .arg(data("tools_partial.json"))
        .arg(r#"{"order_id":"ord_A1b2C3d4","amount_cents":5,"reason":"late"}"#)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("archive_order") && stderr.contains(REFUSED_AT),
        "{stderr}"
    );
    let out = toolargs()
        .args(["check", "--tool", "archive_order", "--tools"])
        .arg(data("tools_partial.json"))
        .arg(r#"{"order_id":"ord_A1b2C3d4"}"#)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("refused") && stderr.contains(REFUSED_WHY),
        "{stderr}"
    );
}

#[test]
fn load_warnings_are_reported_with_tool_and_pointer() {
    let dir = std::env::temp_dir().join(format!("toolargs-warnings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tools = dir.join("tools.json");
    // A format the gate does not check loads, with a warning.
    std::fs::write(
        &tools,
        r#"[{"name": "t", "parameters": {"type": "object", "properties": {"a": {"type": "string", "format": "no-such-format"}}}}]"#,
    )
    .unwrap();
    let log = dir.join("calls.jsonl");
    std::fs::write(&log, "{\"tool\": \"t\", \"arguments\": {\"a\": \"x\"}}\n").unwrap();
    let pointer = "/0/parameters/properties/a/format";
    for format in ["table", "json", "markdown", "html"] {
        let out = toolargs()
            .args(["replay", "--format", format, "--tools"])
            .arg(&tools)
            .arg(&log)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let out = String::from_utf8(out.stdout).unwrap();
        if format == "json" {
            let report: Value = serde_json::from_str(&out).unwrap();
            assert_eq!(report["ok_clean"], json!(1));
            assert_eq!(report["load_warnings"]["count"], json!(1));
            let first = &report["load_warnings"]["first"][0];
            assert_eq!(first["tool"], json!("t"));
            assert_eq!(first["pointer"], json!(pointer));
            assert!(first["message"]
                .as_str()
                .unwrap()
                .contains("no-such-format"));
        } else {
            assert!(out.contains("load warnings: 1"), "{format}: {out}");
            assert!(out.contains(pointer), "{format}: {out}");
            assert!(out.contains("no-such-format"), "{format}: {out}");
        }
    }
    let out = toolargs()
        .args(["check", "--tools"])
        .arg(&tools)
        .arg(r#"{"a": "x"}"#)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("warning") && stderr.contains(pointer) && stderr.contains("`t`"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
