//! `toolargs replay GATE_LOG`: a gate's verdict log read as it is. The recorded verdicts
//! counted by tool and outcome, code, rule, session and time bucket in every format, the calls
//! that carry their arguments judged again and compared, odd lines counted, never fatal.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

/// A file of the test's own under the temporary directory.
fn write(name: &str, text: &str) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("toolargs-gate-logs-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs `toolargs replay ARGS`: stdout, stderr and exit code.
fn replay(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_toolargs"))
        .arg("replay")
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// The JSON report of `toolargs replay --format json ARGS`.
fn report(args: &[&str]) -> Value {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let (out, err, code) = replay(&all);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

/// A verdict log as the gate writes it, and the odd lines a log may hold: a line with only a
/// `time`, one with only a `timestamp` and a null session, a line that is not JSON, an outcome
/// no gate writes today, a line with no time at all. 2026-12-04T13:00:00Z is 1796389200.
const VERDICTS: &str = r#"{"time":1796389210.5,"timestamp":"2026-12-04T13:00:10.500000Z","session":"s1","tool":"refund","outcome":"clean","codes":[],"rules":[],"paths":[],"latency_us":41,"confirmed":true}
{"time":1796389800.0,"timestamp":"2026-12-04T13:10:00.000000Z","session":"s1","tool":"refund","outcome":"repaired","codes":[],"rules":["numeric_string_to_int","numeric_string_to_int"],"paths":["$.amount_cents","$.qty"],"latency_us":55}
{"time":1796390000.0,"session":"s2","tool":"refund","outcome":"rejected","codes":["type","type","missing"],"rules":[],"paths":["$.a","$.b","$.c"],"latency_us":60}
{"timestamp":"2026-12-04T14:30:00.000000Z","session":null,"tool":"lookup","outcome":"clean","codes":[],"rules":[],"paths":[],"latency_us":12}
{not json
{"time":1796400000.0,"session":"s2","tool":"lookup","outcome":"unknown_tool","codes":["unknown_tool"],"rules":[],"paths":[],"latency_us":3}
{"session":"s2","tool":"lookup","outcome":"blocked","codes":["unchecked"],"rules":[],"paths":[],"latency_us":2}
{"time":1796403599.9,"session":"s1","tool":"refund","outcome":"not_confirmed","codes":["not_confirmed"],"rules":[],"paths":[],"latency_us":900000}
"#;

/// The row of `label` in the text table titled `title`, split at whitespace.
fn text_row(out: &str, title: &str, label: &str) -> Vec<String> {
    let section = out
        .split("\n\n")
        .find(|s| s.starts_with(title))
        .unwrap_or_else(|| panic!("no section {title}:\n{out}"));
    let row = section
        .lines()
        .find(|l| l.split_whitespace().next() == Some(label))
        .unwrap_or_else(|| panic!("no row {label} in {title}:\n{section}"));
    row.split_whitespace().map(str::to_owned).collect()
}

#[test]
fn recorded_verdicts_count_by_tool_outcome_code_rule_session_and_hour() {
    let log = write("verdicts.jsonl", VERDICTS);
    let log = log.to_str().unwrap();
    // No tool definitions: the recorded verdicts are the report.
    let report = report(&[log]);
    let recorded = &report["recorded"];
    assert_eq!(recorded["records"], 7, "{report:#}");
    assert_eq!(
        recorded["outcomes"],
        json!({"clean": 2, "repaired": 1, "rejected": 1, "unknown_tool": 1, "blocked": 1, "not_confirmed": 1})
    );
    assert_eq!(
        recorded["tools"],
        json!({
            "refund": {"clean": 1, "repaired": 1, "rejected": 1, "not_confirmed": 1},
            "lookup": {"clean": 1, "unknown_tool": 1, "blocked": 1},
        })
    );
    // A code counts once per verdict, a rule once per repair.
    assert_eq!(
        recorded["codes"],
        json!({"type": 1, "missing": 1, "unknown_tool": 1, "unchecked": 1, "not_confirmed": 1})
    );
    assert_eq!(recorded["rules"], json!({"numeric_string_to_int": 2}));
    assert_eq!(
        recorded["sessions"],
        json!([
            {"session": null, "total": 1, "outcomes": {"clean": 1}},
            {"session": "s1", "total": 3, "outcomes": {"clean": 1, "repaired": 1, "not_confirmed": 1}},
            {"session": "s2", "total": 3, "outcomes": {"rejected": 1, "unknown_tool": 1, "blocked": 1}},
        ])
    );
    // Hour buckets, the empty hour between included; the line without a time in none.
    assert_eq!(
        recorded["over_time"],
        json!({"bucket": "hour", "buckets": [
            {"start": "2026-12-04T13:00:00Z", "label": "2026-12-04T13:00Z", "total": 3,
             "outcomes": {"clean": 1, "repaired": 1, "rejected": 1}},
            {"start": "2026-12-04T14:00:00Z", "label": "2026-12-04T14:00Z", "total": 1,
             "outcomes": {"clean": 1}},
            {"start": "2026-12-04T15:00:00Z", "label": "2026-12-04T15:00Z", "total": 0,
             "outcomes": {}},
            {"start": "2026-12-04T16:00:00Z", "label": "2026-12-04T16:00Z", "total": 2,
             "outcomes": {"unknown_tool": 1, "not_confirmed": 1}},
        ]})
    );
    assert_eq!(recorded["untimed"], 1);
    assert_eq!(recorded["confirmed"], 1);
    assert_eq!(
        recorded["judged_again"],
        json!({"judged": 0, "not_judged": {"no_arguments": 7}, "compared": 0, "changed": 0,
               "changes": [], "examples": []})
    );
    // The line that is not JSON is a bad record, where it is; nothing was judged again.
    assert_eq!(
        report["bad_records"],
        json!({"not_json": {"count": 1, "first_lines": [5]}})
    );
    assert_eq!(
        report["bad_locations"]["not_json"],
        json!([format!("{log}:5")])
    );
    assert_eq!(
        (report["total"].as_u64(), report["ok_clean"].as_u64()),
        (Some(1), Some(0))
    );

    // The same counts in the text table.
    let (out, err, code) = replay(&[log]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("gate verdict log: 7 verdicts recorded, 1 bad records\n"),
        "{out}"
    );
    // Columns: verdicts, then clean, repaired, rejected, blocked, not_confirmed (the gate's
    // outcomes in their order), then unknown_tool.
    assert_eq!(
        text_row(&out, "recorded by tool", "refund"),
        ["refund", "4", "1", "1", "1", "0", "1", "0"]
    );
    assert_eq!(
        text_row(&out, "recorded by tool", "lookup"),
        ["lookup", "3", "1", "0", "0", "1", "0", "1"]
    );
    assert_eq!(
        text_row(&out, "recorded outcomes", "unknown_tool"),
        ["unknown_tool", "1", "14.29%"]
    );
    assert_eq!(
        text_row(&out, "recorded codes", "type"),
        ["type", "1", "14.29%"]
    );
    assert_eq!(
        text_row(&out, "recorded rules", "numeric_string_to_int"),
        ["numeric_string_to_int", "2"]
    );
    assert_eq!(
        text_row(&out, "recorded by session", "(none)"),
        ["(none)", "1", "1", "0", "0", "0", "0", "0"]
    );
    assert_eq!(
        text_row(
            &out,
            "recorded by hour (UTC, 1 verdicts without a time not shown)",
            "2026-12-04T15:00Z"
        ),
        ["2026-12-04T15:00Z", "0", "0", "0", "0", "0", "0", "0"]
    );
    assert_eq!(
        text_row(&out, "recorded by hour", "2026-12-04T16:00Z"),
        ["2026-12-04T16:00Z", "2", "0", "0", "0", "0", "1", "1"]
    );
    assert_eq!(
        text_row(&out, "bad records", "not_json"),
        ["not_json", "(lines", "5)", "1"]
    );
    // The replay's own counters say nothing of calls it did not judge.
    assert!(!out.contains("ok_clean"), "{out}");
    let _ = std::fs::remove_file(log);
}

#[test]
fn every_format_reports_the_recorded_verdicts() {
    let log = write("formats.jsonl", VERDICTS);
    let log = log.to_str().unwrap();
    let (markdown, _, code) = replay(&["--format", "markdown", log]);
    assert_eq!(code, 0);
    assert!(
        markdown.starts_with("Gate verdict log: **7** verdicts recorded, **1** bad records\n"),
        "{markdown}"
    );
    assert!(
        markdown.contains("| refund | 4 | 1 | 1 | 1 | 0 | 1 | 0 |"),
        "{markdown}"
    );
    assert!(
        markdown.contains("| 2026-12-04T13:00Z | 3 | 1 | 1 | 1 | 0 | 0 | 0 |"),
        "{markdown}"
    );
    assert!(
        markdown.contains("| s2 | 3 | 0 | 0 | 1 | 1 | 0 | 1 |"),
        "{markdown}"
    );

    // The page leads with the chart, one group per hour, before any table.
    let (html, _, code) = replay(&["--format", "html", log]);
    assert_eq!(code, 0);
    let chart = html.find("<svg class=\"timeline\"").expect("a chart");
    assert!(chart < html.find("<table").unwrap(), "{html}");
    assert!(!html.contains("<script"), "{html}");
    let groups: Vec<&str> = html.split("<g class=\"bucket\"").skip(1).collect();
    assert_eq!(groups.len(), 4, "{html}");
    let starts: Vec<&str> = groups
        .iter()
        .map(|g| g.split('"').nth(1).unwrap())
        .collect();
    assert_eq!(
        starts,
        [
            "2026-12-04T13:00Z",
            "2026-12-04T14:00Z",
            "2026-12-04T15:00Z",
            "2026-12-04T16:00Z"
        ]
    );
    let totals: Vec<&str> = groups
        .iter()
        .map(|g| g.split('"').nth(3).unwrap())
        .collect();
    assert_eq!(totals, ["3", "1", "0", "2"]);
    // Each class of the 13:00 bucket is a bar of its own; the 16:00 outcomes are `other`.
    let first = groups[0].split("</g>").next().unwrap();
    for class in ["clean", "repaired", "rejected"] {
        assert!(
            first.contains(&format!("<rect class=\"{class}\"")),
            "{first}"
        );
    }
    let last = groups[3].split("</g>").next().unwrap();
    assert_eq!(last.matches("<rect class=\"other\"").count(), 1, "{last}");
    assert!(
        last.contains("<title>2026-12-04T16:00Z: 2 verdicts (other 2)</title>"),
        "{last}"
    );
    assert!(
        html.contains("<caption>recorded by tool</caption>"),
        "{html}"
    );
    assert!(
        html.contains("1 verdicts without a time are not shown"),
        "{html}"
    );

    // One verdict line per record, with the verdict recorded.
    let (jsonl, _, code) = replay(&["--format", "jsonl", log]);
    assert_eq!(code, 0);
    let lines: Vec<Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 8);
    assert_eq!(
        lines[1],
        json!({"file": log, "line": 2, "tool": "refund", "outcome": "not_judged",
               "reason": "no_arguments", "codes": [], "rules": [], "fields": [],
               "recorded": {"outcome": "repaired", "codes": [],
                            "rules": ["numeric_string_to_int", "numeric_string_to_int"]}})
    );
    assert_eq!(lines[4]["outcome"], "bad");
    assert_eq!(lines[4]["reason"], "not_json");
    assert_eq!(lines[5]["recorded"]["outcome"], "unknown_tool");
    let _ = std::fs::remove_file(log);
}

#[test]
fn a_log_over_more_than_two_days_counts_by_day() {
    let log = write(
        "days.jsonl",
        r#"{"time":1796389200.0,"session":"a","tool":"t","outcome":"clean","codes":[],"rules":[],"latency_us":1}
{"timestamp":"2026-12-05T23:59:59.999999Z","session":"a","tool":"t","outcome":"rejected","codes":["type"],"rules":[],"latency_us":1}
{"timestamp":"2026-12-07T00:00:00.000000Z","session":"a","tool":"t","outcome":"clean","codes":[],"rules":[],"latency_us":1}
{"timestamp":"2026-12-07T01:00:00+01:00","session":"a","tool":"t","outcome":"repaired","codes":[],"rules":["x"],"latency_us":1}
"#,
    );
    let log = log.to_str().unwrap();
    let report = report(&[log]);
    let over_time = &report["recorded"]["over_time"];
    assert_eq!(over_time["bucket"], "day");
    let days: Vec<(&str, u64)> = over_time["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["label"].as_str().unwrap(), b["total"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        days,
        [
            ("2026-12-04", 1),
            ("2026-12-05", 1),
            ("2026-12-06", 0),
            ("2026-12-07", 2)
        ]
    );
    let (html, _, _) = replay(&["--format", "html", log]);
    assert_eq!(html.matches("<g class=\"bucket\"").count(), 4);
    assert!(html.contains("verdicts per day (UTC)"), "{html}");
    let _ = std::fs::remove_file(log);
}

#[test]
fn calls_judged_again_report_where_today_decides_differently() {
    let tools = write(
        "tools.json",
        r#"[{"name": "refund", "inputSchema": {"type": "object",
            "properties": {"amount_cents": {"type": "integer"}}, "required": ["amount_cents"]}}]"#,
    );
    let line = |outcome: &str, codes: &str, tool: &str, arguments: Option<&str>| {
        let mut line = json!({"time": 1796389200.0, "session": "s", "tool": tool,
            "outcome": outcome, "codes": serde_json::from_str::<Value>(codes).unwrap(),
            "rules": [], "paths": [], "latency_us": 5});
        if let Some(arguments) = arguments {
            line["arguments"] = json!(arguments);
        }
        line.to_string() + "\n"
    };
    let text = [
        line("clean", "[]", "refund", Some(r#"{"amount_cents": 1999}"#)),
        line("clean", "[]", "refund", Some(r#"{"amount_cents": "1999"}"#)),
        line(
            "repaired",
            "[]",
            "refund",
            Some(r#"{"amount_cents": "lots"}"#),
        ),
        line(
            "rejected",
            r#"["type"]"#,
            "refund",
            Some(r#"{"amount_cents": 5}"#),
        ),
        line("tools_unavailable", "[]", "refund", Some("{}")),
        line("clean", "[]", "lookup", Some("{}")),
        line("clean", "[]", "refund", None),
    ]
    .concat();
    let log = write("judged.jsonl", &text);
    let (log, tools) = (log.to_str().unwrap(), tools.to_str().unwrap());
    let report = report(&["--tools", tools, log]);
    let judged = &report["recorded"]["judged_again"];
    assert_eq!(judged["judged"], 5, "{report:#}");
    assert_eq!(
        judged["not_judged"],
        json!({"no_arguments": 1, "no_definition": 1})
    );
    // The outcome no gate writes today is judged, not compared.
    assert_eq!(
        (judged["compared"].as_u64(), judged["changed"].as_u64()),
        (Some(4), Some(3))
    );
    assert_eq!(
        judged["changes"],
        json!([
            {"recorded": "clean", "today": "repaired", "count": 1},
            {"recorded": "rejected", "today": "clean", "count": 1},
            {"recorded": "repaired", "today": "rejected", "count": 1},
        ])
    );
    assert_eq!(
        judged["examples"],
        json!([
            {"at": format!("{log}:2"), "tool": "refund", "recorded": "clean", "recorded_codes": [],
             "today": "repaired", "codes": [], "rules": ["numeric_string_to_int"]},
            {"at": format!("{log}:3"), "tool": "refund", "recorded": "repaired", "recorded_codes": [],
             "today": "rejected", "codes": ["ambiguous_integer"], "rules": []},
            {"at": format!("{log}:4"), "tool": "refund", "recorded": "rejected",
             "recorded_codes": ["type"], "today": "clean", "codes": [], "rules": []},
        ])
    );
    // The calls judged again are the replay's own counts, as for any log of calls.
    assert_eq!(report["total"], 5);
    assert_eq!(
        (
            report["ok_clean"].as_u64(),
            report["ok_repaired"].as_u64(),
            report["rejected"].as_u64()
        ),
        (Some(2), Some(1), Some(2))
    );
    assert_eq!(report["recorded"]["records"], 7);

    let (out, _, code) = replay(&["--tools", tools, log]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with(
            "gate verdict log: 7 verdicts recorded, 5 judged again (3 decided differently today)\n"
        ),
        "{out}"
    );
    assert_eq!(
        text_row(&out, "decided differently today", "repaired"),
        ["repaired", "rejected", "1"]
    );
    let example = text_row(&out, "first decisions changed", &format!("{log}:3"));
    assert_eq!(
        example[1..],
        ["refund", "repaired", "rejected", "ambiguous_integer"]
    );
    assert!(
        out.contains("\ncalls judged again\n5 records: 5 calls, 0 bad records\n"),
        "{out}"
    );

    let (jsonl, _, _) = replay(&["--tools", tools, "--format", "jsonl", log]);
    let lines: Vec<Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[1]["outcome"], "repaired");
    assert_eq!(
        lines[1]["recorded"],
        json!({"outcome": "clean", "codes": [], "rules": [], "changed": true})
    );
    assert_eq!(lines[0]["recorded"]["changed"], false);
    assert_eq!(lines[4]["recorded"].get("changed"), None);
    assert_eq!(lines[5]["reason"], "no_definition");
    let _ = std::fs::remove_file(log);
    let _ = std::fs::remove_file(tools);
}

#[test]
fn input_format_gate_reads_verdicts_that_do_not_tell_their_format() {
    // Without a time or a latency the lines do not tell a gate's log: read as calls, they need
    // definitions; named a gate's log, they are its verdicts.
    let log = write(
        "untold.jsonl",
        "{\"tool\":\"a\",\"outcome\":\"clean\",\"codes\":[]}\n{\"tool\":\"a\",\"outcome\":\"future\",\"rules\":[]}\n[1]\n",
    );
    let log = log.to_str().unwrap();
    let (_, err, code) = replay(&[log]);
    assert_eq!(code, 2);
    assert!(err.contains("no tool definitions"), "{err}");
    let report = report(&["--input-format", "gate", log]);
    assert_eq!(report["recorded"]["records"], 2);
    assert_eq!(
        report["recorded"]["outcomes"],
        json!({"clean": 1, "future": 1})
    );
    assert_eq!(report["recorded"]["untimed"], 2);
    assert_eq!(report["recorded"]["over_time"]["buckets"], json!([]));
    assert_eq!(
        report["bad_records"],
        json!({"not_object": {"count": 1, "first_lines": [3]}})
    );
    // No chart without times; the tables still come.
    let (html, _, code) = replay(&["--input-format", "gate", "--format", "html", log]);
    assert_eq!(code, 0);
    assert!(!html.contains("<svg class=\"timeline\""), "{html}");
    assert!(
        html.contains("<caption>recorded outcomes</caption>"),
        "{html}"
    );
    let _ = std::fs::remove_file(log);
}

#[test]
fn a_verdict_log_on_standard_input_replays_as_the_file_does() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolargs"))
        .args(["replay", "--format", "json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(VERDICTS.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let piped: Value = serde_json::from_slice(&out.stdout).unwrap();
    let log = write("stdin.jsonl", VERDICTS);
    let from_file = report(&[log.to_str().unwrap()]);
    assert_eq!(piped["recorded"]["records"], 7);
    assert_eq!(piped["recorded"]["tools"], from_file["recorded"]["tools"]);
    assert_eq!(
        piped["recorded"]["over_time"],
        from_file["recorded"]["over_time"]
    );
    assert_eq!(piped["bad_locations"]["not_json"], json!(["-:5"]));
    let _ = std::fs::remove_file(log);
}

/// Verdict lines chained as `toolargs gate --log-chain` writes them: each `prev` the SHA-256 of
/// the line before, 64 zeros for the first.
fn chained(outcomes: &[&str]) -> Vec<String> {
    let mut prev = "0".repeat(64);
    outcomes
        .iter()
        .enumerate()
        .map(|(i, outcome)| {
            let line = format!(
                r#"{{"tool":"refund","outcome":"{outcome}","codes":[],"rules":[],"paths":[],"time":{},"timestamp":"2026-12-04T13:00:0{i}.000000Z","session":"s","latency_us":7,"prev":"{prev}"}}"#,
                1796389200 + i
            );
            prev = toolargs_gate::line_hash(line.as_bytes());
            line
        })
        .collect()
}

#[test]
fn the_hash_chain_is_verified_and_an_edited_line_found() {
    let lines = chained(&["clean", "rejected", "clean", "repaired"]);
    let intact = write("chain.jsonl", &(lines.join("\n") + "\n"));
    let intact = intact.to_str().unwrap();
    let intact_report = report(&[intact]);
    assert_eq!(
        intact_report["chains"],
        json!([{"file": intact, "lines": 4, "intact": true, "broken_at": null, "reason": null}])
    );
    let (out, _, code) = replay(&[intact]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("gate verdict log: 4 verdicts recorded, hash chain intact\n"),
        "{out}"
    );
    assert_eq!(
        text_row(&out, "hash chain (prev)", intact),
        [intact, "intact", "4"]
    );

    // The rejection edited into a clean call: the line after it no longer follows.
    let edited = lines
        .join("\n")
        .replacen(r#""outcome":"rejected""#, r#""outcome":"clean""#, 1)
        + "\n";
    let edited_log = write("chain-edited.jsonl", &edited);
    let log = edited_log.to_str().unwrap();
    let edited_report = report(&[log]);
    let chain = &edited_report["chains"][0];
    assert_eq!(
        (chain["intact"].as_bool(), chain["broken_at"].as_u64()),
        (Some(false), Some(3))
    );
    let expected = toolargs_gate::line_hash(edited.lines().nth(1).unwrap().as_bytes());
    assert_eq!(
        chain["reason"],
        format!(
            "prev is {}, expected {expected}",
            toolargs_gate::line_hash(lines[1].as_bytes())
        )
    );
    // Every format says where.
    let at = format!("hash chain broken at {log}:3");
    for format in ["table", "markdown", "html"] {
        let (out, _, code) = replay(&["--format", format, log]);
        assert_eq!(code, 0);
        assert!(out.contains(&at), "{format}: {out}");
        assert!(
            out.contains("breaks at line 3: prev is "),
            "{format}: {out}"
        );
    }
    let (html, _, _) = replay(&["--format", "html", log]);
    let alarm = html
        .find("<p class=\"alarm\">The hash chain breaks at")
        .expect("an alarm");
    assert!(alarm < html.find("<svg").unwrap(), "{html}");
    let (_, err, code) = replay(&["--format", "jsonl", log]);
    assert_eq!(code, 0);
    assert!(
        err.contains(&format!("{log}:3: the hash chain breaks: prev is ")),
        "{err}"
    );

    // A log without `prev` has no chain, and no word about one.
    let plain = write("chain-plain.jsonl", VERDICTS);
    let plain_report = report(&[plain.to_str().unwrap()]);
    assert_eq!(plain_report.get("chains"), None);

    // Named a gate's log, standard input is copied, and its chain checked too.
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolargs"))
        .args(["replay", "--input-format", "gate", "--format", "json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(edited.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let piped: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(piped["chains"][0]["file"], "-");
    assert_eq!(piped["chains"][0]["broken_at"], 3);
    for path in [intact, log, plain.to_str().unwrap()] {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn a_log_the_gate_wrote_replays_with_its_chain() {
    let log = std::env::temp_dir().join(format!(
        "toolargs-gate-logs-{}-written.jsonl",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&log);
    let server = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/echo_server.py");
    let mut gate = Command::new(env!("CARGO_BIN_EXE_toolargs"))
        .args(["gate", "--log-arguments", "--log-chain", "--log"])
        .arg(&log)
        .arg("--")
        .arg("python3")
        .arg(&server)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut to = gate.stdin.take().unwrap();
    let mut from = std::io::BufReader::new(gate.stdout.take().unwrap());
    let mut ask = |message: Value| {
        writeln!(to, "{message}").unwrap();
        let mut back = String::new();
        std::io::BufRead::read_line(&mut from, &mut back).unwrap();
        serde_json::from_str::<Value>(&back).unwrap()
    };
    ask(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}));
    ask(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    let call = |id: u32, arguments: Value| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "refund", "arguments": arguments}});
    ask(call(3, json!({"amount_cents": "1999"})));
    ask(call(4, json!({"amount_cents": 1999, "overwrite": true})));
    ask(call(5, json!({"amount_cents": 20000})));
    drop(to);
    gate.wait().unwrap();
    let path = log.to_str().unwrap();
    let recorded = report(&[path]);
    assert_eq!(
        recorded["recorded"]["outcomes"],
        json!({"repaired": 1, "rejected": 1, "clean": 1})
    );
    assert_eq!(recorded["recorded"]["untimed"], 0);
    assert_eq!(recorded["chains"][0]["intact"], true, "{recorded:#}");
    assert_eq!(recorded["chains"][0]["lines"], 3);
    // Today's definition caps refunds at 10000 cents: the clean call of 20000 is rejected.
    let tools = write(
        "written-tools.json",
        r#"[{"name": "refund", "inputSchema": {"type": "object", "properties": {
            "amount_cents": {"type": "integer", "minimum": 1, "maximum": 10000},
            "note": {"type": "string"}}, "required": ["amount_cents"]}}]"#,
    );
    let report = report(&["--tools", tools.to_str().unwrap(), path]);
    let judged = &report["recorded"]["judged_again"];
    assert_eq!(
        (judged["compared"].as_u64(), judged["changed"].as_u64()),
        (Some(3), Some(1))
    );
    assert_eq!(judged["examples"][0]["at"], format!("{path}:3"));
    assert_eq!(judged["examples"][0]["today"], "rejected");
    let _ = std::fs::remove_file(&log);
    let _ = std::fs::remove_file(&tools);
}

/// The cells of the row whose first cells are `first` in the text table titled `title`.
fn row_starting(out: &str, title: &str, first: &[&str]) -> Vec<String> {
    let section = out
        .split("\n\n")
        .find(|s| s.starts_with(title))
        .unwrap_or_else(|| panic!("no section {title}:\n{out}"));
    section
        .lines()
        .map(|l| l.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
        .find(|cells| cells.len() >= first.len() && cells[..first.len()] == *first)
        .unwrap_or_else(|| panic!("no row {first:?} in {title}:\n{section}"))
}

#[test]
fn meaning_counts_decisions_by_tool_and_findings_by_field() {
    // The log of a gate whose policy declares issue_refund's amount (money, critical) and
    // order (an entity): dollars where cents go and a correction 100 times the amount, the
    // one meant, a duplicate, a correction to another order and amount, one to another order
    // only, and a correction past the budget.
    let log = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/gate_meaning.jsonl");
    let log = log.to_str().unwrap();
    let report = report(&[log]);
    let recorded = &report["recorded"];
    assert_eq!(
        recorded["outcomes"],
        json!({"rejected": 2, "refused": 5, "clean": 1})
    );
    assert_eq!(
        recorded["meaning"],
        json!({
            "decisions": {"issue_refund": {"reject": 2, "proceed": 1, "confirm": 1, "duplicate": 1}},
            "findings": [
                {"tool": "issue_refund", "field": "$.amount_cents", "total": 2,
                 "verdicts": {"changed": 2}},
                {"tool": "issue_refund", "field": "$.order_id", "total": 2,
                 "verdicts": {"unverified": 2}},
            ],
        }),
        "{report:#}"
    );
    assert_eq!(
        recorded["codes"],
        json!({"ambiguous_integer": 2, "meaning_changed": 2, "duplicate_action": 1,
               "confirmation_required": 1, "retry_budget_exhausted": 1})
    );

    // The same counts in the text tables: decisions in the gate's order, differences in
    // meaning before doubts.
    let (out, err, code) = replay(&[log]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        row_starting(&out, "meaning decisions by tool", &["tool"]),
        [
            "tool",
            "decisions",
            "proceed",
            "confirm",
            "reject",
            "duplicate"
        ]
    );
    assert_eq!(
        row_starting(&out, "meaning decisions by tool", &["issue_refund"]),
        ["issue_refund", "5", "1", "1", "2", "1"]
    );
    let findings = "meaning findings by field";
    assert_eq!(
        row_starting(&out, findings, &["tool"]),
        ["tool", "field", "findings", "changed", "unverified"]
    );
    assert_eq!(
        row_starting(&out, findings, &["issue_refund", "$.amount_cents"]),
        ["issue_refund", "$.amount_cents", "2", "2", "0"]
    );
    assert_eq!(
        row_starting(&out, findings, &["issue_refund", "$.order_id"]),
        ["issue_refund", "$.order_id", "2", "0", "2"]
    );
    let (markdown, _, _) = replay(&["--format", "markdown", log]);
    assert!(
        markdown.contains("| issue_refund | $.amount_cents | 2 | 2 | 0 |"),
        "{markdown}"
    );

    // A log without meaning has no such tables.
    let plain = write("no-meaning.jsonl", VERDICTS);
    let (out, _, _) = replay(&[plain.to_str().unwrap()]);
    assert!(!out.contains("meaning"), "{out}");
    let _ = std::fs::remove_file(plain);
}
