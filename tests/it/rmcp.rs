//! The rmcp adapter end to end: an rmcp server whose `#[tool]` methods take derived types,
//! an rmcp client, and rmcp's own transport over an in-process duplex pipe.

use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{CallToolRequestParams, CallToolResult, ServerCapabilities, ServerConfig};
use rmcp::service::{RoleClient, RunningService};
use rmcp::{tool, tool_handler, tool_router, ServerHandler, ServiceExt};
use serde_json::{json, Value};
use toolargs::rmcp::Checked;
use toolargs::{Dialect, ToolArgs};

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
    reason: Reason,
    #[arg(default)]
    tags: Vec<String>,
}

#[derive(ToolArgs, Debug)]
enum Reason {
    Damaged,
    Late,
    Duplicate,
    Other,
}

/// Look an order up.
#[derive(ToolArgs, Debug)]
#[toolargs(name = "get_order", effect = "read_only")]
struct GetOrder {
    #[arg(pattern = r"ord_[A-Za-z0-9]{8}")]
    order_id: String,
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
        assert!(toolargs::rmcp::annotate::<GetOrder, _>(&mut tool_router));
        Shop { tool_router }
    }

    #[tool(name = "issue_refund")]
    async fn issue_refund(
        &self,
        Parameters(call): Parameters<Checked<IssueRefund>>,
    ) -> Result<String, CallToolResult> {
        let parsed = call.parsed()?;
        let rules: Vec<String> = parsed.repairs.iter().map(|r| r.rule.to_string()).collect();
        Ok(format!(
            "refunded {} cents on {} ({:?}, notify: {}, tags: {:?}); repairs: [{}]",
            parsed.args.amount_cents,
            parsed.args.order_id,
            parsed.args.reason,
            parsed.args.notify_customer,
            parsed.args.tags,
            rules.join(", ")
        ))
    }

    /// Look an order up by its id.
    #[tool(name = "get_order")]
    fn get_order(&self, Parameters(call): Parameters<Checked<GetOrder>>) -> CallToolResult {
        match call.into_inner() {
            Ok(parsed) => CallToolResult::success(vec![rmcp::model::ContentBlock::text(format!(
                "order {} is shipped",
                parsed.args.order_id
            ))]),
            Err(rejection) => toolargs::rmcp::error_result(&rejection),
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Shop {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

async fn connect() -> RunningService<RoleClient, ()> {
    let (server_transport, client_transport) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let server = Shop::new().serve(server_transport).await?;
        server.waiting().await?;
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    });
    ().serve(client_transport).await.expect("client connects")
}

async fn call(client: &RunningService<RoleClient, ()>, tool: &str, args: Value) -> CallToolResult {
    let Value::Object(args) = args else {
        panic!("arguments must be an object")
    };
    client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(args))
        .await
        .expect("a tool result, not a protocol error")
}

fn text(result: &CallToolResult) -> &str {
    assert_eq!(result.content.len(), 1, "{result:?}");
    &result.content[0].as_text().expect("text content").text
}

