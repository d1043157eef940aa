//! `toolargs lint`: what each provider would refuse or not be shown of a list of tools, from a
//! file, standard input, an MCP `tools/list` response or a server it starts; and its exit code.

use assert_cmd::Command;
use serde_json::{json, Value};

mod common;
use common::data;

/// Runs `toolargs lint ARGS` with `stdin`; stdout, stderr and exit code.
fn lint(args: &[&str], stdin: &str) -> (String, String, i32) {
    let out = Command::cargo_bin("toolargs")
        .unwrap()
        .arg("lint")
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

fn tools() -> String {
    json!({"tools": [
        {"name": "get.weather", "inputSchema": {"type": "object",
            "properties": {"city": {"type": "string", "maxLength": 40}}, "required": ["city"]}},
        {"name": "refund", "inputSchema": {"type": "object",
            "properties": {"amount_cents": {"type": "integer", "minimum": 1}},
            "required": ["amount_cents"], "additionalProperties": false}},
        {"name": "broken", "inputSchema": {"type": "object", "properties": {"x": {"$dynamicRef": "#a"}}}}
    ]})
    .to_string()
}

#[test]
fn a_name_a_provider_refuses_is_exit_1_and_each_lowered_keyword_a_row() {
    let (out, _, code) = lint(
        &["-", "--dialect", "anthropic,openai_chat_strict"],
        &tools(),
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("2 tools: 2 refusals,"), "{out}");
    assert!(out.contains("1 definitions that do not load"), "{out}");
    let row = |needle: &[&str]| out.lines().any(|l| needle.iter().all(|n| l.contains(n)));
    assert!(
        row(&[
            "get.weather",
            "anthropic",
            "name",
            "refused: Anthropic takes names"
        ]),
        "{out}"
    );
    assert!(
        row(&[
            "get.weather",
            "openai_chat_strict",
            "/properties/city",
            "maxLength",
            "said in the description",
            "enforces"
        ]),
        "{out}"
    );
    assert!(!row(&["refund", "anthropic"]), "{out}");
    assert!(out.contains("does not load: `broken`"), "{out}");
}

#[test]
fn json_lists_every_finding_and_the_totals() {
    let (out, _, code) = lint(&["-", "--format", "json", "--dialect", "gemini"], &tools());
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["refusals"], json!(0));
    assert_eq!(report["unloaded"].as_array().unwrap().len(), 1);
    let refund = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["tool"] == "refund")
        .unwrap();
    assert_eq!(refund["dialect"], json!("gemini"));
    assert_eq!(
        refund["changes"],
        json!([{"path": "", "keyword": "additionalProperties", "instead": "nothing", "enforced": true, "exact": false}])
    );
}

