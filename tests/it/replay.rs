//! Replay from Rust: derived types and loaded specs as judges, counted over JSON Lines logs.

use crate::common::IssueRefund;
use serde_json::json;
use toolargs::dynamic::LoadWarning;
use toolargs::replay::{BadRecord, Outcome, Replayer, ToolSet, Typed, LOAD_WARNINGS_SHOWN};
use toolargs::{Judge, ParseOptions, Parsed, RawArgs, Rejection, Rule, Spec, ToolArgs};

/// The five sample lines of the policy's replay walkthrough.
const SAMPLE: &str = r#"{"id": 1, "arguments": "{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":1999,\"reason\":\"late\"}"}
{"id": 2, "arguments": "{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":\"1999\",\"reason\":\"late\"}"}
{"id": 3, "arguments": "{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":\"19.99\",\"reason\":\"late\"}"}
{"id": 4, "arguments": "```json\n{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":1999,\"reason\":\"late\"}\n```"}
{"id": 5, "arguments": {"order_id": "ord_A1b2C3d4", "amount": 1999, "reason": "late"}}
"#;

fn typed_set() -> ToolSet {
    let mut tools = ToolSet::new();
    tools.insert(IssueRefund::NAME, Typed::<IssueRefund>::new());
    tools
}

#[test]
fn the_sample_log_counts_as_documented() {
    let tools = typed_set();
    let report = Replayer::new(&tools, vec![])
        .run(SAMPLE.as_bytes(), 2, |_| {})
        .unwrap();
    let t = &report.overall;
    assert_eq!(
        (t.total, t.ok_clean, t.ok_repaired, t.rejected),
        (5, 1, 2, 2)
    );
    assert_eq!(t.repairs.get("numeric_string_to_int"), Some(&1));
    assert_eq!(t.repairs.get("strip_code_fence"), Some(&1));
    assert_eq!(t.rejections.get("ambiguous_integer"), Some(&1));
    assert_eq!(t.rejections.get("unknown_field"), Some(&1));
}

#[test]
fn a_derived_type_and_its_loaded_schema_replay_the_same() {
    let mut spec_tools = ToolSet::new();
    spec_tools.insert(
        IssueRefund::NAME,
        Spec::from_schema(&IssueRefund::json_schema()).unwrap(),
    );
    let typed = typed_set();
    let a = Replayer::new(&typed, vec![])
        .run(SAMPLE.as_bytes(), 1, |_| {})
        .unwrap();
    let b = Replayer::new(&spec_tools, vec![])
        .run(SAMPLE.as_bytes(), 1, |_| {})
        .unwrap();
    assert_eq!(a.to_json(), b.to_json());
}

