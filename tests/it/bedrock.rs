//! Amazon Bedrock's Converse API through every door: a derived tool's definition in its
//! dialect, loaded back; a request's `toolConfig` as a tool list; a ConverseStream call judged
//! while it arrives; logs of whole responses and of streams replayed, with the definitions
//! their requests carry.

use serde_json::{json, Value};
use toolargs::dynamic::{load_tool_list, Spec};
use toolargs::replay::{InputFormat, LogSource, LogTools, Replayer, Report};
use toolargs::stream::provider::{ToolCallStreams, Update};
use toolargs::{Dialect, ToolArgs};

use crate::common::IssueRefund;

const DIALECT: Dialect = Dialect::BedrockConverse;

fn refund_spec() -> Value {
    IssueRefund::tool_definition(DIALECT)
}

/// A Converse exchange: the request's tools, and a response with one `toolUse` per call.
fn exchange(calls: &[&str]) -> Value {
    let content: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, arguments)| {
            let input: Value = serde_json::from_str(arguments).unwrap();
            json!({"toolUse": {"toolUseId": format!("tooluse_{i}"), "name": "issue_refund", "input": input}})
        })
        .collect();
    json!({
        "request": {
            "modelId": "amazon.nova-pro-v1:0",
            "messages": [{"role": "user", "content": [{"text": "Refund order ord_A1b2C3d4."}]}],
            "inferenceConfig": {"maxTokens": 512},
            "toolConfig": {"tools": [refund_spec()]}
        },
        "response": {
            "output": {"message": {"role": "assistant", "content": content}},
            "stopReason": "tool_use",
            "usage": {"inputTokens": 100, "outputTokens": 40, "totalTokens": 140}
        }
    })
}

const CLEAN: &str = r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999,"reason":"late"}"#;
const QUOTED: &str = r#"{"order_id":"ord_A1b2C3d4","amount_cents":"1999","reason":"late"}"#;
const INVENTED: &str = r#"{"order_id":"ord_A1b2C3d4","amount":1999,"reason":"late"}"#;

#[test]
fn a_derived_tool_in_the_bedrock_dialect_loads_back_and_its_calls_parse_alike() {
    assert_eq!(Dialect::from_name("bedrock_converse"), Some(DIALECT));
    assert!(Dialect::ALL.contains(&DIALECT));
    assert!(Dialect::names().ends_with("mcp, bedrock_converse"));
    let definition = refund_spec();
    let spec = &definition["toolSpec"];
    assert_eq!(spec["name"], "issue_refund");
    assert_eq!(spec["description"], "Refund part of an order.");
    let schema = &spec["inputSchema"]["json"];
    assert_eq!(schema["type"], "object");
    assert_eq!(
        schema["properties"],
        IssueRefund::json_schema()["properties"]
    );
    assert!(schema.get("$schema").is_none());

    let loaded = Spec::from_tool_definition(&definition).unwrap();
    assert_eq!(loaded.name(), Some("issue_refund"));
    assert_eq!(loaded.description(), Some("Refund part of an order."));
    assert!(loaded.parse(CLEAN).unwrap().repairs.is_empty());
    assert_eq!(loaded.parse(QUOTED).unwrap().repairs.len(), 1);
    assert!(loaded.parse(INVENTED).is_err());
    assert_eq!(IssueRefund::parse(QUOTED).unwrap().repairs.len(), 1);
    // Shown to Bedrock again, nothing is lowered and nothing refused.
    let lowering = loaded.lowering(DIALECT);
    assert!(lowering.changes.is_empty(), "{:?}", lowering.changes);
    assert!(lowering.refusals.is_empty());
    assert_eq!(lowering.schema(), Some(schema));
}

