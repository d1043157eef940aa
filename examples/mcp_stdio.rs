//! An MCP server on stdin and stdout, the transport MCP clients use for a server they start:
//! two tools, `issue_refund` and the read-only `quote_refund`, whose arguments go through the
//! toolargs gate. A clean call runs, a call with representation errors of one meaning is
//! repaired and runs, and any other call is a tool result with `isError: true` listing every
//! error, as text and as `structuredContent`. With the `semantic` feature a third tool,
//! `schedule_payment`, asks the user (an MCP elicitation) before it runs a call the model
//! corrected into something that may mean otherwise.
//!
//! Run with `cargo run --features rmcp --example mcp_stdio` (`--features rmcp,semantic` for
//! the third tool). An MCP client starts it with that
//! command (or the built binary, `target/debug/examples/mcp_stdio`) and speaks JSON-RPC, one
//! message a line. The server exits when stdin closes.
//!
//! ```json
//! {"mcpServers": {"refunds": {"command": "cargo", "args": ["run", "--quiet", "--features", "rmcp", "--example", "mcp_stdio"]}}}
//! ```

use std::io::{Read, Write};

use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{CallToolResult, Implementation, ServerCapabilities, ServerConfig};
use rmcp::service::ServerInitializeError;
use rmcp::{tool, tool_handler, tool_router, ServerHandler, ServiceExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};
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

/// Quote a partial refund: a share of the order's total.
#[derive(ToolArgs, Debug)]
#[toolargs(name = "quote_refund", effect = "read_only")]
struct QuoteRefund {
    /// The order, e.g. ord_A1b2C3d4.
    #[arg(pattern = r"ord_[A-Za-z0-9]{8}")]
    order_id: String,
    /// The share of the order's total to refund, from 0 to 1.
    #[arg(min = 0.0, max = 1.0)]
    share: f64,
}

#[derive(Clone)]
struct Refunds {
    tool_router: ToolRouter<Self>,
    /// The attempts at a `schedule_payment` call since the last one that ran.
    #[cfg(feature = "semantic")]
    attempts: std::sync::Arc<std::sync::Mutex<toolargs::semantic::Correction>>,
}

#[tool_router]
impl Refunds {
    fn new() -> Self {
        #[allow(unused_mut)]
        let mut tool_router = Self::tool_router();
        #[cfg(feature = "semantic")]
        {
            tool_router += Self::payments_router();
        }
        // readOnlyHint, destructiveHint, idempotentHint, openWorldHint from each tool's effect.
        let _completed = toolargs::rmcp::annotate_all(&mut tool_router);
        #[cfg(feature = "semantic")]
        let _named = toolargs::rmcp::annotate::<payments::SchedulePayment, _>(&mut tool_router);
        Refunds {
            tool_router,
            #[cfg(feature = "semantic")]
            attempts: Default::default(),
        }
    }

    #[tool(name = "issue_refund")]
    async fn issue_refund(
        &self,
        Parameters(call): Parameters<Checked<IssueRefund>>,
    ) -> Result<String, CallToolResult> {
        let parsed = call.parsed()?;
        let repairs: Vec<String> = parsed
            .repairs
            .iter()
            .map(|r| format!("{} at {}", r.rule, r.path))
            .collect();
        let refund = parsed.args;
        Ok(format!(
            "refunded {} cents on {} (notify: {}); repairs: [{}]",
            refund.amount_cents,
            refund.order_id,
            refund.notify_customer,
            repairs.join(", ")
        ))
    }

    #[tool(name = "quote_refund")]
    async fn quote_refund(
        &self,
        Parameters(call): Parameters<Checked<QuoteRefund>>,
    ) -> Result<String, CallToolResult> {
        let quote = call.parsed()?.args;
        // The share as it arrived: the shortest decimal that reads back as the same double.
        Ok(format!("a refund of {} of {}", quote.share, quote.order_id))
    }
}