#[test]
fn outcomes_list_every_repair_and_each_code_once() {
    let judge = Typed::<IssueRefund>::new();
    let outcome =
        |raw| Outcome::from_result(judge.check(&RawArgs::from(raw), &ParseOptions::DEFAULT));
    let raw =
        json!({"order_id": "ord_A1b2C3d4", "amount_cents": "1999", "reason": "LATE", "tags": "x"});
    assert_eq!(
        outcome(&raw),
        Outcome::Repaired(vec![
            Rule::NumericStringToInt,
            Rule::EnumCasefold,
            Rule::ScalarToList
        ])
    );
    let raw = json!({"order_id": 1, "amount_cents": true, "reason": "late", "tags": [1, 2]});
    match outcome(&raw) {
        Outcome::Rejected(codes) => assert_eq!(
            codes.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
            ["type"]
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn big_logs_keep_line_numbers_and_do_not_depend_on_workers() {
    let clean = r#"{"tool":"issue_refund","model":"m1","arguments":"{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":5,\"reason\":\"late\"}"}"#;
    let mut log = String::new();
    let bad_lines = [7u64, 40_001, 99_999];
    for line in 1..=100_000u64 {
        if bad_lines.contains(&line) {
            log.push_str("not json\n");
        } else if line % 3 == 0 {
            log.push_str(&clean.replace("m1", "m2"));
            log.push('\n');
        } else {
            log.push_str(clean);
            log.push('\n');
        }
    }
    log.push_str("   \n"); // a blank last line is not a record
    let tools = typed_set();
    let replayer = Replayer::new(&tools, vec!["model".into()]);
    let one = replayer.run(log.as_bytes(), 1, |_| {}).unwrap();
    let four = replayer.run(log.as_bytes(), 4, |_| {}).unwrap();
    assert_eq!(one, four);
    assert_eq!(one.overall.total, 100_000);
    assert_eq!(one.overall.bad_records.get(&BadRecord::NotJson), Some(&3));
    assert_eq!(
        one.overall.bad_lines.get(&BadRecord::NotJson),
        Some(&bad_lines.to_vec())
    );
    assert_eq!(one.groups.len(), 2);
    assert_eq!(one.overall.ok_clean, 100_000 - 3);
    let mut progress = 0;
    replayer
        .run(log.as_bytes(), 2, |bytes| progress = bytes)
        .unwrap();
    assert_eq!(progress, log.len() as u64);
}

#[test]
fn crlf_endings_and_invalid_utf8_lines_are_handled_line_by_line() {
    let clean = br#"{"tool":"issue_refund","arguments":{"order_id":"ord_A1b2C3d4","amount_cents":5,"reason":"late"}}"#;
    // Enough lines to span several blocks, CRLF endings throughout, and two lines that are not
    // UTF-8: each is its own bad record, and every other line of its block still counts.
    let mut log = Vec::new();
    let bad_lines = [3u64, 20_000];
    for line in 1..=20_000u64 {
        if bad_lines.contains(&line) {
            log.extend_from_slice(b"{\"tool\":\"issue_refund\",\"arguments\":\"\xff\xfe\"}");
        } else {
            log.extend_from_slice(clean);
        }
        log.extend_from_slice(b"\r\n");
    }
    let tools = typed_set();
    let replayer = Replayer::new(&tools, vec![]);
    let report = replayer.run(&log[..], 2, |_| {}).unwrap();
    assert_eq!(report.overall.total, 20_000);
    assert_eq!(report.overall.ok_clean, 20_000 - 2);
    assert_eq!(
        report.overall.bad_lines.get(&BadRecord::NotJson),
        Some(&bad_lines.to_vec())
    );
}

/// Two good definitions around one whose schema names a type that does not exist.
const PARTIAL_TOOLS: &str = r#"{"tools": [
  {"name": "issue_refund", "input_schema": {"type": "object", "properties": {
    "order_id": {"type": "string", "pattern": "^ord_[A-Za-z0-9]{8}$"},
    "amount_cents": {"type": "integer", "minimum": 1}
  }, "required": ["order_id", "amount_cents"], "additionalProperties": false}},
  {"type": "function", "function": {"name": "archive_order", "parameters": {"type": "object", "properties": {
    "order_id": {"type": "no-such-type"}
  }}}},
  {"name": "get_time", "inputSchema": {"type": "object", "properties": {"zone": {"type": "string"}}}}
]}"#;

const PARTIAL_LOG: &str = r#"{"tool": "issue_refund", "model": "a", "arguments": {"order_id": "ord_A1b2C3d4", "amount_cents": 5}}
{"tool": "issue_refund", "model": "b", "arguments": "{\"order_id\":\"ord_A1b2C3d4\",\"amount_cents\":\"5\"}"}
{"tool": "issue_refund", "model": "b", "arguments": {"order_id": "nope", "amount_cents": 5}}
{"tool": "archive_order", "model": "a", "arguments": {"order_id": "ord_A1b2C3d4"}}
{"tool": "get_time", "model": "a", "arguments": "{\"zone\":\"UTC\"}"}
{"tool": "archive_order", "model": "b", "arguments": "not even JSON"}
{"tool": "cancel_order", "model": "a", "arguments": {}}
{"tool": "archive_order", "model": "a"}
"#;

#[test]
fn a_broken_definition_leaves_the_others_replaying_and_its_calls_unchecked() {
    let err = ToolSet::from_json(PARTIAL_TOOLS).err().unwrap();
    let tools = ToolSet::from_json_lenient(PARTIAL_TOOLS).unwrap();
    assert_eq!(
        tools.names().collect::<Vec<_>>(),
        ["get_time", "issue_refund"]
    );
    let refused = tools.refused();
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0].index, 1);
    assert_eq!(refused[0].name.as_deref(), Some("archive_order"));
    assert!(
        refused[0]
            .error
            .pointer
            .starts_with("/tools/1/function/parameters/properties/order_id"),
        "{:?}",
        refused[0].error
    );
    assert!(refused[0].error.message.contains("no-such-type"));
    // The strict loader fails on the same definition.
    assert_eq!(err, refused[0].error);

    let report = Replayer::new(&tools, vec!["model".into()])
        .run(PARTIAL_LOG.as_bytes(), 2, |_| {})
        .unwrap();
    let t = &report.overall;
    assert_eq!(t.total, 8);
    assert_eq!(
        (t.ok_clean, t.ok_repaired, t.rejected, t.calls()),
        (2, 1, 1, 4)
    );
    assert_eq!(t.repairs.get("numeric_string_to_int"), Some(&1));
    assert_eq!(t.rejections.get("pattern"), Some(&1));
    // Its arguments are not looked at: even text that is not JSON is only unchecked.
    assert_eq!(t.unchecked, 2);
    assert_eq!(t.unchecked_tools.get("archive_order"), Some(&2));
    // A tool that is in no definition is still unknown, and a record without arguments bad.
    assert_eq!(t.bad_records.get(&BadRecord::UnknownTool), Some(&1));
    assert_eq!(t.bad_records.get(&BadRecord::MissingArguments), Some(&1));
    let by_model: Vec<u64> = report.groups.values().map(|(_, g)| g.unchecked).collect();
    assert_eq!(by_model, [1, 1]);

    assert_eq!(report.refused, tools.refused());
    let json = report.to_json();
    assert_eq!(json["unchecked"], json!(2));
    assert_eq!(json["unchecked_tools"], json!({"archive_order": 2}));
    assert_eq!(json["refused_definitions"][0]["index"], json!(1));
    assert_eq!(
        json["refused_definitions"][0]["tool"],
        json!("archive_order")
    );
    assert_eq!(
        json["refused_definitions"][0]["pointer"],
        json!(refused[0].error.pointer)
    );
    assert_eq!(
        json["refused_definitions"][0]["reason"],
        json!(refused[0].error.message)
    );
    assert_eq!(json["groups"][0]["unchecked"], json!(1));
    // The same counts on one worker.
    let one = Replayer::new(&tools, vec!["model".into()])
        .run(PARTIAL_LOG.as_bytes(), 1, |_| {})
        .unwrap();
    assert_eq!(one, report);
}

