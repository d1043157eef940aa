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
fn annotate_all_completes_every_route_as_annotate_does_one() {
    let mut one_by_one = Shop::tool_router();
    assert!(toolargs::rmcp::annotate::<IssueRefund, _>(&mut one_by_one));
    assert!(toolargs::rmcp::annotate::<GetOrder, _>(&mut one_by_one));

    let mut all = Shop::tool_router();
    assert_eq!(
        toolargs::rmcp::annotate_all(&mut all),
        ["get_order", "issue_refund"]
    );
    assert_eq!(all.list_all(), one_by_one.list_all());
    // Idempotent.
    assert_eq!(toolargs::rmcp::annotate_all(&mut all).len(), 2);
    assert_eq!(all.list_all(), one_by_one.list_all());
}

#[test]
fn annotate_all_leaves_routes_it_cannot_tie_to_a_type() {
    // A route named otherwise than its type's NAME, and one whose parameters are no
    // `Checked<T>`.
    #[derive(Clone)]
    struct Other;

    #[tool_router]
    impl Other {
        #[tool(name = "refund")]
        fn refund(&self, Parameters(_call): Parameters<Checked<IssueRefund>>) -> String {
            String::new()
        }

        #[tool(name = "echo")]
        fn echo(&self, Parameters(object): Parameters<rmcp::model::JsonObject>) -> String {
            Value::Object(object).to_string()
        }
    }

    let mut router = Other::tool_router();
    assert!(toolargs::rmcp::annotate_all(&mut router).is_empty());
    assert_eq!(router.get("refund").unwrap().annotations, None);
    assert_eq!(router.get("echo").unwrap().annotations, None);
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

#[cfg(feature = "semantic")]
mod confirmation {
    //! `Confirm` from the semantic gate as an MCP elicitation: rmcp's client answers the
    //! server's `elicitation/create` as a person would, approving or declining; a client
    //! without the elicitation capability cannot be asked.

    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
    use rmcp::model::{
        CallToolRequest, CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig,
        ClientRequest, ElicitRequestParams, ElicitResult, ElicitationAction, Implementation,
        ProtocolVersion, ServerCapabilities, ServerConfig,
    };
    use rmcp::service::{
        ClientLifecycleMode, ClientServiceExt, PeerRequestOptions, RequestContext, RoleClient,
        RunningService,
    };
    use rmcp::{tool, tool_handler, tool_router, ClientHandler, ErrorData, RoleServer};
    use rmcp::{ServerHandler, ServiceExt};
    use serde_json::{json, Value};
    use toolargs::rmcp::Checked;
    use toolargs::semantic::{Correction, SemanticGate};
    use toolargs::ToolArgs;

    /// Schedule a payment.
    #[derive(ToolArgs, Debug)]
    #[toolargs(name = "schedule_payment", effect = "external")]
    struct SchedulePayment {
        #[arg(semantic = "date")]
        pay_on: chrono::NaiveDate,
        #[arg(min = 1)]
        amount_cents: i64,
    }

    /// A server that keeps the attempts at a call: a rejected call is recorded, and the next
    /// one that parses is reviewed against the first.
    #[derive(Clone)]
    struct Payments {
        tool_router: ToolRouter<Self>,
        attempts: Arc<Mutex<Correction>>,
    }

    #[tool_router]
    impl Payments {
        fn new() -> Self {
            Payments {
                tool_router: Self::tool_router(),
                attempts: Arc::default(),
            }
        }

        #[tool(name = "schedule_payment")]
        async fn schedule_payment(
            &self,
            Parameters(arguments): Parameters<rmcp::model::JsonObject>,
            context: RequestContext<RoleServer>,
        ) -> Result<String, CallToolResult> {
            let arguments = Value::Object(arguments);
            let outcome = SchedulePayment::parse(&arguments);
            let review = {
                let mut attempts = self.attempts.lock().unwrap();
                attempts.record(&arguments, &outcome);
                let review = SemanticGate::new().review::<SchedulePayment>(&attempts);
                if outcome.is_ok() {
                    *attempts = Correction::new();
                }
                review
            };
            let parsed = Checked(outcome).parsed()?;
            if let Some(review) = review {
                toolargs::rmcp::confirm(&context, &review).await?;
            }
            Ok(format!(
                "scheduled {} cents for {}",
                parsed.args.amount_cents, parsed.args.pay_on
            ))
        }
    }

    #[tool_handler(router = self.tool_router)]
    impl ServerHandler for Payments {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
        }
    }

    /// A client whose user answers every confirmation the same way, and which keeps the
    /// prompts it was shown.
    struct Person {
        answer: ElicitResult,
        prompts: Arc<Mutex<Vec<(String, Value)>>>,
    }

    impl ClientHandler for Person {
        async fn create_elicitation(
            &self,
            request: ElicitRequestParams,
            _: RequestContext<RoleClient>,
        ) -> Result<ElicitResult, ErrorData> {
            if let ElicitRequestParams::FormElicitationParams {
                message,
                requested_schema,
                ..
            } = request
            {
                let schema = serde_json::to_value(requested_schema).unwrap();
                self.prompts.lock().unwrap().push((message, schema));
            }
            Ok(self.answer.clone())
        }

        fn get_info(&self) -> ClientConfig {
            ClientConfig::new(
                ClientCapabilities::builder().enable_elicitation().build(),
                Implementation::new("person", "1.0.0"),
            )
        }
    }

    async fn connect<C: ClientHandler>(client: C) -> RunningService<RoleClient, C> {
        let (server_transport, client_transport) = tokio::io::duplex(64 * 1024);
        tokio::spawn(async move {
            let server = Payments::new().serve(server_transport).await?;
            server.waiting().await?;
            Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
        });
        client
            .serve(client_transport)
            .await
            .expect("client connects")
    }

    async fn call<C: ClientHandler>(
        client: &RunningService<RoleClient, C>,
        args: Value,
    ) -> CallToolResult {
        let Value::Object(args) = args else {
            panic!("arguments must be an object")
        };
        client
            .call_tool(CallToolRequestParams::new("schedule_payment").with_arguments(args))
            .await
            .expect("a tool result, not a protocol error")
    }

    fn text(result: &CallToolResult) -> &str {
        &result.content[0].as_text().expect("text content").text
    }

    /// `04/03/2026` is rejected as ambiguous; the retry picks 4 March, one of its two readings,
    /// for a tool that pays: the gate's decision is `Confirm`.
    async fn corrected_call<C: ClientHandler>(
        client: &RunningService<RoleClient, C>,
    ) -> CallToolResult {
        let first = call(
            client,
            json!({"pay_on": "04/03/2026", "amount_cents": 5000}),
        )
        .await;
        assert_eq!(first.is_error, Some(true));
        assert_eq!(
            first.structured_content.as_ref().unwrap()["errors"][0]["error"],
            "ambiguous_date"
        );
        call(
            client,
            json!({"pay_on": "2026-03-04", "amount_cents": 5000}),
        )
        .await
    }

    fn refusal_code(result: &CallToolResult) -> String {
        assert_eq!(result.is_error, Some(true), "{result:?}");
        let body = result
            .structured_content
            .clone()
            .expect("structured content");
        // The same JSON as text, for clients that read only text.
        assert_eq!(text(result), body.to_string());
        assert_eq!(body["ok"], false);
        assert_eq!(body["errors"][0]["path"], "$");
        body["errors"][0]["error"].as_str().unwrap().to_owned()
    }

    #[tokio::test]
    async fn an_approved_confirmation_runs_the_call() {
        let prompts = Arc::default();
        let person = Person {
            answer: ElicitResult::new(ElicitationAction::Accept)
                .with_content(json!({"approve": true})),
            prompts: Arc::clone(&prompts),
        };
        let client = connect(person).await;

        let result = corrected_call(&client).await;
        assert_ne!(result.is_error, Some(true), "{result:?}");
        assert_eq!(text(&result), "scheduled 5000 cents for 2026-03-04");

        // The user was asked once, with the review's prompt and a form of one boolean.
        let asked = prompts.lock().unwrap().clone();
        assert_eq!(asked.len(), 1);
        let (message, schema) = &asked[0];
        assert!(
            message.starts_with("The corrected call to schedule_payment (external)"),
            "{message}"
        );
        assert!(message.contains("$.pay_on"), "{message}");
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["properties"]["approve"]["type"], "boolean");
        assert_eq!(schema["required"], json!(["approve"]));

        // A call that needs no correction is not confirmed.
        let clean = call(
            &client,
            json!({"pay_on": "2026-05-01", "amount_cents": 100}),
        )
        .await;
        assert_eq!(text(&clean), "scheduled 100 cents for 2026-05-01");
        assert_eq!(prompts.lock().unwrap().len(), 1);

        client.cancel().await.unwrap();
    }

    #[tokio::test]
    async fn a_declined_or_cancelled_confirmation_refuses_the_call() {
        for answer in [
            ElicitResult::new(ElicitationAction::Decline),
            ElicitResult::new(ElicitationAction::Cancel),
            // Accepting the form without approving is no approval.
            ElicitResult::new(ElicitationAction::Accept).with_content(json!({"approve": false})),
            ElicitResult::new(ElicitationAction::Accept),
        ] {
            let prompts = Arc::default();
            let client = connect(Person {
                answer: answer.clone(),
                prompts: Arc::clone(&prompts),
            })
            .await;
            let result = corrected_call(&client).await;
            assert_eq!(refusal_code(&result), "user_declined", "{answer:?}");
            assert!(text(&result).contains("the user declined the call to schedule_payment"));
            assert_eq!(prompts.lock().unwrap().len(), 1);
            client.cancel().await.unwrap();
        }
    }

    /// A client whose user never answers: the question stays open until the server withdraws
    /// it.
    struct Away {
        asked: Arc<tokio::sync::Notify>,
        withdrawn: Arc<tokio::sync::Notify>,
    }

    impl ClientHandler for Away {
        async fn create_elicitation(
            &self,
            _: ElicitRequestParams,
            context: RequestContext<RoleClient>,
        ) -> Result<ElicitResult, ErrorData> {
            self.asked.notify_one();
            context.ct.cancelled().await;
            self.withdrawn.notify_one();
            Ok(ElicitResult::new(ElicitationAction::Cancel))
        }

        fn get_info(&self) -> ClientConfig {
            ClientConfig::new(
                ClientCapabilities::builder().enable_elicitation().build(),
                Implementation::new("away", "1.0.0"),
            )
        }
    }

    #[tokio::test]
    async fn a_tool_call_cancelled_while_the_user_is_asked_withdraws_the_question() {
        let asked = Arc::new(tokio::sync::Notify::new());
        let withdrawn = Arc::new(tokio::sync::Notify::new());
        let client = connect(Away {
            asked: Arc::clone(&asked),
            withdrawn: Arc::clone(&withdrawn),
        })
        .await;
        let first = call(
            &client,
            json!({"pay_on": "04/03/2026", "amount_cents": 5000}),
        )
        .await;
        assert_eq!(first.is_error, Some(true));

        let Value::Object(arguments) = json!({"pay_on": "2026-03-04", "amount_cents": 5000}) else {
            unreachable!()
        };
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(
            CallToolRequestParams::new("schedule_payment").with_arguments(arguments),
        ));
        let corrected = client
            .send_cancellable_request(request, PeerRequestOptions::no_options())
            .await
            .unwrap();
        asked.notified().await;
        corrected
            .cancel(Some("the user stopped the model".to_owned()))
            .await
            .unwrap();
        // The server withdraws its question: the client sees its request cancelled.
        tokio::time::timeout(Duration::from_secs(20), withdrawn.notified())
            .await
            .expect("the elicitation is cancelled");
        client.cancel().await.unwrap();
    }

    #[tokio::test]
    async fn a_session_on_protocol_2026_07_28_is_not_asked() {
        // That protocol has no requests from server to client; rmcp refuses to send one.
        let (server_transport, client_transport) = tokio::io::duplex(64 * 1024);
        tokio::spawn(async move {
            let server = Payments::new().serve(server_transport).await?;
            server.waiting().await?;
            Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
        });
        let prompts = Arc::default();
        let person = Person {
            answer: ElicitResult::new(ElicitationAction::Accept)
                .with_content(json!({"approve": true})),
            prompts: Arc::clone(&prompts),
        };
        let lifecycle = ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        };
        let client = person
            .serve_with_lifecycle(client_transport, lifecycle)
            .await
            .expect("client connects");
        let result = corrected_call(&client).await;
        assert_eq!(refusal_code(&result), "confirmation_unavailable");
        assert!(text(&result).contains("2026-07-28"), "{}", text(&result));
        assert!(prompts.lock().unwrap().is_empty());
        client.cancel().await.unwrap();
    }

    #[tokio::test]
    async fn a_client_that_cannot_ask_the_user_is_told_why() {
        // rmcp's default client declares no elicitation capability.
        let client = connect(()).await;
        let result = corrected_call(&client).await;
        assert_eq!(refusal_code(&result), "confirmation_unavailable");
        assert!(
            text(&result).contains(
                "the client cannot ask the user (it declares no elicitation capability for forms)"
            ),
            "{}",
            text(&result)
        );
        client.cancel().await.unwrap();
    }
}

