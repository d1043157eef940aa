//! A rig tool whose arguments and schema come from a derived type, run on scripted calls
//! through rig's own argument decoding: the definition rig sends, then a clean, a repaired and
//! a rejected call as rig hands their results back to the model.
//!
//! Run with `cargo run --example rig_tool --features rig`.

use rig::tool::{ErasedTool, Tool, ToolContext, ToolExecutionError};
use toolargs::rig::Args;
use toolargs::ToolArgs;

/// Refund part of an order.
#[derive(ToolArgs, Debug)]
#[toolargs(name = "issue_refund", effect = "external")]
struct IssueRefund {
    /// The order to refund, e.g. ord_A1b2C3d4.
    #[arg(pattern = r"ord_[A-Za-z0-9]{8}")]
    order_id: String,
    /// Amount to refund, in cents.
    #[arg(min = 1, max = 50000)]
    amount_cents: i64,
    /// Email the customer about the refund.
    #[arg(default)]
    notify_customer: bool,
}

struct Refunds;

impl Tool for Refunds {
    const NAME: &'static str = IssueRefund::NAME;
    type Args = Args<IssueRefund>;
    type Output = String;
    type Error = ToolExecutionError;

    fn description(&self) -> String {
        toolargs::rig::description::<IssueRefund>()
    }

    fn parameters(&self) -> serde_json::Value {
        toolargs::rig::parameters::<IssueRefund>()
    }

    async fn call(
        &self,
        _: &mut ToolContext,
        args: Args<IssueRefund>,
    ) -> Result<String, ToolExecutionError> {
        let parsed = args.parsed()?;
        let rules: Vec<&str> = parsed.repairs.iter().map(|r| r.rule.as_str()).collect();
        Ok(format!(
            "refunded {} cents on {} (repairs: {rules:?})",
            parsed.args.amount_cents, parsed.args.order_id
        ))
    }
}

const CALLS: &[(&str, &str)] = &[
    (
        "clean",
        r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999}"#,
    ),
    (
        "repaired",
        r#"{"order_id":"ord_A1b2C3d4","amount_cents":"1999","notify_customer":"TRUE"}"#,
    ),
    (
        "rejected",
        r#"{"order_id":"ORD-1","amount":1999,"notify_customer":"yes"}"#,
    ),
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let definition = toolargs::rig::definition::<IssueRefund>();
    println!("{}", serde_json::to_string_pretty(&definition)?);

    let runtime = tokio::runtime::Builder::new_current_thread().build()?;
    for (label, arguments) in CALLS {
        let mut context = ToolContext::default();
        let result = runtime.block_on(Refunds.execute((*arguments).to_owned(), &mut context));
        let output = result.output();
        let shown = match (output.as_text(), output.as_json()) {
            (Some(text), _) => text.to_owned(),
            (None, Some(json)) => json.to_string(),
            (None, None) => format!("{output:?}"),
        };
        println!(
            "\n{label}: {arguments}\nerror: {}\n{shown}",
            result.is_error()
        );
    }
    Ok(())
}