#[test]
fn a_record_without_a_tool_is_unchecked_only_when_the_one_definition_was_refused() {
    let log = "{\"arguments\": {}}\n";
    let only_broken = r#"[{"name": "t", "parameters": {"type": "no-such-type"}}]"#;
    let tools = ToolSet::from_json_lenient(only_broken).unwrap();
    assert!(tools.is_empty());
    let report = Replayer::new(&tools, vec![])
        .run(log.as_bytes(), 1, |_| {})
        .unwrap();
    assert_eq!(report.overall.unchecked, 1);

    // One good and one refused definition: the record could be meant for either.
    let two = r#"[{"name": "t", "parameters": {"type": "no-such-type"}},
                  {"name": "u", "parameters": {"type": "object"}}]"#;
    let tools = ToolSet::from_json_lenient(two).unwrap();
    let report = Replayer::new(&tools, vec![])
        .run(log.as_bytes(), 1, |_| {})
        .unwrap();
    assert_eq!(report.overall.unchecked, 0);
    assert_eq!(
        report.overall.bad_records.get(&BadRecord::MissingTool),
        Some(&1)
    );
}

#[test]
fn a_nameless_or_second_definition_of_a_name_is_refused_in_a_set() {
    let text = r#"{"tools": [
        {"name": "t", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}}},
        {"parameters": {"type": "object"}},
        {"name": "t", "parameters": {"type": "object"}}
    ]}"#;
    let tools = ToolSet::from_json_lenient(text).unwrap();
    assert_eq!(tools.names().collect::<Vec<_>>(), ["t"]);
    let refused: Vec<(usize, Option<&str>, &str)> = tools
        .refused()
        .iter()
        .map(|r| (r.index, r.name.as_deref(), r.error.pointer.as_str()))
        .collect();
    assert_eq!(refused, [(1, None, "/tools/1"), (2, Some("t"), "/tools/2")]);
    // The first `t` stays and judges the calls to `t`: `b` is unknown to it.
    let log = r#"{"tool": "t", "arguments": {"b": 1}}"#;
    let report = Replayer::new(&tools, vec![])
        .run(log.as_bytes(), 1, |_| {})
        .unwrap();
    assert_eq!((report.overall.rejected, report.overall.unchecked), (1, 0));
    assert_eq!(ToolSet::from_json(text).err().unwrap().pointer, "/tools/1");
}