mod stdio {
    //! The `mcp_stdio` example as an MCP client runs it: a child process spoken to in
    //! JSON-RPC, one message a line, on its stdin and stdout. `cargo test` builds the example
    //! next to the test binary (`target/debug/examples/mcp_stdio`).

    use std::io::{BufRead, BufReader, Write};
    use std::path::PathBuf;
    use std::process::{Child, ChildStdin, Command, Stdio};
    use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
    use std::time::Duration;

    use serde_json::{json, Value};

    /// Long enough for a loaded machine; a reply that is due comes in milliseconds.
    const DUE: Duration = Duration::from_secs(20);

    struct Server {
        child: Child,
        stdin: Option<ChildStdin>,
        replies: Receiver<Value>,
    }

    fn example() -> PathBuf {
        // target/debug/deps/it-<hash> -> target/debug/examples/mcp_stdio
        let test = std::env::current_exe().unwrap();
        let debug = test.parent().and_then(|deps| deps.parent()).unwrap();
        debug
            .join("examples")
            .join(format!("mcp_stdio{}", std::env::consts::EXE_SUFFIX))
    }

    impl Server {
        fn start() -> Server {
            Server::start_with(json!({}))
        }

        /// Starts the example and opens a session as a client with these capabilities.
        fn start_with(capabilities: Value) -> Server {
            let path = example();
            let mut child = Command::new(&path)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .unwrap_or_else(|e| {
                    panic!(
                        "{}: {e}; `cargo test --features rmcp` builds it, as does \
                         `cargo build --features rmcp --example mcp_stdio`",
                        path.display()
                    )
                });
            let stdout = child.stdout.take().unwrap();
            let (sender, replies) = mpsc::channel();
            std::thread::spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { return };
                    let reply = serde_json::from_str(&line).expect("each line is one JSON message");
                    if sender.send(reply).is_err() {
                        return;
                    }
                }
            });
            let stdin = child.stdin.take();
            let mut server = Server {
                child,
                stdin,
                replies,
            };
            let init = server.request(
                0,
                "initialize",
                json!({
                    "protocolVersion": "2025-11-25",
                    "capabilities": capabilities,
                    "clientInfo": {"name": "a client process", "version": "1.0.0"},
                }),
            );
            assert_eq!(init["result"]["serverInfo"]["name"], "toolargs-refunds");
            assert!(
                init["result"]["capabilities"]["tools"].is_object(),
                "{init}"
            );
            server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
            server
        }

        fn send(&mut self, line: &str) {
            let stdin = self.stdin.as_mut().unwrap();
            stdin.write_all(line.as_bytes()).unwrap();
            stdin.write_all(b"\n").unwrap();
            stdin.flush().unwrap();
        }

        fn next_reply(&self, within: Duration) -> Option<Value> {
            match self.replies.recv_timeout(within) {
                Ok(reply) => Some(reply),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => panic!("the server closed its stdout"),
            }
        }

        fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
            let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
            self.send(&message.to_string());
            let reply = self.next_reply(DUE).expect("a reply");
            assert_eq!(reply["id"], id, "{reply}");
            reply
        }

        /// A `tools/call` whose arguments are written as given, character for character.
        fn call_text(&mut self, id: u64, tool: &str, arguments: &str) -> Value {
            self.send(&format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
            ));
            let reply = self.next_reply(DUE).expect("a reply");
            assert_eq!(reply["id"], id, "{reply}");
            reply["result"].clone()
        }
    }

    impl Drop for Server {
        fn drop(&mut self) {
            let _killed = self.child.kill();
            let _reaped = self.child.wait();
        }
    }

    fn text(result: &Value) -> &str {
        result["content"][0]["text"].as_str().expect("a text block")
    }

    #[test]
    fn a_client_process_lists_and_calls_the_tools() {
        let mut server = Server::start();

        let list = server.request(1, "tools/list", json!({}));
        let tools = list["result"]["tools"].as_array().unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
        if cfg!(feature = "semantic") {
            assert_eq!(names, ["issue_refund", "quote_refund", "schedule_payment"]);
            assert_eq!(tools[2]["annotations"]["destructiveHint"], true);
            assert_eq!(tools[2]["description"], "Schedule a payment.");
        } else {
            assert_eq!(names, ["issue_refund", "quote_refund"]);
        }
        assert_eq!(tools[0]["annotations"]["readOnlyHint"], false);
        assert_eq!(tools[0]["annotations"]["openWorldHint"], true);
        assert_eq!(tools[1]["annotations"]["readOnlyHint"], true);
        assert_eq!(
            tools[0]["inputSchema"]["required"],
            json!(["order_id", "amount_cents"])
        );

        let clean = server.call_text(
            2,
            "issue_refund",
            r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999}"#,
        );
        assert_eq!(clean["isError"], false);
        assert_eq!(
            text(&clean),
            "refunded 1999 cents on ord_A1b2C3d4 (notify: false); repairs: []"
        );

        let repaired = server.call_text(
            3,
            "issue_refund",
            r#"{"order_id":"ord_A1b2C3d4","amount_cents":"1999","notify_customer":"True"}"#,
        );
        assert_eq!(repaired["isError"], false);
        assert_eq!(
            text(&repaired),
            "refunded 1999 cents on ord_A1b2C3d4 (notify: true); repairs: \
             [numeric_string_to_int at $.amount_cents, string_to_bool at $.notify_customer]"
        );

        let rejected = server.call_text(
            4,
            "issue_refund",
            r#"{"order_id":"ORD-1","amount":1999,"notify_customer":"yes"}"#,
        );
        assert_eq!(rejected["isError"], true);
        let body = &rejected["structuredContent"];
        assert_eq!(text(&rejected), body.to_string());
        assert_eq!(body["ok"], false);
        let mut codes: Vec<&str> = body["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["error"].as_str().unwrap())
            .collect();
        codes.sort_unstable();
        assert_eq!(
            codes,
            ["ambiguous_boolean", "missing", "pattern", "unknown_field"]
        );
    }

    #[test]
    fn what_rmcp_decodes_before_the_gate_reads_it() {
        let mut server = Server::start();

        // Floats arrive exact: the shortest decimal of each double reads back as itself.
        for share in ["0.30000000000000004", "0.1", "0.7", "0.9999999999999999"] {
            let arguments = format!(r#"{{"order_id":"ord_A1b2C3d4","share":{share}}}"#);
            let quote = server.call_text(10, "quote_refund", &arguments);
            assert_eq!(text(&quote), format!("a refund of {share} of ord_A1b2C3d4"));
        }

        // Extra digits are gone: the nearest double of 1999.0000000000000001 is 1999.0, which
        // the gate reads as 1999 (given the text, it says `lossy_number`).
        let digits = server.call_text(
            11,
            "issue_refund",
            r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999.0000000000000001}"#,
        );
        assert_eq!(
            text(&digits),
            "refunded 1999 cents on ord_A1b2C3d4 (notify: false); repairs: \
             [integral_float_to_int at $.amount_cents]"
        );

        // A key sent twice is gone: the last one is kept (given the text, `duplicate_key`).
        let twice = server.call_text(
            12,
            "issue_refund",
            r#"{"order_id":"ord_A1b2C3d4","amount_cents":5,"amount_cents":1999}"#,
        );
        assert_eq!(
            text(&twice),
            "refunded 1999 cents on ord_A1b2C3d4 (notify: false); repairs: []"
        );
    }

    /// With the `semantic` feature the example has `schedule_payment`, which asks the user
    /// before it runs a call corrected into something that may mean otherwise.
    #[cfg(feature = "semantic")]
    #[test]
    fn a_client_process_is_asked_to_confirm_a_corrected_call() {
        const FIRST: &str = r#"{"pay_on":"04/03/2026","amount_cents":5000}"#;
        const CORRECTED: &str = r#"{"pay_on":"2026-03-04","amount_cents":5000}"#;
        let mut server = Server::start_with(json!({"elicitation": {}}));
        for (answer, code) in [
            (
                json!({"action": "accept", "content": {"approve": true}}),
                None,
            ),
            (json!({"action": "decline"}), Some("user_declined")),
            (json!({"action": "cancel"}), Some("user_declined")),
        ] {
            let first = server.call_text(50, "schedule_payment", FIRST);
            assert_eq!(
                first["structuredContent"]["errors"][0]["error"],
                "ambiguous_date"
            );

            server.send(&format!(
                r#"{{"jsonrpc":"2.0","id":51,"method":"tools/call","params":{{"name":"schedule_payment","arguments":{CORRECTED}}}}}"#
            ));
            // Before the reply, the server's question: 4 March or 3 April?
            let question = server.next_reply(DUE).expect("an elicitation request");
            assert_eq!(question["method"], "elicitation/create", "{question}");
            let message = question["params"]["message"].as_str().unwrap();
            assert!(message.contains("$.pay_on"), "{message}");
            assert!(message.contains("2026-04-03"), "{message}");
            let form = &question["params"]["requestedSchema"];
            assert_eq!(form["properties"]["approve"]["type"], "boolean");
            assert_eq!(form["required"], json!(["approve"]));
            server.send(
                &json!({"jsonrpc": "2.0", "id": question["id"], "result": answer}).to_string(),
            );

            let reply = server.next_reply(DUE).expect("the tool result");
            assert_eq!(reply["id"], 51, "{reply}");
            let result = &reply["result"];
            match code {
                None => {
                    assert_eq!(result["isError"], false, "{result}");
                    assert_eq!(text(result), "scheduled 5000 cents for 2026-03-04");
                }
                Some(code) => {
                    assert_eq!(result["isError"], true, "{result}");
                    assert_eq!(result["structuredContent"]["errors"][0]["error"], code);
                    assert_eq!(text(result), result["structuredContent"].to_string());
                }
            }
        }

        // A client that does not declare the capability is not asked: the call is refused.
        let mut server = Server::start();
        server.call_text(60, "schedule_payment", FIRST);
        let refused = server.call_text(61, "schedule_payment", CORRECTED);
        assert_eq!(refused["isError"], true);
        assert_eq!(
            refused["structuredContent"]["errors"][0]["error"],
            "confirmation_unavailable"
        );
    }

    #[test]
    fn a_line_rmcp_cannot_decode_gets_no_reply_at_all() {
        let mut server = Server::start();
        let call = |id: u64, arguments: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"quote_refund","arguments":{arguments}}}}}"#
            )
        };
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let long = "x".repeat(16 * 1024 * 1024);
        let lines = [
            call(20, r#"{"order_id":"ord_A1b2C3d4","share":NaN}"#),
            call(
                21,
                &format!(r#"{{"order_id":"ord_A1b2C3d4","share":{deep}}}"#),
            ),
            call(22, &format!(r#"{{"order_id":"{long}","share":0.5}}"#)),
        ];
        for (line, next) in lines.iter().zip([30, 31, 32]) {
            server.send(line);
            // The server is still there, and the request after the line is the next reply.
            let ping = server.request(next, "ping", json!({}));
            assert_eq!(ping["result"], json!({}));
        }
        // Nothing was on its way for the three lines.
        assert_eq!(server.next_reply(Duration::from_secs(2)), None);
    }
}
