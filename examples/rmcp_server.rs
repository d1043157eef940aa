//! An MCP server built with rmcp on derived argument types, and an MCP client calling it over
//! an in-process pipe: the tool list with schemas and annotations, then a clean, a repaired and
//! a rejected call.
//!
//! Run with `cargo run --example rmcp_server --features rmcp`.

use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{CallToolRequestParams, CallToolResult, ServerCapabilities, ServerConfig};
use rmcp::{tool, tool_handler, tool_router, ServerHandler, ServiceExt};
use serde_json::json;
use toolargs::rmcp::Checked;
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

#[derive(Clone)]
struct Shop {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Shop {
    fn new() -> Self {
        let mut tool_router = Self::tool_router();
        assert!(toolargs::rmcp::annotate::<IssueRefund, _>(&mut tool_router));
        Shop { tool_router }
    }

    #[tool(name = "issue_refund")]
    async fn issue_refund(
        &self,
        Parameters(call): Parameters<Checked<IssueRefund>>,
    ) -> Result<String, CallToolResult> {
        let parsed = call.parsed()?;
        for repair in &parsed.repairs {
            eprintln!("  (server) repaired {} at {}", repair.rule, repair.path);
        }
        let refund = parsed.args;
        Ok(format!(
            "refunded {} cents on {} (notify: {})",
            refund.amount_cents, refund.order_id, refund.notify_customer
        ))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Shop {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (server_transport, client_transport) = tokio::io::duplex(64 * 1024);
    let server = tokio::spawn(async move {
        let running = Shop::new().serve(server_transport).await?;
        running.waiting().await?;
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    });
    let client = ().serve(client_transport).await?;

    println!("tools/list");
    for tool in client.list_all_tools().await? {
        println!("{}", serde_json::to_string_pretty(&tool)?);
    }

    let calls = [
        (
            "clean",
            json!({"order_id": "ord_A1b2C3d4", "amount_cents": 1999}),
        ),
        (
            "repaired",
            json!({"order_id": "ord_A1b2C3d4", "amount_cents": "1999", "notify_customer": "True"}),
        ),
        (
            "rejected",
            json!({"order_id": "ORD-1", "amount": 1999, "notify_customer": "yes"}),
        ),
    ];
    for (label, arguments) in calls {
        println!("\ntools/call ({label}): {arguments}");
        let serde_json::Value::Object(arguments) = arguments else {
            unreachable!("the arguments above are objects")
        };
        let result = client
            .call_tool(CallToolRequestParams::new("issue_refund").with_arguments(arguments))
            .await?;
        let text = result.content.first().and_then(|c| c.as_text());
        println!(
            "isError: {}\n{}",
            result.is_error.unwrap_or(false),
            text.map_or("", |t| t.text.as_str())
        );
    }

    client.cancel().await?;
    server.await??;
    Ok(())
}
