//! Every path that runs a call reports one span after OpenTelemetry's GenAI conventions,
//! checked on the spans `tracing-opentelemetry` exports (a test binary of its own, since
//! `tracing` caches callsite interest per process).

#[path = "it/common.rs"]
mod common;

use std::collections::BTreeMap;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider};
use serde_json::json;
use toolargs::toolbox::{Session, ToolCall, Toolbox};
use tracing_subscriber::layer::SubscriberExt;

const CLEAN: &str = r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999,"reason":"late"}"#;
const REPAIRABLE: &str = r#"{"order_id":"ord_A1b2C3d4","amount_cents":"1999","reason":"LATE"}"#;
const BAD: &str = r#"{"order_id":"ord_A1b2C3d4","amount_cents":"19.99","reason":"late"}"#;

/// The values of the calls' arguments (the order id, the amounts as number and as text, the
/// reason), none of which may reach a span.
const ARGUMENT_VALUES: [&str; 5] = ["ord_A1b2C3d4", "1999", "19.99", "late", "LATE"];

/// The span's own fields (`toolargs_core::telemetry::tool_span`).
const FIELDS: [&str; 7] = [
    "gen_ai.operation.name",
    "gen_ai.tool.name",
    "gen_ai.tool.call.id",
    "error.type",
    "toolargs.outcome",
    "toolargs.codes",
    "toolargs.rules",
];

/// What `tracing-opentelemetry` adds as numbers: the time the span was busy and idle, and the
/// line and thread it was opened on. A number is never an argument, whatever its digits.
const NUMBERS: [&str; 4] = ["busy_ns", "idle_ns", "code.line.number", "thread.id"];

/// What `tracing-opentelemetry` adds as text: the span's target, and the source file and module
/// that opened it.
const LOCATIONS: [&str; 3] = ["target", "code.file.path", "code.module.name"];

/// Each exported span: its name and its attributes as text.
fn spans(run: impl FnOnce()) -> Vec<(String, BTreeMap<String, String>)> {
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("toolargs-test"));
    let subscriber = tracing_subscriber::registry().with(layer);
    tracing::subscriber::with_default(subscriber, run);
    provider.force_flush().unwrap();
    exporter
        .get_finished_spans()
        .unwrap()
        .into_iter()
        .map(|span| {
            let attributes = span
                .attributes
                .iter()
                .map(|kv| (kv.key.to_string(), kv.value.to_string()))
                .collect();
            (span.name.to_string(), attributes)
        })
        .collect()
}

/// A span's call id, outcome, `error.type`, rules and codes.
type Fields<'a> = (
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
);

fn get<'a>(attributes: &'a BTreeMap<String, String>, key: &str) -> Option<&'a str> {
    attributes.get(key).map(String::as_str)
}

#[test]
fn the_toolbox_the_adapters_and_deserialize_report_genai_spans() {
    let exported = spans(|| {
        let mut tools = Toolbox::new();
        tools.register(|args: common::IssueRefund| Ok(json!({"refunded": args.amount_cents})));
        let mut session = Session::new();
        for (id, text) in [("c1", CLEAN), ("c2", REPAIRABLE), ("c3", BAD)] {
            tools.dispatch(&mut session, ToolCall::new(id, "issue_refund", text));
        }
        tools.dispatch(&mut session, ToolCall::new("c4", "no_such_tool", "{}"));
        // The `Deserialize` impl and the rmcp adapter.
        let _: common::IssueRefund = serde_json::from_str(REPAIRABLE).unwrap();
        let checked: toolargs::rmcp::Checked<common::IssueRefund> =
            serde_json::from_str(BAD).unwrap();
        assert!(checked.into_inner().is_err());
    });
    assert_eq!(exported.len(), 6, "{exported:#?}");
    for (name, attributes) in &exported {
        assert_eq!(
            get(attributes, "gen_ai.operation.name"),
            Some("execute_tool")
        );
        let tool = get(attributes, "gen_ai.tool.name").unwrap();
        assert_eq!(name, &format!("execute_tool {tool}"));
        // Never an argument value: every attribute is one of the span's own fields, none of
        // which holds one, or one the exporting layer adds, which holds no text from the call.
        for (key, value) in attributes {
            if FIELDS.contains(&key.as_str()) {
                assert!(
                    ARGUMENT_VALUES.iter().all(|arg| !value.contains(arg)),
                    "{key} = {value}"
                );
            } else if NUMBERS.contains(&key.as_str()) {
                assert!(value.parse::<u64>().is_ok(), "{key} = {value}");
            } else if LOCATIONS.contains(&key.as_str()) {
                assert!(value.starts_with("toolargs"), "{key} = {value}");
            } else if key == "thread.name" {
                // The test's own thread, which opened every span.
                assert_eq!(Some(value.as_str()), std::thread::current().name());
            } else {
                panic!("an attribute this test does not know: {key} = {value}");
            }
        }
    }
    let by_outcome: Vec<Fields<'_>> = exported
        .iter()
        .map(|(_, a)| {
            (
                get(a, "gen_ai.tool.call.id"),
                get(a, "toolargs.outcome"),
                get(a, "error.type"),
                get(a, "toolargs.rules"),
                get(a, "toolargs.codes"),
            )
        })
        .collect();
    assert_eq!(
        by_outcome,
        [
            (Some("c1"), Some("clean"), None, None, None),
            (
                Some("c2"),
                Some("repaired"),
                None,
                Some("numeric_string_to_int,enum_casefold"),
                None
            ),
            (
                Some("c3"),
                Some("rejected"),
                Some("invalid_arguments"),
                None,
                Some("ambiguous_integer")
            ),
            (
                Some("c4"),
                Some("unknown_tool"),
                Some("unknown_tool"),
                None,
                None
            ),
            (
                None,
                Some("repaired"),
                None,
                Some("numeric_string_to_int,enum_casefold"),
                None
            ),
            (
                None,
                Some("rejected"),
                Some("invalid_arguments"),
                None,
                Some("ambiguous_integer")
            ),
        ]
    );
}