/// A judge that says what loading noticed.
struct Noticed(Vec<LoadWarning>);

impl Judge for Noticed {
    type Output = IssueRefund;

    fn parse(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Parsed<IssueRefund>, Rejection> {
        Typed::<IssueRefund>::new().parse(raw, options)
    }

    fn parse_json(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Parsed<serde_json::Value>, Rejection> {
        Typed::<IssueRefund>::new().parse_json(raw, options)
    }

    fn load_warnings(&self) -> &[LoadWarning] {
        &self.0
    }
}

#[test]
fn load_warnings_reach_the_report_counted_with_the_first_few_shown() {
    let warnings: Vec<LoadWarning> = (0..LOAD_WARNINGS_SHOWN + 3)
        .map(|i| {
            LoadWarning::new(
                format!("/properties/f{i}/format"),
                format!("format `f{i}` is not checked"),
            )
        })
        .collect();
    let mut tools = ToolSet::new();
    tools.insert(IssueRefund::NAME, Noticed(warnings.clone()));
    let report = Replayer::new(&tools, vec![])
        .run(SAMPLE.as_bytes(), 1, |_| {})
        .unwrap();
    assert_eq!(report.overall.calls(), 5);
    assert_eq!(report.load_warnings.len(), LOAD_WARNINGS_SHOWN + 3);
    assert_eq!(report.load_warnings[0].tool, IssueRefund::NAME);
    assert_eq!(report.load_warnings[0].warning, warnings[0]);
    let json = report.to_json();
    assert_eq!(
        json["load_warnings"]["count"],
        json!(LOAD_WARNINGS_SHOWN + 3)
    );
    assert_eq!(
        json["load_warnings"]["first"].as_array().unwrap().len(),
        LOAD_WARNINGS_SHOWN
    );
    assert_eq!(
        json["load_warnings"]["first"][1],
        json!({"tool": IssueRefund::NAME, "pointer": "/properties/f1/format", "message": "format `f1` is not checked"})
    );
}

/// A chat completion record calling `issue_refund` with `arguments` (JSON text).
fn chat_record(arguments: &str) -> String {
    json!({"model": "m", "choices": [{"index": 0, "message": {"role": "assistant", "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "issue_refund", "arguments": arguments}}
    ]}}]})
    .to_string()
}

#[test]
fn many_sources_of_several_formats_do_not_depend_on_workers() {
    use toolargs::replay::{InputFormat, Location, LogSource};

    let clean = r#"{"order_id":"ord_A1b2C3d4","amount_cents":5,"reason":"late"}"#;
    let quoted = r#"{"order_id":"ord_A1b2C3d4","amount_cents":"5","reason":"late"}"#;
    let invented = r#"{"order_id":"ord_A1b2C3d4","amount":5,"reason":"late"}"#;
    let mut chat = String::new();
    let mut lines = String::new();
    for line in 1..=30_000u64 {
        let arguments = match line % 10 {
            3 => quoted,
            7 => invented,
            _ => clean,
        };
        chat.push_str(&chat_record(arguments));
        chat.push('\n');
        lines.push_str(&json!({"tool": "issue_refund", "arguments": arguments}).to_string());
        lines.push('\n');
    }
    chat.push_str("{\"choices\": [\n");
    let tools = typed_set();
    let replayer = Replayer::new(&tools, vec![]).with_verdicts(false);
    let run = |workers: usize| {
        let sources = [
            ("chat.jsonl", chat.as_str()),
            ("calls.jsonl", lines.as_str()),
        ]
        .map(|(name, text)| {
            Ok(LogSource {
                name: name.to_owned(),
                format: InputFormat::Auto,
                reader: Box::new(text.as_bytes()),
            })
        });
        let mut verdicts = Vec::new();
        let report = replayer
            .run_sources(sources, workers, |_| {}, Some(&mut verdicts))
            .unwrap();
        (report, verdicts)
    };
    let (one, one_verdicts) = run(1);
    let (four, four_verdicts) = run(4);
    assert_eq!(one, four);
    assert_eq!(one_verdicts, four_verdicts);
    assert_eq!(one_verdicts.iter().filter(|b| **b == b'\n').count(), 60_001);
    let t = &one.overall;
    assert_eq!(
        (t.total, t.ok_clean, t.ok_repaired, t.rejected),
        (60_001, 48_000, 6_000, 6_000)
    );
    assert_eq!(
        t.bad_locations.get(&BadRecord::NotJson),
        Some(&vec![Location::new(0, 30_001)])
    );
    assert_eq!(one.sources, ["chat.jsonl", "calls.jsonl"]);
    let drill = &one.drill.tools["issue_refund"];
    assert_eq!(drill.calls, 60_000);
    assert_eq!(
        drill.fields["$.amount_cents"].repairs["numeric_string_to_int"],
        6_000
    );
    assert_eq!(drill.fields["$.amount"].rejections["unknown_field"], 6_000);
    assert_eq!(drill.fields["$.amount_cents"].rejections["missing"], 6_000);
    let examples: Vec<String> = one.drill.rejection_examples["missing"]
        .iter()
        .map(|at| one.location_text(*at))
        .collect();
    assert_eq!(examples, ["chat.jsonl:7", "chat.jsonl:17", "chat.jsonl:27"]);
}

/// Arguments logged as a JSON string are read where the record holds them whenever they can
/// be; chat completion records hand the same text over unescaped. Both must count alike, call
/// for call, whatever the arguments hold.
#[test]
fn arguments_read_where_the_log_holds_them_count_as_when_unescaped() {
    let mut seed = 7u64;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    const ORDER: &[&str] = &[
        r#""ord_A1b2C3d4""#,
        r#""ord_A1b2""#,
        r#""ord_A1b2\"C3d""#,
        "17",
        "null",
    ];
    const AMOUNT: &[&str] = &[
        "1999",
        r#""1999""#,
        "19.99",
        "1999.0",
        "1e3",
        "0",
        "true",
        "2000.0000000000000001",
    ];
    const REASON: &[&str] = &[
        r#""late""#,
        r#""Late""#,
        r#""l\u0061te""#,
        r#""ñ""#,
        r#""nope""#,
    ];
    let (mut lines, mut chat) = (String::new(), String::new());
    let mut read_as_logged = 0;
    for _ in 0..3_000 {
        // The first value of each list passes; it is sent half the time.
        let mut pick = |values: &[&'static str]| match next(2) {
            0 => values[0],
            _ => values[next(values.len() as u64) as usize],
        };
        let mut members = vec![
            format!(r#""order_id": {}"#, pick(ORDER)),
            format!(r#""amount_cents": {}"#, pick(AMOUNT)),
            format!(r#""reason": {}"#, pick(REASON)),
        ];
        if next(5) == 0 {
            members.push(r#""refund_all": true"#.to_owned());
        }
        if next(5) == 0 {
            members.swap(0, 2);
        }
        let space = [", ", ",", ",\n  "][next(3) as usize];
        let mut arguments = format!("{{{}}}", members.join(space));
        match next(12) {
            0 => arguments = format!("```json\n{arguments}\n```"),
            1 => arguments = json!(arguments).to_string(),
            2 => arguments.push_str(" x"),
            _ => {}
        }
        let record = json!({"tool": "issue_refund", "arguments": arguments}).to_string();
        let start = record.find(r#""arguments":""#).unwrap() + r#""arguments":""#.len();
        read_as_logged += usize::from(
            toolargs::ext::read_logged(&record[start..], &toolargs::Limits::DEFAULT).is_some(),
        );
        lines.push_str(&record);
        lines.push('\n');
        chat.push_str(&chat_record(&arguments));
        chat.push('\n');
    }
    let mut tools = ToolSet::new();
    tools.insert(
        IssueRefund::NAME,
        Spec::from_schema(&IssueRefund::json_schema()).unwrap(),
    );
    let replayer = Replayer::new(&tools, vec![]).with_verdicts(false);
    let run = |text: &str| {
        let source = toolargs::replay::LogSource {
            name: "calls.jsonl".to_owned(),
            format: toolargs::replay::InputFormat::Auto,
            reader: Box::new(text.as_bytes()),
        };
        let mut verdicts = Vec::new();
        let report = replayer
            .run_sources([Ok(source)], 2, |_| {}, Some(&mut verdicts))
            .unwrap();
        (report.to_json(), verdicts)
    };
    let (logged, logged_verdicts) = run(&lines);
    let (unescaped, unescaped_verdicts) = run(&chat);
    assert_eq!(logged, unescaped);
    assert_eq!(
        String::from_utf8(logged_verdicts).unwrap(),
        String::from_utf8(unescaped_verdicts).unwrap()
    );
    // About a third of the lines were read where they stand, the others unescaped first; all
    // three outcomes were met.
    assert!(
        read_as_logged > 600 && read_as_logged < 2_900,
        "{read_as_logged}"
    );
    let overall = &logged;
    for outcome in ["ok_clean", "ok_repaired", "rejected"] {
        assert!(
            overall[outcome].as_u64().unwrap() > 100,
            "{outcome}: {overall}"
        );
    }
}

/// The malformed arguments real traffic sends count by their rules and codes, alike for a
/// derived type and its loaded schema: empty arguments, a list sent as JSON text, almost-JSON.
#[test]
fn empty_double_encoded_and_almost_json_arguments_count_by_their_rules() {
    let log = [
        json!({"id": 1, "arguments": ""}),
        json!({"id": 2, "arguments": null}),
        json!({"id": 3, "arguments": {"order_id": "ord_A1b2C3d4", "amount_cents": 1999, "reason": "late", "tags": "[\"a\", \"b\"]"}}),
        json!({"id": 4, "arguments": "{\"order_id\": \"ord_A1b2C3d4\", \"amount_cents\": 1999, \"reason\": \"late\",}"}),
    ]
    .map(|record| record.to_string())
    .join("\n");
    let mut spec_tools = ToolSet::new();
    spec_tools.insert(
        IssueRefund::NAME,
        Spec::from_schema(&IssueRefund::json_schema()).unwrap(),
    );
    for tools in [typed_set(), spec_tools] {
        let report = Replayer::new(&tools, vec![])
            .run(log.as_bytes(), 1, |_| {})
            .unwrap();
        let t = &report.overall;
        assert_eq!((t.total, t.rejected), (4, 4), "{}", report.to_json());
        // The empty calls are read as `{}`, then miss their required fields by name.
        assert_eq!(
            t.rejections.get("missing"),
            Some(&2),
            "{}",
            report.to_json()
        );
        assert_eq!(t.rejections.get("ambiguous_list"), Some(&1));
        assert_eq!(t.rejections.get("invalid_json"), Some(&1));
    }
}

/// The calls of the streamed-log test: clean, repaired, rejected, malformed and cut off.
const STREAMED_CALLS: [&str; 8] = [
    r#"{"order_id": "ord_A1b2C3d4", "amount_cents": 1999, "reason": "late"}"#,
    r#"{"order_id": "ord_A1b2C3d4", "amount_cents": "1999", "reason": "LATE", "tags": "caf\u00e9 ☕"}"#,
    r#"{"order_id": "ord_A1b2C3d4", "amount": 1999, "reason": "late"}"#,
    r#"{"order_id": "ord_A1b2C3d4", "amount_cents": 19.99, "reason": "late",}"#,
    r#"{"order_id": "ord_A1b2C3d4", "amount_cents": 1999, "order_id": "ord_A1b2C3d4"}"#,
    r#"```json
{"order_id": "ord_A1b2C3d4", "amount_cents": 1999, "reason": "damaged"}
```"#,
    r#"{"order_id": "ord_A1b2C3d4", "amount_cents": 19"#,
    r#""{\"order_id\": \"ord_A1b2C3d4\", \"amount_cents\": 5, \"reason\": \"other\"}""#,
];

/// `text` cut into pieces of 1 to 7 bytes (never inside a character).
fn pieces(text: &str, seed: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut from, mut step) = (0, seed);
    while from < text.len() {
        step = (step * 7 + 3) % 7 + 1;
        let mut to = (from + step).min(text.len());
        while !text.is_char_boundary(to) {
            to += 1;
        }
        out.push(&text[from..to]);
        from = to;
    }
    out
}

/// One response per pair of calls, in each provider's stream: Chat Completions chunks (one per
/// line, the two calls' pieces interleaved), and Responses and Anthropic server-sent events.
fn streamed_logs(calls: &[(&str, &str)]) -> [String; 3] {
    let (mut chat, mut responses, mut anthropic) = (String::new(), String::new(), String::new());
    let sse = |log: &mut String, event: serde_json::Value| {
        log.push_str(&format!(
            "event: {}\ndata: {event}\n\n",
            event["type"].as_str().unwrap()
        ));
    };
    for (r, pair) in calls.chunks(2).enumerate() {
        let model = pair[0].0;
        let id = format!("chatcmpl-{r}");
        let chunk = |tool_calls: serde_json::Value, finish: serde_json::Value| {
            json!({"object": "chat.completion.chunk", "id": id, "model": model,
                   "choices": [{"index": 0, "delta": {"tool_calls": tool_calls}, "finish_reason": finish}]})
            .to_string()
        };
        chat.push_str(
            &json!({"object": "chat.completion.chunk", "id": id, "model": model,
            "choices": [{"index": 0, "delta": {"content": "Refunding."}, "finish_reason": null}]})
            .to_string(),
        );
        chat.push('\n');
        for (i, _) in pair.iter().enumerate() {
            chat.push_str(&chunk(
                json!([{"index": i, "id": format!("call_{i}"), "type": "function",
                "function": {"name": "issue_refund", "arguments": ""}}]),
                json!(null),
            ));
            chat.push('\n');
        }
        let cut: Vec<Vec<&str>> = pair
            .iter()
            .enumerate()
            .map(|(i, (_, text))| pieces(text, r + i))
            .collect();
        for k in 0..cut.iter().map(Vec::len).max().unwrap_or(0) {
            for (i, call) in cut.iter().enumerate() {
                if let Some(piece) = call.get(k) {
                    chat.push_str(&chunk(
                        json!([{"index": i, "function": {"arguments": piece}}]),
                        json!(null),
                    ));
                    chat.push('\n');
                }
            }
        }
        chat.push_str(&chunk(json!([]), json!("tool_calls")));
        chat.push('\n');

        sse(
            &mut responses,
            json!({"type": "response.created", "response": {"id": format!("resp_{r}"), "model": model}}),
        );
        sse(
            &mut anthropic,
            json!({"type": "message_start", "message": {"id": format!("msg_{r}"), "model": model}}),
        );
        for (i, (_, text)) in pair.iter().enumerate() {
            let item = format!("fc_{r}_{i}");
            sse(
                &mut responses,
                json!({"type": "response.output_item.added", "output_index": i,
                "item": {"type": "function_call", "id": item, "call_id": format!("call_{i}"), "name": "issue_refund", "arguments": ""}}),
            );
            sse(
                &mut anthropic,
                json!({"type": "content_block_start", "index": i,
                "content_block": {"type": "tool_use", "id": format!("toolu_{i}"), "name": "issue_refund", "input": {}}}),
            );
            for piece in &cut[i] {
                sse(
                    &mut responses,
                    json!({"type": "response.function_call_arguments.delta", "item_id": item, "output_index": i, "delta": piece}),
                );
                sse(
                    &mut anthropic,
                    json!({"type": "content_block_delta", "index": i,
                    "delta": {"type": "input_json_delta", "partial_json": piece}}),
                );
            }
            sse(
                &mut responses,
                json!({"type": "response.function_call_arguments.done", "item_id": item, "output_index": i, "arguments": text}),
            );
            sse(
                &mut anthropic,
                json!({"type": "content_block_stop", "index": i}),
            );
        }
        sse(
            &mut responses,
            json!({"type": "response.completed", "response": {"id": format!("resp_{r}"), "model": model}}),
        );
        sse(&mut anthropic, json!({"type": "message_stop"}));
    }
    // The last response is cut off before its end: its open call is judged as received.
    chat.push_str(&json!({"object": "chat.completion.chunk", "id": "chatcmpl-last", "model": "m2",
        "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_0",
        "function": {"name": "issue_refund", "arguments": "{\"order_id\": \"ord_A1b2C3d4\", "}}]}, "finish_reason": null}]}).to_string());
    chat.push('\n');
    [chat, responses, anthropic]
}

#[test]
fn streamed_logs_replay_to_the_counts_of_the_same_calls_logged_whole() {
    use toolargs::replay::{InputFormat, LogSource};

    let calls: Vec<(&str, &str)> = (0..40)
        .map(|i| {
            // The two calls of a response share its model.
            let model = ["m1", "m2", "m3"][(i / 2) % 3];
            (model, STREAMED_CALLS[(i * 5) % STREAMED_CALLS.len()])
        })
        .collect();
    let mut whole = String::new();
    for (model, arguments) in &calls {
        whole.push_str(
            &json!({"tool": "issue_refund", "arguments": arguments, "model": model}).to_string(),
        );
        whole.push('\n');
    }
    let tools = typed_set();
    let replay = |text: &str, format: InputFormat, workers: usize| {
        let source = LogSource {
            name: "log".into(),
            format,
            reader: Box::new(text.as_bytes()),
        };
        Replayer::new(&tools, vec!["model".into()])
            .run_sources([Ok(source)], workers, |_| {}, None)
            .unwrap()
    };
    let expected = replay(&whole, InputFormat::Lines, 2);
    let [chat, responses, anthropic] = streamed_logs(&calls);
    let mut cut_off = whole.clone();
    cut_off.push_str(&json!({"tool": "issue_refund", "arguments": "{\"order_id\": \"ord_A1b2C3d4\", ", "model": "m2"}).to_string());
    let with_cut_off = replay(&cut_off, InputFormat::Lines, 1);
    assert!(
        expected.overall.ok_clean > 0
            && expected.overall.ok_repaired > 0
            && expected.overall.rejected > 0
    );
    for (log, expected) in [
        (&chat, &with_cut_off),
        (&responses, &expected),
        (&anthropic, &expected),
    ] {
        for format in [InputFormat::Auto, InputFormat::Stream] {
            for workers in [1, 3] {
                let report = replay(log, format, workers);
                assert_eq!(report.overall, expected.overall, "{format}: {}", &log[..80]);
                assert_eq!(report.groups, expected.groups);
                assert_eq!(report.drill.tools, expected.drill.tools);
            }
        }
    }
    // Chunk objects sent as server-sent events read the same.
    let chat_sse: String = chat
        .lines()
        .map(|line| format!("data: {line}\n\n"))
        .collect();
    assert_eq!(
        replay(&(chat_sse + "data: [DONE]\n\n"), InputFormat::Auto, 2).overall,
        with_cut_off.overall
    );
}
