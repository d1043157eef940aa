//! `toolargs replay` on provider logs: every reader with its exact counts, tool definitions
//! taken from the logs, many inputs (directories, globs, gzip, zstd, standard input), the
//! per-call verdicts and the drill-down.

use std::path::PathBuf;

use assert_cmd::Command;
use serde_json::{json, Value};

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Runs `toolargs replay ARGS` in the data directory; stdout and exit code.
fn replay(args: &[&str]) -> (String, i32) {
    let out = Command::cargo_bin("toolargs")
        .unwrap()
        .current_dir(data())
        .arg("replay")
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

/// The JSON report of `toolargs replay --format json ARGS`.
fn report(args: &[&str]) -> Value {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let (out, code) = replay(&all);
    assert_eq!(code, 0, "{out}");
    serde_json::from_str(&out).unwrap()
}

/// `[total, ok_clean, ok_repaired, rejected, without_calls, bad records]`.
fn counts(report: &Value) -> [u64; 6] {
    let n = |k: &str| report[k].as_u64().unwrap();
    let bad = report["bad_records"]
        .as_object()
        .unwrap()
        .values()
        .map(|b| b["count"].as_u64().unwrap())
        .sum();
    [
        n("total"),
        n("ok_clean"),
        n("ok_repaired"),
        n("rejected"),
        n("without_calls"),
        bad,
    ]
}

#[test]
fn openai_chat_completions() {
    let r = report(&["logs/openai_chat.jsonl"]);
    // Line 2 holds two tool calls; line 3 is a reply in text; line 4 calls a tool no request
    // defines; line 5 is cut short.
    assert_eq!(counts(&r), [6, 1, 1, 2, 1, 2]);
    assert_eq!(r["repairs"], json!({"numeric_string_to_int": 1}));
    assert_eq!(r["rejections"], json!({"enum": 1, "missing": 1}));
    assert_eq!(
        r["bad_locations"],
        json!({"not_json": ["logs/openai_chat.jsonl:5"], "unknown_tool": ["logs/openai_chat.jsonl:4"]})
    );
    // The same with the format named.
    let named = report(&["--input-format", "openai-chat", "logs/openai_chat.jsonl"]);
    assert_eq!(named, r);
}

#[test]
fn openai_responses() {
    let r = report(&["logs/openai_responses.jsonl"]);
    // Two function calls on line 2 (a fenced payload, days out of range); a reasoning item and
    // a built-in web search tool are not calls or definitions; line 4 is no Responses record.
    assert_eq!(counts(&r), [4, 1, 1, 1, 1, 1]);
    assert_eq!(r["repairs"], json!({"strip_code_fence": 1}));
    assert_eq!(r["rejections"], json!({"out_of_range": 1}));
    assert_eq!(
        r["bad_records"]["unrecognized_record"],
        json!({"count": 1, "first_lines": [4]})
    );
}

#[test]
fn anthropic_messages() {
    let r = report(&["logs/anthropic.jsonl"]);
    // `input` arrives decoded; line 4 holds two tool_use blocks, one without `city`.
    assert_eq!(counts(&r), [4, 2, 1, 1, 1, 0]);
    assert_eq!(r["repairs"], json!({"numeric_string_to_int": 1}));
    assert_eq!(r["rejections"], json!({"missing": 1}));
}

#[test]
fn gemini_generate_content() {
    let r = report(&["logs/gemini.jsonl"]);
    // `args` arrive decoded; the definitions are the request's `functionDeclarations`; line 4
    // holds two function calls, one without `city`.
    assert_eq!(counts(&r), [4, 2, 1, 1, 1, 0]);
    assert_eq!(r["repairs"], json!({"numeric_string_to_int": 1}));
    assert_eq!(r["rejections"], json!({"missing": 1}));
    let named = report(&["--input-format", "gemini", "logs/gemini.jsonl"]);
    assert_eq!(named, r);
}

#[test]
fn opentelemetry_genai_spans() {
    let r = report(&["--by", "gen_ai.operation.name", "logs/otel.jsonl"]);
    // Line 1 is OTLP JSON with a chat span (the definitions) and two tool spans; lines 2-4
    // are single spans, line 3 without arguments, line 4 a chat span.
    assert_eq!(counts(&r), [4, 1, 1, 1, 1, 1]);
    assert_eq!(r["rejections"], json!({"enum": 1}));
    assert_eq!(
        r["bad_records"]["missing_arguments"],
        json!({"count": 1, "first_lines": [3]})
    );
    let groups = r["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1);
    assert_eq!(
        groups[0]["key"],
        json!({"gen_ai.operation.name": "execute_tool"})
    );
    assert_eq!(groups[0]["total"], json!(4));
}

#[test]
fn mcp_json_rpc_traces() {
    let r = report(&["logs/mcp.jsonl"]);
    // Four tools/call requests (one without arguments, which reads as `{}`); the six other
    // messages hold no call; the definitions come from the tools/list result.
    assert_eq!(counts(&r), [4, 1, 1, 2, 6, 0]);
    assert_eq!(r["rejections"], json!({"missing": 1, "unknown_field": 1}));
}

#[test]
fn definitions_from_tools_win_over_those_in_the_log() {
    let r = report(&["--tools", "tools_weather.json", "logs/anthropic.jsonl"]);
    // `days` at most 2: the three calls for three days are rejected now (line 4's without
    // `city` too).
    assert_eq!(counts(&r), [4, 1, 0, 3, 1, 0]);
    assert_eq!(r["rejections"], json!({"missing": 1, "out_of_range": 3}));
}

#[test]
fn a_log_without_definitions_needs_tools() {
    let (_, code) = replay(&["calls.jsonl"]);
    assert_eq!(code, 2);
}

#[test]
fn many_inputs_directories_globs_and_compressed_files() {
    // A directory and a glob: every log under them, once each.
    let r = report(&["logs", "logs/*.jsonl", "compressed"]);
    assert_eq!(counts(&r), [36, 10, 8, 12, 18, 6]);
    assert_eq!(
        r["sources"],
        json!([
            "logs/anthropic.jsonl",
            "logs/gemini.jsonl",
            "logs/mcp.jsonl",
            "logs/openai_chat.jsonl",
            "logs/openai_responses.jsonl",
            "logs/otel.jsonl",
            "compressed/mcp.jsonl.zst",
            "compressed/openai_chat.jsonl.gz"
        ])
    );
    // The definitions of one tool in six providers' shapes are one tool.
    assert_eq!(r["refused_definitions"], json!([]));
    // gzip and zstd (two frames) read as their plain text.
    let gz = report(&["compressed/openai_chat.jsonl.gz"]);
    let plain = report(&["logs/openai_chat.jsonl"]);
    assert_eq!(counts(&gz), counts(&plain));
    let zst = report(&["compressed/mcp.jsonl.zst"]);
    assert_eq!(counts(&zst), counts(&report(&["logs/mcp.jsonl"])));
    // The result does not depend on the number of workers.
    let one = replay(&["--format", "json", "--jobs", "1", "logs", "compressed"]);
    let four = replay(&["--format", "json", "--jobs", "4", "logs", "compressed"]);
    assert_eq!(one, four);
    let (_, code) = replay(&["--tools", "tools.json", "logs/nothing-*.jsonl"]);
    assert_eq!(code, 2);
    let empty = std::env::temp_dir().join(format!("toolargs-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let (_, code) = replay(&["--tools", "tools.json", empty.to_str().unwrap()]);
    assert_eq!(code, 2);
}

#[test]
fn standard_input_is_detected_too() {
    let out = Command::cargo_bin("toolargs")
        .unwrap()
        .current_dir(data())
        .args([
            "replay",
            "--format",
            "json",
            "--tools",
            "tools_weather.json",
            "-",
        ])
        .write_stdin(std::fs::read(data().join("logs/mcp.jsonl")).unwrap())
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    // `days` at most 2 and no `units`: the call for three days is rejected.
    assert_eq!(counts(&r), [4, 0, 0, 4, 6, 0]);
}

#[test]
fn standard_input_supplies_its_own_definitions_without_tools() {
    // The MCP trace carries its tools/list; piped in, it replays as the file does.
    // The copy of standard input goes to a temporary directory of the test's own, which it
    // leaves empty.
    let temp = std::env::temp_dir().join(format!("toolargs-spool-test-{}", std::process::id()));
    std::fs::create_dir_all(&temp).unwrap();
    for name in ["logs/mcp.jsonl", "logs/openai_chat.jsonl"] {
        let out = Command::cargo_bin("toolargs")
            .unwrap()
            .current_dir(data())
            .env("TMPDIR", &temp)
            .args(["replay", "--format", "json", "-"])
            .write_stdin(std::fs::read(data().join(name)).unwrap())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let piped: Value = serde_json::from_slice(&out.stdout).unwrap();
        let from_file = report(&[name]);
        assert_eq!(counts(&piped), counts(&from_file), "{name}");
        assert_eq!(piped["repairs"], from_file["repairs"], "{name}");
        assert_eq!(piped["rejections"], from_file["rejections"], "{name}");
        assert_eq!(piped["sources"], json!(["-"]));
        assert_eq!(std::fs::read_dir(&temp).unwrap().count(), 0, "{name}");
    }
    std::fs::remove_dir(&temp).unwrap();
    // Where no copy can be made, the replay says so instead of reading half the input.
    let out = Command::cargo_bin("toolargs")
        .unwrap()
        .current_dir(data())
        .env("TMPDIR", temp.join("missing"))
        .args(["replay", "-"])
        .write_stdin(std::fs::read(data().join("logs/mcp.jsonl")).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("-: copying to "));
}

#[test]
fn arguments_logged_as_a_value_are_judged_as_logged() {
    // The same calls with their arguments as a value and as JSON text, numbers beyond what a
    // double holds included: each pair gets one verdict, and no number becomes another.
    let pairs = [
        r#"{"order_id":"ord_A4E1g0Fg","amount_cents":123456789012345678901234567890,"reason":"late"}"#,
        r#"{"order_id":"ord_A4E1g0Fg","amount_cents":2000.0000000000000001,"reason":"late"}"#,
        r#"{"order_id":"ord_A4E1g0Fg","amount_cents":1e400,"reason":"late"}"#,
        r#"{"order_id":"ord_A4E1g0Fg","amount_cents": 1999 ,"reason":"late","tags":"gift"}"#,
    ];
    let mut log = String::new();
    for arguments in pairs {
        log += &format!("{{\"tool\":\"issue_refund\",\"arguments\":{arguments}}}\n");
        log += &json!({"tool": "issue_refund", "arguments": arguments}).to_string();
        log += "\n";
    }
    let replay = |log: &str, with_arguments: bool| {
        let mut command = Command::cargo_bin("toolargs").unwrap();
        command
            .current_dir(data())
            .args(["replay", "--format", "jsonl", "--tools", "tools.json"]);
        if with_arguments {
            command.arg("--with-arguments");
        }
        let out = command.arg("-").write_stdin(log).output().unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let verdicts: Vec<Value> = replay(&log, false)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(verdicts.len(), 2 * pairs.len());
    let codes = |v: &Value| v["codes"].as_array().unwrap().clone();
    for (pair, arguments) in verdicts.chunks(2).zip(pairs) {
        let judged = |v: &Value| (v["outcome"].clone(), codes(v), v["rules"].clone());
        assert_eq!(judged(&pair[0]), judged(&pair[1]), "{arguments}");
    }
    // Beyond 64 bits, for an integer schema: out of its range, not another number.
    assert_eq!(codes(&verdicts[0]), [json!("out_of_range")]);
    assert!(codes(&verdicts[2]).contains(&json!("lossy_number")));
    assert!(codes(&verdicts[4]).contains(&json!("out_of_range")));
    assert_eq!(verdicts[6]["rules"], json!(["scalar_to_list"]));
    // The value is written back as logged, digits and spacing and all.
    for (line, arguments) in replay(&log, true).lines().step_by(2).zip(pairs) {
        assert!(
            line.ends_with(&format!(",\"arguments\":{arguments}}}")),
            "{line}"
        );
    }
}

#[test]
fn jsonl_writes_one_verdict_per_call_in_input_order() {
    let (out, code) = replay(&[
        "--format",
        "jsonl",
        "logs/openai_chat.jsonl",
        "logs/mcp.jsonl",
    ]);
    assert_eq!(code, 0);
    let verdicts: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(verdicts.len(), 6 + 4);
    assert_eq!(
        verdicts[1],
        json!({"file": "logs/openai_chat.jsonl", "line": 2, "tool": "get_weather", "outcome": "repaired", "codes": [], "rules": ["numeric_string_to_int"], "fields": ["$.days"]})
    );
    assert_eq!(
        verdicts[2],
        json!({"file": "logs/openai_chat.jsonl", "line": 2, "tool": "get_weather", "outcome": "rejected", "codes": ["enum"], "rules": [], "fields": ["$.units"]})
    );
    assert_eq!(verdicts[3]["outcome"], "bad");
    assert_eq!(verdicts[3]["reason"], "unknown_tool");
    assert_eq!(verdicts[3]["tool"], "book_flight");
    assert_eq!(verdicts[9]["line"], 10);
    assert!(verdicts.iter().all(|v| v.get("arguments").is_none()));
    // With the arguments, as sent: text as text, decoded values as values.
    let (out, _) = replay(&[
        "--format",
        "jsonl",
        "--with-arguments",
        "logs/openai_chat.jsonl",
        "logs/mcp.jsonl",
    ]);
    let with: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        with[0]["arguments"],
        json!("{\"city\":\"Paris\",\"days\":3}")
    );
    assert_eq!(with[6]["arguments"], json!({"city": "Paris", "days": 3}));
    // In input order whatever the number of workers.
    let one = replay(&["--format", "jsonl", "--jobs", "1", "logs", "compressed"]);
    let four = replay(&["--format", "jsonl", "--jobs", "4", "logs", "compressed"]);
    assert_eq!(one, four);
    assert_eq!(one.0.lines().count(), 36);
}

#[test]
fn the_drill_down_counts_per_tool_and_field_with_examples() {
    let r = report(&["logs"]);
    let drill = &r["drill"];
    let weather = &drill["tools"]["get_weather"];
    assert_eq!(
        (
            weather["calls"].clone(),
            weather["ok_clean"].clone(),
            weather["ok_repaired"].clone(),
            weather["rejected"].clone()
        ),
        (json!(22), json!(8), json!(6), json!(8))
    );
    assert_eq!(
        weather["fields"]["$.city"]["rejections"]["missing"]["count"],
        json!(4)
    );
    assert_eq!(
        weather["fields"]["$.days"]["repairs"]["numeric_string_to_int"]["count"],
        json!(5)
    );
    assert_eq!(
        drill["examples"]["rejections"]["missing"],
        json!([
            "logs/anthropic.jsonl:4",
            "logs/gemini.jsonl:4",
            "logs/mcp.jsonl:9"
        ])
    );
    assert_eq!(
        drill["top_failing_fields"][0],
        json!({"tool": "get_weather", "field": "$.city", "rejected_calls": 4, "rate": 4.0 / 22.0})
    );
    // The table names the fields that fail most.
    let (table, _) = replay(&["logs"]);
    assert!(table.contains("fields that fail most"), "{table}");
    assert!(table.contains("get_weather  $.city"), "{table}");
}

#[test]
fn a_record_with_several_bad_calls_is_one_location() {
    let dir = std::env::temp_dir().join(format!("toolargs-bad-calls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let call =
        |name: &str| json!({"type": "function", "function": {"name": name, "arguments": "{}"}});
    let record = json!({"choices": [{"message": {"tool_calls": [call("nope"), call("nada")]}}]});
    let log = dir.join("chat.jsonl");
    std::fs::write(&log, format!("{record}\n").repeat(6)).unwrap();
    let log = log.to_str().unwrap();
    let one = report(&["--tools", "tools_weather.json", "--jobs", "1", log]);
    assert_eq!(
        one["bad_records"]["unknown_tool"],
        json!({"count": 12, "first_lines": [1, 2, 3, 4, 5]})
    );
    let two = report(&["--tools", "tools_weather.json", "--jobs", "2", log]);
    assert_eq!(one, two);
}
