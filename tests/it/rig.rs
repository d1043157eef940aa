//! The rig adapter: a rig tool typed by a derived type, run through rig's own argument
//! decoding (`ErasedTool::execute`, what rig's dispatch calls), and a `DynamicTool`.

use rig::tool::{ErasedTool, Tool, ToolContext, ToolErrorKind, ToolExecutionError, ToolResult};
use serde_json::{json, Value};
use toolargs::rig::{Args, StrictArgs};
use toolargs::{Dialect, Parsed, Rejection, ToolArgs};

use crate::common::TagOrder;

/// Refund part of an order.
#[derive(ToolArgs, Debug)]
#[toolargs(name = "issue_refund", effect = "external")]
struct IssueRefund {
    /// The order to refund.
    #[arg(pattern = r"ord_[A-Za-z0-9]{8}")]
    order_id: String,
    /// Amount in cents.
    #[arg(min = 1, max = 50000)]
    amount_cents: i64,
    #[arg(default)]
    notify_customer: bool,
}

struct Refunds;

impl Tool for Refunds {
    const NAME: &'static str = IssueRefund::NAME;
    type Args = Args<IssueRefund>;
    type Output = Value;
    type Error = ToolExecutionError;

    fn description(&self) -> String {
        toolargs::rig::description::<IssueRefund>()
    }

    fn parameters(&self) -> Value {
        toolargs::rig::parameters::<IssueRefund>()
    }

    async fn call(
        &self,
        _: &mut ToolContext,
        args: Args<IssueRefund>,
    ) -> Result<Value, ToolExecutionError> {
        let parsed = args.parsed()?;
        let rules: Vec<&str> = parsed.repairs.iter().map(|r| r.rule.as_str()).collect();
        Ok(json!({"refunded": parsed.args.amount_cents, "repairs": rules}))
    }
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(future)
}

fn execute(arguments: &str) -> ToolResult {
    block_on(Refunds.execute(arguments.to_owned(), &mut ToolContext::default()))
}

#[test]
fn a_clean_call_runs_the_tool() {
    let result = execute(r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999}"#);
    assert!(!result.is_error());
    assert_eq!(
        result.output().as_json(),
        Some(&json!({"refunded": 1999, "repairs": []}))
    );
}

