//! `Deserialize` and `JsonSchema` from the derive (features `serde` and `schemars`): a derived
//! type used as is wherever a framework asks for `Deserialize + JsonSchema`.

use serde_json::{json, Value};
use toolargs::ToolArgs;

use crate::common::{IssueRefund, Reason};

#[test]
fn deserializing_runs_the_policy() {
    // Clean, from text and from a decoded value.
    let clean = r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999,"reason":"damaged"}"#;
    let from_text: IssueRefund = serde_json::from_str(clean).unwrap();
    let from_value: IssueRefund =
        serde_json::from_value(serde_json::from_str::<Value>(clean).unwrap()).unwrap();
    assert_eq!(from_text, from_value);
    assert_eq!(from_text, IssueRefund::parse(clean).unwrap().args);

    // Repaired: what has one meaning is read as the parser reads it.
    let repaired: IssueRefund = serde_json::from_value(json!({
        "order_id": "ord_A1b2C3d4", "amount_cents": "1999", "reason": "Late", "tags": "vip"
    }))
    .unwrap();
    assert_eq!(repaired.amount_cents, 1999);
    assert_eq!(repaired.reason, Reason::Late);
    assert_eq!(repaired.tags, ["vip"]);

    // Rejected: the error's message is the text the model should be sent back.
    let bad = json!({"order_id": "ORD-1", "amount": 1999, "reason": "lost"});
    let error = serde_json::from_value::<IssueRefund>(bad.clone()).unwrap_err();
    let expected = IssueRefund::parse(&bad).unwrap_err().for_model();
    assert_eq!(error.to_string(), expected);
    let from_text = serde_json::from_str::<IssueRefund>(&bad.to_string()).unwrap_err();
    assert!(from_text.to_string().starts_with(&expected), "{from_text}");
}

#[test]
fn what_a_decoded_value_cannot_show_is_gone_before_the_policy_sees_it() {
    // A key sent twice: serde_json keeps the last one, so the call reads as sent once.
    let twice =
        r#"{"order_id":"ord_A1b2C3d4","amount_cents":1,"amount_cents":1999,"reason":"late"}"#;
    assert!(IssueRefund::parse(twice).is_err());
    let read: IssueRefund = serde_json::from_str(twice).unwrap();
    assert_eq!(read.amount_cents, 1999);
}

#[test]
fn the_json_schema_is_the_derived_one() {
    let generated = schemars::schema_for!(IssueRefund);
    // The same schema, whole, the meta-schema included.
    assert_eq!(generated.to_value(), IssueRefund::json_schema());
    assert_eq!(
        <IssueRefund as schemars::JsonSchema>::schema_name(),
        "issue_refund"
    );
}

#[cfg(feature = "rmcp")]
mod rmcp_parameters {
    //! rmcp's own `Parameters<T>`, with a derived type and no wrapper, on rmcp's dispatch path.

    use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
    use rmcp::model::{CallToolRequestParams, ServerCapabilities, ServerConfig};
    use rmcp::{tool, tool_handler, tool_router, ServerHandler, ServiceExt};
    use serde_json::json;
    use toolargs::ToolArgs;

    use crate::common::IssueRefund;

    #[derive(Clone)]
    struct Shop {
        tool_router: ToolRouter<Self>,
    }

    #[tool_router]
    impl Shop {
        fn new() -> Self {
            Shop {
                tool_router: Self::tool_router(),
            }
        }

        #[tool(name = "issue_refund")]
        fn issue_refund(&self, Parameters(refund): Parameters<IssueRefund>) -> String {
            format!("refunded {} cents", refund.amount_cents)
        }
    }