#[test]
fn a_request_tool_config_is_a_tool_list_and_names_bedrock_refuses_are_refusals() {
    let config = json!({"tools": [
        {"toolSpec": {"name": "get_weather", "description": "Weather.", "inputSchema": {"json": {
            "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}},
        {"toolSpec": {"name": "get.time", "inputSchema": {"json": {"type": "object"}}}},
        {"cachePoint": {"type": "default"}}
    ]});
    let specs =
        load_tool_list(&json!({"tools": &config["tools"].as_array().unwrap()[..2]}).to_string())
            .unwrap();
    let names: Vec<_> = specs.iter().map(|s| s.name().unwrap()).collect();
    assert_eq!(names, ["get_weather", "get.time"]);
    assert!(specs[0].parse(r#"{"city": 7}"#).is_err());
    assert!(specs[0].parse(r#"{"city": "Lyon"}"#).is_ok());
    assert!(specs[0].lowering(DIALECT).refusals.is_empty());
    let refused = specs[1].lowering(DIALECT).refusals;
    assert_eq!(
        refused,
        ["Bedrock takes names matching ^[a-zA-Z0-9_-]{1,64}$"]
    );
    // Gemini takes the name Bedrock refuses; each provider's rule is its own.
    assert!(specs[1].lowering(Dialect::Gemini).refusals.is_empty());
}

#[test]
fn a_converse_stream_call_is_judged_while_it_arrives() {
    let spec = Spec::from_tool_definition(&refund_spec()).unwrap();
    let block = |index: u64, event: &str, body: Value| {
        let mut inner = body;
        inner["contentBlockIndex"] = json!(index);
        json!({ event: inner })
    };
    let start = |index, id: &str| {
        block(
            index,
            "contentBlockStart",
            json!({"start": {"toolUse": {"toolUseId": id, "name": "issue_refund"}}}),
        )
    };
    let piece = |index, text: &str| {
        block(
            index,
            "contentBlockDelta",
            json!({"delta": {"toolUse": {"input": text}}}),
        )
    };
    let events = [
        json!({"messageStart": {"role": "assistant"}}),
        start(0, "tooluse_good"),
        piece(0, r#"{"order_id": "ord_A1b2C3d4", "#),
        piece(0, r#""amount_cents": "1999", "reason": "late"}"#),
        block(0, "contentBlockStop", json!({})),
        start(1, "tooluse_bad"),
        piece(1, r#"{"amount_cents": 0, "#),
        piece(1, r#""order_id": "ord_A1b2C3d4", "reason": "late"}"#),
        block(1, "contentBlockStop", json!({})),
        json!({"messageStop": {"stopReason": "tool_use"}}),
    ];
    let mut streams = ToolCallStreams::new();
    let mut judged = Vec::new();
    let mut open = Vec::new();
    for event in &events {
        for update in streams.push(event) {
            match update {
                Update::Started { .. } => open.push((spec.stream(), None)),
                Update::Arguments { call, from } => {
                    let text = streams.call(call).unwrap().arguments[from..].to_owned();
                    let (stream, early) = &mut open[call];
                    if early.is_none() {
                        *early = stream.feed(&text).err();
                    }
                }
                Update::Completed { call } => {
                    let (stream, early) = std::mem::replace(&mut open[call], (spec.stream(), None));
                    let id = streams.call(call).unwrap().id.clone().unwrap();
                    judged.push((id, early.is_some(), stream.finish()));
                }
            }
        }
    }
    assert_eq!(judged.len(), 2);
    let (id, early, verdict) = &judged[0];
    assert_eq!((id.as_str(), *early), ("tooluse_good", false));
    assert_eq!(verdict.as_ref().unwrap().repairs.len(), 1);
    // `amount_cents: 0` breaks its minimum as soon as the member is complete.
    let (id, early, verdict) = &judged[1];
    assert_eq!((id.as_str(), *early), ("tooluse_bad", true));
    assert!(verdict.is_err());
}

fn replay(log: &str, format: InputFormat) -> Report {
    let mut found = LogTools::default();
    found
        .scan("converse.jsonl", log.as_bytes(), InputFormat::Auto)
        .unwrap();
    assert_eq!(found.definitions.len(), 1, "{:?}", found.definitions);
    let tools = found.tool_set().unwrap();
    let source = LogSource {
        name: "converse.jsonl".into(),
        format,
        reader: Box::new(log.as_bytes()),
    };
    Replayer::new(&tools, vec![])
        .run_sources([Ok(source)], 2, |_| {}, None)
        .unwrap()
}

#[test]
fn a_converse_log_replays_with_the_definitions_its_requests_carry() {
    assert_eq!(
        "bedrock".parse::<InputFormat>(),
        Ok(InputFormat::BedrockConverse)
    );
    assert_eq!(InputFormat::BedrockConverse.to_string(), "bedrock");
    let records = [
        exchange(&[CLEAN]),
        exchange(&[QUOTED, INVENTED]),
        exchange(&[]),
        exchange(&[CLEAN, CLEAN]),
    ];
    assert_eq!(
        InputFormat::detect(&records[0]),
        Some(InputFormat::BedrockConverse)
    );
    assert_eq!(
        InputFormat::detect(&records[0]["response"]),
        Some(InputFormat::BedrockConverse)
    );
    let log: String = records.iter().map(|r| format!("{r}\n")).collect();
    for format in [InputFormat::Auto, InputFormat::BedrockConverse] {
        let report = replay(&log, format);
        let t = &report.overall;
        assert_eq!(
            (t.total, t.ok_clean, t.ok_repaired, t.rejected),
            (5, 3, 1, 1),
            "{format}"
        );
        assert_eq!(report.drill.tools["issue_refund"].calls, 5);
    }
}

#[test]
fn a_logged_converse_stream_replays_as_its_calls_logged_whole() {
    let whole: String = [exchange(&[CLEAN, QUOTED]), exchange(&[INVENTED])]
        .iter()
        .map(|r| format!("{r}\n"))
        .collect();
    let mut streamed = String::new();
    for calls in [[CLEAN, QUOTED].as_slice(), [INVENTED].as_slice()] {
        let mut events = vec![json!({"messageStart": {"role": "assistant"}})];
        for (index, arguments) in calls.iter().enumerate() {
            let (head, tail) = arguments.split_at(arguments.len() / 2);
            events.push(json!({"contentBlockStart": {"contentBlockIndex": index,
                "start": {"toolUse": {"toolUseId": format!("t{index}"), "name": "issue_refund"}}}}));
            for text in [head, tail] {
                events.push(json!({"contentBlockDelta": {"contentBlockIndex": index,
                    "delta": {"toolUse": {"input": text}}}}));
            }
            events.push(json!({"contentBlockStop": {"contentBlockIndex": index}}));
        }
        events.push(json!({"messageStop": {"stopReason": "tool_use"}}));
        events.push(
            json!({"metadata": {"usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2}}}),
        );
        for event in events {
            streamed.push_str(&format!("{event}\n"));
        }
    }
    let tools = {
        let mut found = LogTools::default();
        found
            .scan("whole.jsonl", whole.as_bytes(), InputFormat::Auto)
            .unwrap();
        found.tool_set().unwrap()
    };
    let run = |text: &str, format: InputFormat| {
        let source = LogSource {
            name: "log".into(),
            format,
            reader: Box::new(text.as_bytes()),
        };
        Replayer::new(&tools, vec![])
            .run_sources([Ok(source)], 1, |_| {}, None)
            .unwrap()
    };
    let expected = run(&whole, InputFormat::Auto);
    assert_eq!(
        (
            expected.overall.total,
            expected.overall.ok_clean,
            expected.overall.ok_repaired
        ),
        (3, 1, 1)
    );
    for format in [InputFormat::Auto, InputFormat::Stream] {
        let report = run(&streamed, format);
        assert_eq!(report.overall, expected.overall, "{format}");
        assert_eq!(report.drill.tools, expected.drill.tools);
    }
}
