//! Amazon Bedrock's Converse API at the command line: `--help` lists its dialect and its log
//! format, `lint` says what Bedrock refuses, `replay` reads Converse logs with the definitions
//! their requests carry, and `check` takes a Converse tool list.

use assert_cmd::Command;
use serde_json::{json, Value};

/// Runs `toolargs ARGS` with `stdin`; stdout, stderr and exit code.
fn toolargs(args: &[&str], stdin: &str) -> (String, String, i32) {
    let out = Command::cargo_bin("toolargs")
        .unwrap()
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

fn tool_config() -> Value {
    json!({"tools": [
        {"toolSpec": {"name": "get_weather", "description": "Weather in a city.", "inputSchema": {"json": {
            "type": "object", "properties": {"city": {"type": "string", "maxLength": 40},
            "days": {"type": "integer", "minimum": 1}}, "required": ["city"]}}}},
        {"toolSpec": {"name": "get.time", "inputSchema": {"json": {"type": "object"}}}}
    ]})
}

#[test]
fn the_help_lists_the_bedrock_dialect_and_log_format() {
    for (command, value) in [
        ("lint", "bedrock_converse"),
        ("gate", "bedrock_converse"),
        ("replay", "bedrock_converse"),
        ("replay", "bedrock"),
    ] {
        let (help, _, code) = toolargs(&[command, "--help"], "");
        assert_eq!(code, 0);
        let listed = help
            .lines()
            .filter_map(|l| l.trim().strip_prefix("[possible values: "))
            .any(|list| list.trim_end_matches(']').split(", ").any(|v| v == value));
        assert!(
            listed,
            "toolargs {command} --help does not list {value}:\n{help}"
        );
    }
}

#[test]
fn lint_says_which_name_bedrock_refuses() {
    let (out, _, code) = toolargs(
        &[
            "lint",
            "-",
            "--dialect",
            "bedrock_converse",
            "--format",
            "json",
        ],
        &tool_config().to_string(),
    );
    assert_eq!(code, 1, "{out}");
    let report: Value = serde_json::from_str(&out).unwrap();
    let findings = report["findings"].as_array().unwrap();
    let of = |tool: &str| findings.iter().find(|f| f["tool"] == tool).unwrap();
    assert_eq!(of("get_weather")["dialect"], "bedrock_converse");
    assert_eq!(of("get_weather")["refusals"], json!([]));
    assert_eq!(of("get_weather")["changes"], json!([]));
    let refusals = of("get.time")["refusals"].as_array().unwrap();
    assert!(
        refusals[0]
            .as_str()
            .unwrap()
            .contains("^[a-zA-Z0-9_-]{1,64}$"),
        "{out}"
    );
    // The same tools pass for a provider that takes the name.
    let (_, _, code) = toolargs(
        &["lint", "-", "--dialect", "gemini"],
        &tool_config().to_string(),
    );
    assert_eq!(code, 0);
}

/// One Converse exchange whose response calls `get_weather` with each of `calls`.
fn exchange(calls: &[Value]) -> String {
    let content: Vec<Value> = calls
        .iter()
        .map(|input| json!({"toolUse": {"toolUseId": "tooluse_1", "name": "get_weather", "input": input}}))
        .collect();
    json!({
        "request": {"modelId": "amazon.nova-lite-v1:0", "messages": [], "toolConfig": tool_config()},
        "response": {"output": {"message": {"role": "assistant", "content": content}}, "stopReason": "tool_use"}
    })
    .to_string()
}

#[test]
fn replay_reads_a_converse_log_and_its_definitions() {
    let log = [
        exchange(&[json!({"city": "Lyon"})]),
        exchange(&[
            json!({"city": "Oslo", "days": "3"}),
            json!({"town": "Oslo"}),
        ]),
        exchange(&[]),
    ]
    .join("\n");
    for format in ["auto", "bedrock"] {
        let (out, err, code) = toolargs(
            &["replay", "--input-format", format, "--format", "json", "-"],
            &log,
        );
        assert_eq!(code, 0, "{err}");
        let report: Value = serde_json::from_str(&out).unwrap();
        let count = |key: &str| report[key].as_u64().unwrap();
        assert_eq!(
            [
                count("total"),
                count("ok_clean"),
                count("ok_repaired"),
                count("rejected")
            ],
            [3, 1, 1, 1],
            "{format}: {out}"
        );
        assert_eq!(count("without_calls"), 1, "{format}");
    }
    let (_, err, code) = toolargs(&["replay", "--input-format", "converse", "-"], &log);
    assert_eq!(code, 2);
    assert!(err.contains("bedrock"), "{err}");
}

#[test]
fn check_takes_a_converse_tool_list() {
    let dir = std::env::temp_dir().join(format!("toolargs-bedrock-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tools = dir.join("tools.json");
    std::fs::write(&tools, tool_config().to_string()).unwrap();
    let tools = tools.to_str().unwrap();
    let check = |arguments: &str| {
        toolargs(
            &[
                "check",
                "--tools",
                tools,
                "--tool",
                "get_weather",
                arguments,
            ],
            "",
        )
    };
    let (out, err, code) = check(r#"{"city": "Lyon", "days": "2"}"#);
    assert_eq!(code, 0, "{out}{err}");
    let (out, err, code) = check(r#"{"city": 7}"#);
    assert_eq!(code, 1, "{out}{err}");
    std::fs::remove_dir_all(&dir).ok();
}