    #[tool_handler(router = self.tool_router)]
    impl ServerHandler for Shop {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
        }
    }

    #[tokio::test]
    async fn a_derived_type_is_rmcp_parameters_as_is() {
        let (server_transport, client_transport) = tokio::io::duplex(64 * 1024);
        tokio::spawn(async move {
            let server = Shop::new().serve(server_transport).await?;
            server.waiting().await?;
            Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
        });
        let client = ().serve(client_transport).await.expect("client connects");

        // The tool's input schema is the derived one.
        let tools = client.list_all_tools().await.unwrap();
        let schema = serde_json::Value::Object((*tools[0].input_schema).clone());
        assert_eq!(
            schema["properties"],
            IssueRefund::json_schema()["properties"]
        );

        let call = |args: serde_json::Value| {
            let serde_json::Value::Object(args) = args else {
                unreachable!()
            };
            client.call_tool(CallToolRequestParams::new("issue_refund").with_arguments(args))
        };
        let clean =
            call(json!({"order_id": "ord_A1b2C3d4", "amount_cents": 1999, "reason": "late"}))
                .await
                .unwrap();
        assert_eq!(
            clean.content[0].as_text().unwrap().text,
            "refunded 1999 cents"
        );
        let repaired =
            call(json!({"order_id": "ord_A1b2C3d4", "amount_cents": "1999", "reason": "Late"}))
                .await
                .unwrap();
        assert_eq!(
            repaired.content[0].as_text().unwrap().text,
            "refunded 1999 cents"
        );
        let bad = json!({"order_id": "ord_A1b2C3d4", "amount_cents": "19.99", "reason": "late"});
        // rmcp answers a call whose parameters do not deserialize with an error result, whose
        // text carries the deserialize error: the model-facing rejection.
        let rejected = call(bad.clone()).await.unwrap();
        assert_eq!(rejected.is_error, Some(true));
        let expected = IssueRefund::parse(&bad).unwrap_err().for_model();
        let text = &rejected.content[0].as_text().unwrap().text;
        assert!(text.ends_with(&expected), "{text}");
        client.cancel().await.unwrap();
    }
}

#[cfg(feature = "rig")]
mod rig_args {
    //! rig's `Tool::Args` as the derived type itself, decoded by rig's own dispatch.

    use rig::tool::{ErasedTool, Tool, ToolContext, ToolErrorKind, ToolExecutionError};
    use serde_json::{json, Value};
    use toolargs::ToolArgs;

    use crate::common::IssueRefund;

    struct Refunds;

    impl Tool for Refunds {
        const NAME: &'static str = IssueRefund::NAME;
        type Args = IssueRefund;
        type Output = Value;
        type Error = ToolExecutionError;

        fn description(&self) -> String {
            IssueRefund::DESCRIPTION.unwrap_or_default().to_owned()
        }

        fn parameters(&self) -> Value {
            IssueRefund::json_schema()
        }

        async fn call(
            &self,
            _: &mut ToolContext,
            args: IssueRefund,
        ) -> Result<Value, ToolExecutionError> {
            Ok(json!({"refunded": args.amount_cents}))
        }
    }

    fn execute(arguments: &str) -> rig::tool::ToolResult {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(Refunds.execute(arguments.to_owned(), &mut ToolContext::default()))
    }

    #[test]
    fn clean_repaired_and_rejected_calls() {
        let clean = execute(r#"{"order_id":"ord_A1b2C3d4","amount_cents":1999,"reason":"late"}"#);
        assert_eq!(clean.output().as_json(), Some(&json!({"refunded": 1999})));
        let repaired =
            execute(r#"{"order_id":"ord_A1b2C3d4","amount_cents":"1999","reason":"Late"}"#);
        assert_eq!(
            repaired.output().as_json(),
            Some(&json!({"refunded": 1999}))
        );
        let bad = r#"{"order_id":"ord_A1b2C3d4","amount_cents":"19.99","reason":"late"}"#;
        let rejected = execute(bad);
        assert!(rejected.is_error_kind(ToolErrorKind::InvalidArgs));
        let expected = IssueRefund::parse(bad).unwrap_err().for_model();
        let message = rejected.error().expect("an error").message();
        assert!(message.contains(&expected), "{message}");
        // What the model reads: rig's prefix, then the rejection.
        assert_eq!(
            rejected.output().as_text(),
            Some(format!("failed to parse tool arguments: {expected}").as_str())
        );
    }
}