#[test]
fn a_repairable_call_runs_the_tool_with_its_repairs() {
    let result =
        execute(r#"{"order_id":"ord_A1b2C3d4","amount_cents":"1999","notify_customer":null}"#);
    assert!(!result.is_error());
    assert_eq!(
        result.output().as_json(),
        Some(&json!({"refunded": 1999, "repairs": ["numeric_string_to_int", "null_to_absent"]}))
    );
}

#[test]
fn a_bad_call_answers_the_model_with_every_error() {
    let arguments = r#"{"order_id":"ORD-1","amount":1999,"notify_customer":"yes"}"#;
    let result = execute(arguments);
    assert!(result.is_error_kind(ToolErrorKind::InvalidArgs));
    let expected = IssueRefund::parse(arguments).unwrap_err();
    assert_eq!(expected.errors().len(), 4);
    assert_eq!(
        result.output().as_text(),
        Some(expected.for_model().as_str())
    );

    let error = result.error().expect("an error");
    assert_eq!(error.downcast_ref::<Rejection>(), Some(&expected));
    assert_eq!(error.message(), expected.to_string());
}

#[test]
fn the_gate_reads_the_model_text_so_a_key_sent_twice_is_rejected() {
    let result = execute(r#"{"order_id":"ord_A1b2C3d4","amount_cents":1,"amount_cents":50000}"#);
    let rejection = result.error().unwrap().downcast_ref::<Rejection>().unwrap();
    assert_eq!(rejection.errors()[0].code, "duplicate_key");
    assert_eq!(rejection.errors()[0].path, "$.amount_cents");
}

#[test]
fn double_encoded_arguments_are_repaired() {
    let inner = r#"{"order_id":"ord_A1b2C3d4","amount_cents":5}"#;
    let result = execute(&Value::from(inner).to_string());
    assert_eq!(
        result.output().as_json(),
        Some(&json!({"refunded": 5, "repairs": ["unwrap_double_encoded"]}))
    );
}

#[test]
fn the_definition_is_the_schema_the_parser_enforces() {
    let definition = toolargs::rig::definition::<IssueRefund>();
    let anthropic = IssueRefund::tool_definition(Dialect::Anthropic);
    assert_eq!(definition.name.as_str(), "issue_refund");
    assert_eq!(definition.description, "Refund part of an order.");
    assert_eq!(definition.parameters, anthropic["input_schema"]);
    assert_eq!(rig::tool::tool_definition(&Refunds), definition);

    let strict = toolargs::rig::definition_in::<IssueRefund>(Dialect::OpenAiChat { strict: true });
    assert_eq!(
        strict.parameters,
        IssueRefund::tool_definition(Dialect::OpenAiChat { strict: true })["function"]
            ["parameters"]
    );
}

#[test]
fn a_dynamic_tool_runs_the_handler_only_on_accepted_calls() {
    let tool = toolargs::rig::dynamic_tool(|call: Parsed<IssueRefund>| async move {
        Ok::<_, ToolExecutionError>(format!(
            "refunded {} cents with {} repairs",
            call.args.amount_cents,
            call.repairs.len()
        ))
    });
    assert_eq!(
        tool.definition(),
        toolargs::rig::definition::<IssueRefund>()
    );

    let output =
        block_on(tool.execute(json!({"order_id": "ord_A1b2C3d4", "amount_cents": "7"}))).unwrap();
    assert_eq!(output.as_text(), Some("refunded 7 cents with 1 repairs"));

    let bad = json!({"order_id": "ord_A1b2C3d4", "amount_cents": 0});
    let error = block_on(tool.execute(bad.clone())).unwrap_err();
    assert_eq!(error.kind(), ToolErrorKind::InvalidArgs);
    assert_eq!(
        error.model_feedback(),
        Some(IssueRefund::parse(&bad).unwrap_err().for_model().as_str())
    );
}

/// The same tool published in OpenAI's strict mode.
struct StrictRefunds;

impl Tool for StrictRefunds {
    const NAME: &'static str = IssueRefund::NAME;
    type Args = StrictArgs<IssueRefund>;
    type Output = Value;
    type Error = ToolExecutionError;

    fn description(&self) -> String {
        toolargs::rig::description::<IssueRefund>()
    }

    fn parameters(&self) -> Value {
        StrictArgs::<IssueRefund>::parameters()
    }

    async fn call(
        &self,
        _: &mut ToolContext,
        args: StrictArgs<IssueRefund>,
    ) -> Result<Value, ToolExecutionError> {
        let parsed = args.parsed()?;
        let rules: Vec<&str> = parsed.repairs.iter().map(|r| r.rule.as_str()).collect();
        Ok(json!({"refunded": parsed.args.amount_cents, "repairs": rules}))
    }
}

#[test]
fn a_tool_published_in_strict_mode_parses_its_nulls_as_no_repair() {
    let strict = Dialect::OpenAiChat { strict: true };
    // What the model is shown: strict mode's schema, `notify_customer` nullable and required.
    let definition = rig::tool::tool_definition(&StrictRefunds);
    assert_eq!(definition, StrictArgs::<IssueRefund>::definition());
    assert_eq!(
        definition.parameters,
        IssueRefund::tool_definition(strict)["function"]["parameters"]
    );
    assert_eq!(
        definition.parameters["required"],
        json!(["order_id", "amount_cents", "notify_customer"])
    );
    assert_eq!(StrictArgs::<IssueRefund>::options(), strict.parse_options());
    // The default is the schema of `parameters`, parsed with the default options.
    assert_eq!(
        Args::<IssueRefund>::definition(),
        toolargs::rig::definition::<IssueRefund>()
    );

    let call = r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999,"notify_customer":null}"#;
    let result = block_on(StrictRefunds.execute(call.to_owned(), &mut ToolContext::default()));
    assert_eq!(
        result.output().as_json(),
        Some(&json!({"refunded": 1999, "repairs": []}))
    );
    // A real repair is still one, and a rejection still every error.
    let call = r#"{"order_id":"ord_A1b2C3d4","amount_cents":"1999","notify_customer":null}"#;
    let result = block_on(StrictRefunds.execute(call.to_owned(), &mut ToolContext::default()));
    assert_eq!(
        result.output().as_json(),
        Some(&json!({"refunded": 1999, "repairs": ["numeric_string_to_int"]}))
    );
    let bad = r#"{"order_id":"ord_A1b2C3d4","amount_cents":"19.99","notify_customer":null}"#;
    let result = block_on(StrictRefunds.execute(bad.to_owned(), &mut ToolContext::default()));
    assert!(result.is_error_kind(ToolErrorKind::InvalidArgs));
    assert_eq!(
        result.output().as_text(),
        Some(IssueRefund::parse(bad).unwrap_err().for_model().as_str())
    );
    // Under the default, the same null is recorded.
    let result =
        execute(r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999,"notify_customer":null}"#);
    assert_eq!(
        result.output().as_json(),
        Some(&json!({"refunded": 1999, "repairs": ["null_to_absent"]}))
    );
}

#[test]
fn a_dynamic_tool_published_in_a_dialect_parses_as_that_dialect_sends() {
    let handler = |call: Parsed<IssueRefund>| async move {
        let rules: Vec<&str> = call.repairs.iter().map(|r| r.rule.as_str()).collect();
        Ok::<_, ToolExecutionError>(json!({"repairs": rules}))
    };
    let call = json!({"order_id": "ord_A1b2C3d4", "amount_cents": 1999, "notify_customer": null});
    for (dialect, repairs) in [
        (Dialect::OpenAiChat { strict: true }, json!([])),
        (Dialect::OpenAiResponses { strict: true }, json!([])),
        (
            Dialect::OpenAiChat { strict: false },
            json!(["null_to_absent"]),
        ),
        (Dialect::Anthropic, json!(["null_to_absent"])),
    ] {
        let tool = toolargs::rig::dynamic_tool_in(dialect, handler);
        assert_eq!(
            tool.definition(),
            toolargs::rig::definition_in::<IssueRefund>(dialect)
        );
        let output = block_on(tool.execute(call.clone())).unwrap();
        assert_eq!(
            output.as_json(),
            Some(&json!({"repairs": repairs})),
            "{dialect:?}"
        );
    }
}

#[test]
fn a_tool_with_no_strict_form_is_published_and_parsed_without_strict_mode() {
    for strict in [false, true] {
        let dialect = Dialect::OpenAiChat { strict };
        assert_eq!(
            toolargs::rig::definition_in::<TagOrder>(dialect).parameters,
            TagOrder::tool_definition(dialect)["function"]["parameters"]
        );
    }
    assert_eq!(
        StrictArgs::<TagOrder>::parameters(),
        TagOrder::tool_definition(Dialect::OpenAiChat { strict: true })["function"]["parameters"]
    );
    assert_eq!(
        StrictArgs::<TagOrder>::parameters()["required"],
        json!(["order_id", "labels"])
    );

    let tool = toolargs::rig::dynamic_tool_in(
        Dialect::OpenAiChat { strict: true },
        |call: Parsed<TagOrder>| async move {
            let rules: Vec<&str> = call.repairs.iter().map(|r| r.rule.as_str()).collect();
            Ok::<_, ToolExecutionError>(json!({"labels": call.args.labels.len(), "repairs": rules}))
        },
    );
    let call = json!({"order_id": "ord_1", "labels": {"vip": "yes"}, "note": null});
    let output = block_on(tool.execute(call)).unwrap();
    assert_eq!(
        output.as_json(),
        Some(&json!({"labels": 1, "repairs": ["null_to_absent"]}))
    );
}

/// A rig completion stream's tool calls, judged while they arrive: the early rejection comes
/// in the event of the piece that makes it certain, and the verdict at the end is `parse`'s
/// on the whole arguments, for every way of cutting them.
#[test]
fn streamed_tool_calls_are_judged_as_they_arrive() {
    use crate::common::IssueRefund as Refund;
    use rig::streaming::StreamEvent;
    use toolargs::rig::{CallEvent, StreamedCalls};

    let calls = [
        r#"{"order_id": "ord_A1b2C3d4", "amount_cents": "1999", "reason": "late"}"#,
        r#"{"order_id": "ord_A1b2C3d4", "amount": 1999, "reason": "late"}"#,
        r#"{"amount_cents": 19.99, "order_id": "ord_A1b2C3d4", "reason": "late"}"#,
    ];
    for (i, arguments) in calls.iter().enumerate() {
        for size in [1, 3, 16, 500] {
            let mut events = vec![
                json!({"event": "start", "part": 1, "kind": "tool_call", "name": "issue_refund"}),
                json!({"event": "start", "part": 0, "kind": "text"}),
            ];
            let bytes: Vec<char> = arguments.chars().collect();
            for piece in bytes.chunks(size) {
                let json: String = piece.iter().collect();
                events.push(json!({"event": "arguments", "part": 1, "json": json}));
                events.push(json!({"event": "text", "part": 0, "text": "…"}));
            }
            let content = rig::message::AssistantContent::tool_call(
                "call_1",
                rig::message::ToolName::new("issue_refund").unwrap(),
                serde_json::from_str(arguments).unwrap(),
            );
            events.push(json!({"event": "end", "part": 1, "content": content}));
            let events: Vec<StreamEvent> = serde_json::from_value(Value::Array(events)).unwrap();
            let mut streamed = StreamedCalls::<Refund>::new();
            let (mut early, mut verdict) = (None, None);
            for (at, event) in events.iter().enumerate() {
                match streamed.push(event) {
                    Some(CallEvent::Rejected { rejection, .. }) => early = Some((at, rejection)),
                    Some(CallEvent::Finished { verdict: v, .. }) => verdict = Some(v),
                    None => {}
                }
            }
            let whole = Refund::parse(*arguments);
            assert_eq!(
                verdict.expect("finished"),
                whole,
                "call {i} in pieces of {size}"
            );
            match i {
                0 => assert!(early.is_none()),
                // Rejected at the piece that completes the member, before the end.
                _ => {
                    let (at, rejection) = early.expect("rejected early");
                    assert!(at < events.len() - 1, "call {i} in pieces of {size}");
                    assert!(whole
                        .unwrap_err()
                        .errors()
                        .iter()
                        .any(|e| e == &rejection.errors()[0]));
                }
            }
        }
    }
}