#[test]
fn tools_every_provider_takes_whole_pass_and_deny_lowered_fails_on_any_lowering() {
    let clean = json!([{"name": "lookup", "inputSchema": {"type": "object",
        "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}, "required": ["q"]}}])
    .to_string();
    let (out, _, code) = lint(&["-", "--dialect", "anthropic,mcp"], &clean);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.starts_with(
            "1 tools: 0 refusals, 0 keywords not shown as written, 0 shown another way"
        ),
        "{out}"
    );
    // Strict mode's `null` for the absent property is a row only with --all.
    let (out, _, _) = lint(&["-", "--dialect", "openai_chat_strict"], &clean);
    assert!(
        out.contains("1 shown another way that means the same (rows with --all)"),
        "{out}"
    );
    assert!(!out.contains("required and nullable"), "{out}");
    let (out, _, _) = lint(&["-", "--dialect", "openai_chat_strict", "--all"], &clean);
    assert!(out.contains("required and nullable"), "{out}");
    let (_, _, code) = lint(&["-", "--dialect", "anthropic", "--deny-lowered"], &clean);
    assert_eq!(code, 0);
    // Strict mode's `null` for an absent property means the same: not a lowering.
    let (_, _, code) = lint(
        &["-", "--dialect", "openai_chat_strict", "--deny-lowered"],
        &clean,
    );
    assert_eq!(code, 0);
    let closed = json!([{"name": "lookup", "inputSchema": {"type": "object",
        "properties": {"q": {"type": "string"}}, "additionalProperties": false}}])
    .to_string();
    let (out, _, code) = lint(&["-", "--dialect", "gemini"], &closed);
    assert_eq!(code, 0, "{out}");
    let (_, _, code) = lint(&["-", "--dialect", "gemini", "--deny-lowered"], &closed);
    assert_eq!(code, 1);
}

#[test]
fn an_mcp_tools_list_response_and_a_server_it_starts_are_read_alike() {
    let response = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
        {"name": "lookup", "inputSchema": {"type": "object", "properties": {
            "q": {"type": "string"}, "ask": {"type": "boolean"}}},
         "annotations": {"readOnlyHint": true}},
        {"name": "refund", "inputSchema": {"type": "object", "properties": {
            "amount_cents": {"type": "integer", "minimum": 1, "maximum": 50000},
            "note": {"type": "string"}}, "required": ["amount_cents"]}}
    ]}});
    let args = ["--format", "json", "--dialect", "openai_chat_strict,gemini"];
    let mut from_file = vec!["-"];
    from_file.extend(args);
    let (listed, _, code) = lint(&from_file, &response.to_string());
    assert_eq!(code, 0, "{listed}");
    let mut from_server: Vec<&str> = args.to_vec();
    let server = data("echo_server.py");
    from_server.extend(["--", "python3", server.to_str().unwrap()]);
    let (asked, err, code) = lint(&from_server, "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        serde_json::from_str::<Value>(&asked).unwrap(),
        serde_json::from_str::<Value>(&listed).unwrap()
    );
}

#[test]
fn usage_errors_are_exit_2() {
    let (_, err, code) = lint(&["-", "--dialect", "openai"], "[]");
    assert_eq!(code, 2);
    assert!(err.contains("openai_chat_strict"), "{err}");
    let (_, err, code) = lint(&[], "");
    assert_eq!(code, 2);
    assert!(err.contains("-- COMMAND"), "{err}");
    let (_, err, code) = lint(&["-"], "not json");
    assert_eq!(code, 2, "{err}");
    // A server that ends without answering.
    let (_, err, code) = lint(&["--", "python3", "-c", "pass"], "");
    assert_eq!(code, 2);
    assert!(err.contains("closed its output before answering"), "{err}");
}

#[test]
fn replay_links_a_fields_rejections_to_the_keywords_the_model_was_not_shown() {
    let dir = std::env::temp_dir().join(format!("toolargs-shown-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tools = dir.join("tools.json");
    std::fs::write(
        &tools,
        json!([{"name": "order", "inputSchema": {"type": "object",
            "properties": {"sku": {"type": "string", "maxLength": 4}},
            "required": ["sku"], "additionalProperties": false}}])
        .to_string(),
    )
    .unwrap();
    let log = dir.join("calls.jsonl");
    std::fs::write(
        &log,
        "{\"tool\":\"order\",\"arguments\":\"{\\\"sku\\\":\\\"abcdef\\\"}\"}\n{\"tool\":\"order\",\"arguments\":\"{\\\"sku\\\":\\\"ab\\\"}\"}\n",
    )
    .unwrap();
    let run = |format: &str| {
        let out = Command::cargo_bin("toolargs")
            .unwrap()
            .args([
                "replay",
                "--shown",
                "openai_chat_strict",
                "--format",
                format,
                "--tools",
            ])
            .arg(&tools)
            .arg(&log)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let report: Value = serde_json::from_str(&run("json")).unwrap();
    assert_eq!(report["rejections"], json!({"length": 1}));
    assert_eq!(
        report["not_shown"],
        json!({"dialect": "openai_chat_strict", "tools": {"order": {"$.sku": [
            {"keyword": "maxLength", "instead": "said in the description"}]}}})
    );
    let html = run("html");
    assert!(
        html.contains("not shown to the model (openai_chat_strict)"),
        "{html}"
    );
    assert!(
        html.contains("<code>maxLength</code> (said in the description)"),
        "{html}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