/// With the `semantic` feature, a third tool: a call the model corrected after a rejection runs
/// once the user confirms it, when the correction may have changed what it means.
#[cfg(feature = "semantic")]
mod payments {
    use rmcp::handler::server::wrapper::Parameters;
    use rmcp::model::{CallToolResult, JsonObject};
    use rmcp::service::RequestContext;
    use rmcp::{tool, tool_router, RoleServer};
    use serde_json::Value;
    use toolargs::rmcp::Checked;
    use toolargs::semantic::{Correction, SemanticGate};
    use toolargs::ToolArgs;

    /// Schedule a payment.
    #[derive(ToolArgs, Debug)]
    #[toolargs(name = "schedule_payment", effect = "external")]
    pub(crate) struct SchedulePayment {
        /// The day to pay on, YYYY-MM-DD.
        #[arg(semantic = "date")]
        pay_on: chrono::NaiveDate,
        /// Amount in cents.
        #[arg(min = 1, max = 50000)]
        amount_cents: i64,
    }

    #[tool_router(router = payments_router, vis = "pub(crate)")]
    impl super::Refunds {
        // The raw arguments, to keep what the model first sent; the schema is the type's.
        #[tool(
            name = "schedule_payment",
            input_schema = toolargs::rmcp::tool::<SchedulePayment>().input_schema
        )]
        async fn schedule_payment(
            &self,
            Parameters(arguments): Parameters<JsonObject>,
            context: RequestContext<RoleServer>,
        ) -> Result<String, CallToolResult> {
            let arguments = Value::Object(arguments);
            let outcome = SchedulePayment::parse(&arguments);
            let review = {
                let mut attempts = self.attempts.lock().unwrap_or_else(|e| e.into_inner());
                attempts.record(&arguments, &outcome);
                let review = SemanticGate::new().review::<SchedulePayment>(&attempts);
                if outcome.is_ok() {
                    *attempts = Correction::new();
                }
                review
            };
            let payment = Checked(outcome).parsed()?.args;
            if let Some(review) = review {
                // Runs at once when the correction means what the first call meant; asks the
                // user (an MCP elicitation) when it may not.
                toolargs::rmcp::confirm(&context, &review).await?;
            }
            Ok(format!(
                "scheduled {} cents for {}",
                payment.amount_cents, payment.pay_on
            ))
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Refunds {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new("toolargs-refunds", env!("CARGO_PKG_VERSION")),
        )
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let server = match Refunds::new().serve(stdio()).await {
        Ok(server) => server,
        // Stdin closed before a client said `initialize`: nobody to serve.
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
        Err(error) => return Err(error.into()),
    };
    server.waiting().await?;
    Ok(())
}

/// Stdin and stdout as one async stream. rmcp's own `transport::stdio()` is behind its
/// `transport-io` feature, which the adapter does not need; this bridges the blocking standard
/// streams instead: a thread reads stdin, a task writes stdout, and end of input on stdin is
/// end of input for the server.
fn stdio() -> DuplexStream {
    let (server_side, bridge) = tokio::io::duplex(64 * 1024);
    let (mut from_server, mut to_server) = tokio::io::split(bridge);
    let (lines, mut received) = tokio::sync::mpsc::channel::<Vec<u8>>(16);
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        let mut buffer = vec![0; 64 * 1024];
        while let Ok(read @ 1..) = stdin.read(&mut buffer) {
            if lines.blocking_send(buffer[..read].to_vec()).is_err() {
                break;
            }
        }
    });
    tokio::spawn(async move {
        while let Some(chunk) = received.recv().await {
            if to_server.write_all(&chunk).await.is_err() {
                return;
            }
        }
        let _closed = to_server.shutdown().await;
    });
    tokio::spawn(async move {
        let mut buffer = vec![0; 64 * 1024];
        while let Ok(read @ 1..) = from_server.read(&mut buffer).await {
            let mut stdout = std::io::stdout().lock();
            if stdout
                .write_all(&buffer[..read])
                .and_then(|()| stdout.flush())
                .is_err()
            {
                return;
            }
        }
    });
    server_side
}