#[tokio::test]
async fn good_repairable_and_bad_calls_through_an_rmcp_client() {
    let client = connect().await;

    // A clean call runs the tool.
    let good = call(
        &client,
        "issue_refund",
        json!({"order_id": "ord_A1b2C3d4", "amount_cents": 1999, "reason": "damaged"}),
    )
    .await;
    assert_ne!(good.is_error, Some(true));
    assert_eq!(
        text(&good),
        "refunded 1999 cents on ord_A1b2C3d4 (Damaged, notify: false, tags: []); repairs: []"
    );

    // A call with representation errors of one meaning is repaired, and the tool runs.
    let repaired = call(
        &client,
        "issue_refund",
        json!({
            "order_id": "ord_A1b2C3d4",
            "amount_cents": "1999",
            "notify_customer": "TRUE",
            "reason": "Late",
            "tags": "vip",
        }),
    )
    .await;
    assert_ne!(repaired.is_error, Some(true));
    assert_eq!(
        text(&repaired),
        "refunded 1999 cents on ord_A1b2C3d4 (Late, notify: true, tags: [\"vip\"]); repairs: \
         [numeric_string_to_int, string_to_bool, enum_casefold, scalar_to_list]"
    );

    // A bad call is a tool result with isError, listing every error, as the model reads it.
    let bad_args = json!({
        "order_id": "ORD-1",
        "amount": 1999,
        "reason": "lost",
        "tags": "a, b",
    });
    let bad = call(&client, "issue_refund", bad_args.clone()).await;
    assert_eq!(bad.is_error, Some(true));
    let expected = IssueRefund::parse(&bad_args).unwrap_err();
    assert_eq!(text(&bad), expected.for_model());
    // The same JSON as structured content, for clients that read it.
    assert_eq!(bad.structured_content, Some(expected.to_model_json()));
    assert_eq!(
        bad.structured_content.as_ref().map(Value::to_string),
        Some(expected.for_model())
    );
    let body: Value = serde_json::from_str(text(&bad)).unwrap();
    let mut errors: Vec<(&str, &str)> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["error"].as_str().unwrap(), e["path"].as_str().unwrap()))
        .collect();
    errors.sort_unstable();
    assert_eq!(
        errors,
        [
            ("ambiguous_list", "$.tags"),
            ("enum", "$.reason"),
            ("missing", "$.amount_cents"),
            ("pattern", "$.order_id"),
            ("unknown_field", "$.amount"),
        ]
    );
    assert_eq!(body["ok"], false);

    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_read_only_tool_strips_invented_keys_and_rejects_bad_values() {
    let client = connect().await;

    let stripped = call(
        &client,
        "get_order",
        json!({"order_id": "ord_A1b2C3d4", "verbose": true}),
    )
    .await;
    assert_ne!(stripped.is_error, Some(true));
    assert_eq!(text(&stripped), "order ord_A1b2C3d4 is shipped");

    let bad = call(&client, "get_order", json!({"order_id": 42})).await;
    assert_eq!(bad.is_error, Some(true));
    assert_eq!(
        text(&bad),
        GetOrder::parse(r#"{"order_id": 42}"#)
            .unwrap_err()
            .for_model()
    );

    client.cancel().await.unwrap();
}

#[tokio::test]
async fn listed_tools_carry_the_schema_and_the_annotations_of_the_effect() {
    let client = connect().await;
    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), 2);

    for (tool, definition) in [
        (&tools[0], GetOrder::tool_definition(Dialect::Mcp)),
        (&tools[1], IssueRefund::tool_definition(Dialect::Mcp)),
    ] {
        let listed = serde_json::to_value(tool).unwrap();
        assert_eq!(listed["name"], definition["name"]);
        assert_eq!(listed["annotations"], definition["annotations"]);
        // rmcp adds the `$schema` of the draft; everything else is toolargs' own schema.
        let mut schema = listed["inputSchema"].clone();
        assert_eq!(
            schema.as_object_mut().unwrap().remove("$schema"),
            Some(json!("https://json-schema.org/draft/2020-12/schema"))
        );
        assert_eq!(schema, definition["inputSchema"]);
    }
    // The method's doc comment describes `get_order`; `issue_refund` takes the type's.
    assert_eq!(
        tools[0].description.as_deref(),
        Some("Look an order up by its id.")
    );
    assert_eq!(
        tools[1].description.as_deref(),
        Some("Refund part of an order.")
    );
    assert_eq!(
        tools[1].annotations,
        Some(toolargs::rmcp::annotations(toolargs::Effect::External))
    );

    client.cancel().await.unwrap();
}

#[test]
fn the_tool_definition_is_the_mcp_dialect() {
    for (tool, definition) in [
        (
            toolargs::rmcp::tool::<IssueRefund>(),
            IssueRefund::tool_definition(Dialect::Mcp),
        ),
        (
            toolargs::rmcp::tool::<GetOrder>(),
            GetOrder::tool_definition(Dialect::Mcp),
        ),
    ] {
        assert_eq!(serde_json::to_value(tool).unwrap(), definition);
    }
}

#[test]
fn checked_deserializes_from_text_and_keeps_duplicate_keys_for_the_gate() {
    let text =
        r#"{"order_id":"ord_A1b2C3d4","order_id":"ord_A1b2C3d5","amount_cents":5,"reason":"late"}"#;
    let checked: Checked<IssueRefund> = serde_json::from_str(text).unwrap();
    let rejection = checked.rejection().expect("rejected");
    assert_eq!(rejection.errors()[0].code, "duplicate_key");

    let encoded =
        Value::String(r#"{"order_id":"ord_A1b2C3d4","amount_cents":5,"reason":"late"}"#.to_owned());
    let checked: Checked<IssueRefund> = serde_json::from_value(encoded).unwrap();
    let parsed = checked.into_inner().unwrap();
    assert_eq!(parsed.repairs[0].rule, "unwrap_double_encoded");
}
