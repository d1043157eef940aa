//! MCP servers built with [rmcp](https://docs.rs/rmcp): a derived type as the parameters of a
//! `#[tool]` method, its schema as the tool's `inputSchema`, its effect as the tool's
//! annotations, and a rejection as a tool result with `isError: true` listing every error.
//!
//! rmcp deserializes a tool's arguments with serde and answers a failure with the text of
//! that one serde error. [`Checked<T>`] instead runs [`ToolArgs::parse`] inside `Deserialize`
//! and never fails: the handler receives the parsed arguments with their repairs, or the [`Rejection`],
//! and [`Checked::parsed`] turns a rejection into the `isError` result that carries
//! [`Rejection::for_model`], so the model sees every error of its call at once.
//!
//! ```
//! use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
//! use rmcp::model::{CallToolResult, ServerCapabilities, ServerConfig};
//! use rmcp::{tool, tool_handler, tool_router, ServerHandler};
//! use toolargs::rmcp::Checked;
//! use toolargs::ToolArgs;
//!
//! /// Refund part of an order.
//! #[derive(ToolArgs, Debug)]
//! #[toolargs(name = "issue_refund", effect = "external")]
//! struct IssueRefund {
//!     #[arg(pattern = r"ord_[A-Za-z0-9]{8}")]
//!     order_id: String,
//!     #[arg(min = 1, max = 50000)]
//!     amount_cents: i64,
//! }
//!
//! #[derive(Clone)]
//! struct Refunds {
//!     tool_router: ToolRouter<Self>,
//! }
//!
//! #[tool_router]
//! impl Refunds {
//!     fn new() -> Self {
//!         let mut tool_router = Self::tool_router();
//!         // annotations (readOnlyHint, destructiveHint, ...) from each tool's effect
//!         let completed = toolargs::rmcp::annotate_all(&mut tool_router);
//!         assert_eq!(completed, ["issue_refund"]);
//!         Refunds { tool_router }
//!     }
//!
//!     /// Refund part of an order.
//!     #[tool(name = "issue_refund")]
//!     async fn issue_refund(
//!         &self,
//!         Parameters(call): Parameters<Checked<IssueRefund>>,
//!     ) -> Result<String, CallToolResult> {
//!         let parsed = call.parsed()?; // a rejection is an `isError` result listing every error
//!         Ok(format!("refunded {} cents", parsed.args.amount_cents))
//!     }
//! }
//!
//! #[tool_handler(router = self.tool_router)]
//! impl ServerHandler for Refunds {
//!     fn get_info(&self) -> ServerConfig {
//!         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
//!     }
//! }
//!
//! let server = Refunds::new();
//! let tool = server.tool_router.get("issue_refund").unwrap();
//! assert_eq!(tool.annotations, Some(toolargs::rmcp::annotations(IssueRefund::EFFECT)));
//! assert_eq!(tool.input_schema["required"], serde_json::json!(["order_id", "amount_cents"]));
//! ```
//!
//! A server that lists its tools by hand takes the whole definition from [`tool`]. With the
//! `semantic` feature, `confirm` carries out the semantic gate's decision on a call, asking the
//! user through the client (an MCP elicitation) when the decision is `Confirm`.

use std::borrow::Cow;
use std::fmt;
use std::sync::{Mutex, PoisonError};
#[cfg(feature = "semantic")]
use std::{collections::BTreeMap, future::Future, pin::Pin, task::Poll};

use ::rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use ::rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use ::rmcp::schemars::{JsonSchema, Schema, SchemaGenerator};
#[cfg(feature = "semantic")]
use ::rmcp::{
    model::{
        BooleanSchema, ClientResult, ElicitRequest, ElicitRequestParams, ElicitationAction,
        ElicitationSchema, PrimitiveSchemaDefinition, ServerRequest,
    },
    service::{PeerRequestOptions, RequestContext},
    RoleServer,
};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

#[cfg(feature = "semantic")]
use crate::semantic::{Decision, Review};
use crate::{Dialect, Effect, Parsed, Rejection, ToolArgs};

/// Tool arguments that went through the parser: use `Parameters<Checked<T>>` in a `#[tool]`
/// method where `Parameters<T>` would take a serde type.
///
/// Its `Deserialize` runs [`ToolArgs::parse`] and never fails, so rmcp always calls the
/// handler; its `JsonSchema` is [`ToolArgs::json_schema`], so the `inputSchema` rmcp publishes
/// is the one the parser enforces.
pub struct Checked<T>(pub Result<Parsed<T>, Rejection>);

impl<T> Checked<T> {
    /// The outcome of the parse: the arguments with their repairs, or the rejection.
    pub fn into_inner(self) -> Result<Parsed<T>, Rejection> {
        self.0
    }

    /// The parsed arguments, or the rejection as the tool result to return
    /// ([`error_result`]: `isError: true`, every error). Made for `?` in a `#[tool]` method
    /// that returns `Result<_, CallToolResult>`.
    // The error is rmcp's own result type, which is what a `#[tool]` method returns.
    #[allow(clippy::result_large_err)]
    pub fn parsed(self) -> Result<Parsed<T>, CallToolResult> {
        self.0.map_err(|rejection| error_result(&rejection))
    }

    /// The rejection, if the arguments were rejected.
    pub fn rejection(&self) -> Option<&Rejection> {
        self.0.as_ref().err()
    }
}

impl<T: fmt::Debug> fmt::Debug for Checked<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Checked").field(&self.0).finish()
    }
}

impl<T: Clone> Clone for Checked<T> {
    fn clone(&self) -> Self {
        Checked(self.0.clone())
    }
}

impl<'de, T: ToolArgs> Deserialize<'de> for Checked<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Checked(super::serde_parse::deserialize(
            deserializer,
            &crate::ParseOptions::DEFAULT,
        )))
    }
}

impl<T: ToolArgs> JsonSchema for Checked<T> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed(T::NAME)
    }

    fn schema_id() -> Cow<'static, str> {
        Cow::Owned(format!("toolargs::Checked<{}>", std::any::type_name::<T>()))
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let schema = T::json_schema();
        seen::<T>(&schema);
        Schema::try_from(schema).unwrap_or_default()
    }
}

/// A tool whose `Checked<T>` schema was generated (rmcp does so when a router is built), by
/// what its route shows: its name and its `inputSchema`. [`annotate_all`] reads these.
struct Seen {
    name: &'static str,
    schema: Value,
    effect: Effect,
    description: Option<&'static str>,
}

static SEEN: Mutex<Vec<Seen>> = Mutex::new(Vec::new());

fn seen<T: ToolArgs>(schema: &Value) {
    let schema = published(schema);
    let mut seen = SEEN.lock().unwrap_or_else(PoisonError::into_inner);
    let known = seen.iter().any(|s| {
        s.name == T::NAME
            && s.effect == T::EFFECT
            && s.description == T::DESCRIPTION
            && s.schema == schema
    });
    if !known {
        seen.push(Seen {
            name: T::NAME,
            schema,
            effect: T::EFFECT,
            description: T::DESCRIPTION,
        });
    }
}

/// A schema as a route publishes it: rmcp sets the root's `$schema` and drops its `title`
/// and `description`.
fn published(schema: &Value) -> Value {
    let mut schema = schema.clone();
    if let Value::Object(root) = &mut schema {
        for key in ["$schema", "title", "description"] {
            root.remove(key);
        }
    }
    schema
}

/// The tool result for a rejected call: `isError: true`, the model-facing JSON
/// (`{"ok":false,"errors":[...]}`, every error with its code and path) as `structuredContent`,
/// and the same JSON as one text block for clients that read only text.
pub fn error_result(rejection: &Rejection) -> CallToolResult {
    refusal(rejection.to_model_json())
}

/// An `isError` result carrying `body`, the model-facing JSON, as `structuredContent` and as
/// its one text block.
fn refusal(body: Value) -> CallToolResult {
    let mut result = CallToolResult::error(vec![ContentBlock::text(body.to_string())]);
    result.structured_content = Some(body);
    result
}

/// The MCP tool annotations of an effect ([`Effect::mcp_annotations`]) as rmcp's type.
pub fn annotations(effect: Effect) -> ToolAnnotations {
    let hints = effect.mcp_annotations();
    let hint = |key: &str| hints.get(key).and_then(Value::as_bool);
    ToolAnnotations::from_raw(
        None,
        hint("readOnlyHint"),
        hint("destructiveHint"),
        hint("idempotentHint"),
        hint("openWorldHint"),
    )
}

/// The whole MCP tool definition of `T` as rmcp's [`Tool`]: the same name, description,
/// `inputSchema` and annotations as `T::tool_definition(Dialect::Mcp)`.
pub fn tool<T: ToolArgs>() -> Tool {
    let schema = match Dialect::Mcp.parameters(&T::json_schema(), T::DESCRIPTION) {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    };
    Tool::new_with_raw(T::NAME, T::DESCRIPTION.map(Cow::Borrowed), schema)
        .with_annotations(annotations(T::EFFECT))
}

/// Completes the route named [`T::NAME`](ToolArgs::NAME) in a router (one built by
/// `#[tool_router]`, for instance) from `T`: the annotations of its effect (keeping an
/// annotation `title`), and `T`'s description when the route has none.
///
/// Returns false, changing nothing, when the router has no tool of that name (a `#[tool]`
/// method named otherwise needs `#[tool(name = "...")]`).
#[must_use = "false means no route is named after the tool"]
pub fn annotate<T: ToolArgs, S>(router: &mut ToolRouter<S>) -> bool {
    let Some(route) = router.map.get_mut(T::NAME) else {
        return false;
    };
    complete(route, T::EFFECT, T::DESCRIPTION);
    true
}

/// Completes, as [`annotate`] does, every route of a router whose parameters are
/// `Parameters<Checked<T>>`, in one call: the annotations of each `T`'s effect (keeping an
/// annotation `title`), and `T`'s description when the route has none.
///
/// `#[tool]` takes each annotation hint as a literal, and the one thing a route takes from
/// its parameter type is the `inputSchema`; so a route is matched to its `T` by what it
/// shows: the tool's name and the schema of `Checked<T>`, which rmcp generated when the router
/// was built. Returns the names of the routes it completed, sorted. A route it leaves alone
/// takes other parameters (a plain `Parameters<T>`, for one), has an `input_schema` of its own,
/// or is named otherwise than [`T::NAME`](ToolArgs::NAME) (`#[tool(name = "...")]` fixes that).
///
/// ```
/// use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
/// use rmcp::model::CallToolResult;
/// use rmcp::{tool, tool_router};
/// use toolargs::rmcp::Checked;
/// use toolargs::{Effect, ToolArgs};
///
/// /// Look an order up.
/// #[derive(ToolArgs, Debug)]
/// #[toolargs(name = "get_order", effect = "read_only")]
/// struct GetOrder {
///     order_id: String,
/// }
///
/// /// Cancel an order.
/// #[derive(ToolArgs, Debug)]
/// #[toolargs(name = "cancel_order", effect = "destructive")]
/// struct CancelOrder {
///     order_id: String,
/// }
///
/// struct Orders;
///
/// #[tool_router]
/// impl Orders {
///     #[tool(name = "get_order")]
///     fn get_order(&self, Parameters(call): Parameters<Checked<GetOrder>>) -> Result<String, CallToolResult> {
///         Ok(format!("order {} is shipped", call.parsed()?.args.order_id))
///     }
///
///     #[tool(name = "cancel_order")]
///     fn cancel_order(&self, Parameters(call): Parameters<Checked<CancelOrder>>) -> Result<String, CallToolResult> {
///         Ok(format!("cancelled {}", call.parsed()?.args.order_id))
///     }
/// }
///
/// let mut router: ToolRouter<Orders> = Orders::tool_router();
/// assert_eq!(toolargs::rmcp::annotate_all(&mut router), ["cancel_order", "get_order"]);
/// let hints = |name: &str| router.get(name).unwrap().annotations.clone();
/// assert_eq!(hints("get_order"), Some(toolargs::rmcp::annotations(Effect::ReadOnly)));
/// assert_eq!(hints("cancel_order"), Some(toolargs::rmcp::annotations(Effect::Destructive)));
/// assert_eq!(router.get("cancel_order").unwrap().description.as_deref(), Some("Cancel an order."));
/// ```
pub fn annotate_all<S>(router: &mut ToolRouter<S>) -> Vec<String> {
    let seen = SEEN.lock().unwrap_or_else(PoisonError::into_inner);
    let mut completed = Vec::new();
    for (name, route) in router.map.iter_mut() {
        let schema = published(&Value::Object(JsonObject::clone(&route.attr.input_schema)));
        let mut matching = seen
            .iter()
            .filter(|s| s.name == name.as_ref() && s.schema == schema);
        let Some(first) = matching.next() else {
            continue;
        };
        // Two types of one name and one schema that differ in effect or description: which
        // one the route takes cannot be told.
        if matching.any(|s| s.effect != first.effect || s.description != first.description) {
            continue;
        }
        complete(route, first.effect, first.description);
        completed.push(name.to_string());
    }
    completed.sort_unstable();
    completed
}

/// Sets a route's annotations from an effect, keeping an annotation `title`, and its
/// description when it has none.
fn complete<S>(route: &mut ToolRoute<S>, effect: Effect, description: Option<&'static str>) {
    let mut hints = annotations(effect);
    hints.title = route.attr.annotations.take().and_then(|a| a.title);
    route.attr.annotations = Some(hints);
    if route.attr.description.as_deref().is_none_or(str::is_empty) {
        route.attr.description = description.map(Cow::Borrowed);
    }
}

/// Carries out the [semantic gate](crate::guide::semantic_gate)'s decision on a `tools/call`,
/// asking the user through the MCP client when the decision is [`Decision::Confirm`]
/// (feature `semantic`).
///
/// - [`Decision::Proceed`] and [`Decision::ProceedAndReport`]: `Ok(())`, the call runs.
/// - [`Decision::Confirm`]: the server sends the client an `elicitation/create` request with
///   [`Review::prompt`] as its message and a form of one required boolean, `approve`.
///   `Ok(())` only when the user accepts with `approve: true`; a decline, a cancel, or an
///   accepted form without `approve: true` is an `isError` result, code `user_declined`.
/// - A client that declares no `elicitation` capability for forms cannot ask: the
///   call is refused without a request, code `confirmation_unavailable`, as it is when the
///   request fails (the connection closed, the client answered with an error, or the session
///   speaks protocol `2026-07-28`, which forbids requests from server to client).
/// - The client cancels the tool call while the user is being asked: the request is
///   withdrawn (`notifications/cancelled`), and the call does not run, code `cancelled`.
/// - [`Decision::Reject`]: an `isError` result carrying [`Review::for_model`].
///
/// Every refusal is an `isError` result whose `structuredContent` and text are the same
/// model-facing JSON, in the shape of [`Rejection::for_model`]:
/// `{"ok":false,"errors":[{"error":"user_declined","path":"$","message":"..."}]}`. Made for
/// `?` in a `#[tool]` method that returns `Result<_, CallToolResult>` and takes the request's
/// [`RequestContext`] as a parameter:
///
/// ```
/// use rmcp::handler::server::wrapper::Parameters;
/// use rmcp::model::CallToolResult;
/// use rmcp::service::RequestContext;
/// use rmcp::{tool, tool_router, RoleServer};
/// use serde_json::json;
/// use toolargs::rmcp::Checked;
/// use toolargs::semantic::{Profile, SemanticGate};
/// use toolargs::ToolArgs;
///
/// /// Schedule a payment.
/// #[derive(ToolArgs, Debug)]
/// #[toolargs(name = "schedule_payment", effect = "external")]
/// struct SchedulePayment {
///     #[arg(semantic = "date")]
///     pay_on: chrono::NaiveDate,
///     amount_cents: i64,
/// }
///
/// struct Payments;
///
/// #[tool_router]
/// impl Payments {
///     #[tool(name = "schedule_payment")]
///     async fn schedule_payment(
///         &self,
///         Parameters(call): Parameters<Checked<SchedulePayment>>,
///         context: RequestContext<RoleServer>,
///     ) -> Result<String, CallToolResult> {
///         let parsed = call.parsed()?;
///         // What the model first sent, kept from the call that was rejected.
///         let original = json!({"pay_on": "04/03/2026", "amount_cents": 5000});
///         let profile = Profile::of::<SchedulePayment>();
///         let review = SemanticGate::new().compare(&profile, &original, &parsed.args.to_json());
///         // 4 March or 3 April? The user decides, or the call does not run.
///         toolargs::rmcp::confirm(&context, &review).await?;
///         Ok(format!("scheduled for {}", parsed.args.pay_on))
///     }
/// }
/// ```
#[cfg(feature = "semantic")]
#[cfg_attr(docsrs, doc(cfg(feature = "semantic")))]
// The error is rmcp's own result type, which is what a `#[tool]` method returns.
#[allow(clippy::result_large_err)]
pub async fn confirm(
    context: &RequestContext<RoleServer>,
    review: &Review,
) -> Result<(), CallToolResult> {
    match review.decision {
        Decision::Proceed | Decision::ProceedAndReport => return Ok(()),
        Decision::Reject => {
            let body = serde_json::from_str(&review.for_model()).unwrap_or(Value::Null);
            return Err(refusal(body));
        }
        Decision::Confirm => {}
    }
    let asks_forms = context
        .client_capabilities()
        .and_then(|capabilities| capabilities.elicitation)
        // A capability that names no mode is form mode (MCP 2025-06-18).
        .is_some_and(|modes| modes.form.is_some() || modes.url.is_none());
    if !asks_forms {
        return Err(not_run(
            "confirmation_unavailable",
            format!(
                "the call to {} needs the user's confirmation, and the client cannot ask the \
                 user (it declares no elicitation capability for forms); the call did not run",
                review.tool
            ),
        ));
    }
    let approve = BooleanSchema::new()
        .title("Run this call")
        .description("Run the call as the model corrected it.");
    let form = ElicitationSchema::new(BTreeMap::from([(
        APPROVE.to_owned(),
        PrimitiveSchemaDefinition::Boolean(approve),
    )]))
    .with_required(vec![APPROVE.to_owned()]);
    let request = ServerRequest::ElicitRequest(ElicitRequest::new(
        ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: review.prompt(),
            requested_schema: form,
        },
    ));
    let unavailable = |error: &dyn fmt::Display| {
        not_run(
            "confirmation_unavailable",
            format!(
                "the call to {} needs the user's confirmation, and the client could not ask the \
                 user ({error}); the call did not run",
                review.tool
            ),
        )
    };
    let mut asking = match context
        .peer
        .send_request_with_option(request, PeerRequestOptions::no_options())
        .await
    {
        Ok(asking) => asking,
        Err(error) => return Err(unavailable(&error)),
    };
    // The user answers, or the client cancels the tool call (rmcp then cancels the context's
    // token but lets the handler run on): the question is withdrawn, and the call does not run.
    let mut cancelled = std::pin::pin!(context.ct.cancelled());
    let answered = std::future::poll_fn(|cx| {
        if let Poll::Ready(answer) = Pin::new(&mut asking.rx).poll(cx) {
            Poll::Ready(Some(answer))
        } else if cancelled.as_mut().poll(cx).is_ready() {
            Poll::Ready(None)
        } else {
            Poll::Pending
        }
    })
    .await;
    let answer = match answered {
        Some(Ok(Ok(ClientResult::ElicitResult(answer)))) => answer,
        None => {
            let reason = "the tool call was cancelled".to_owned();
            let _withdrawn = asking.cancel(Some(reason)).await;
            return Err(not_run(
                "cancelled",
                format!(
                    "the call to {} was cancelled while it waited for the user's \
                     confirmation; it did not run",
                    review.tool
                ),
            ));
        }
        Some(Ok(Err(error))) => return Err(unavailable(&error)),
        Some(Err(_closed)) => return Err(unavailable(&"the connection closed")),
        Some(Ok(Ok(_))) => {
            return Err(unavailable(
                &"it answered with something else than the user's answer",
            ))
        }
    };
    let approved = answer.action == ElicitationAction::Accept
        && answer
            .content
            .as_ref()
            .and_then(|content| content.get(APPROVE))
            .and_then(Value::as_bool)
            == Some(true);
    if approved {
        Ok(())
    } else {
        Err(not_run(
            "user_declined",
            format!(
                "the user declined the call to {}; it did not run. Do not send it again unless \
                 the user asks for it",
                review.tool
            ),
        ))
    }
}

/// The property of the form [`confirm`] sends: a boolean, `true` to run the call.
#[cfg(feature = "semantic")]
const APPROVE: &str = "approve";

/// A refusal with one error at `$`, in the shape of [`Rejection::for_model`].
#[cfg(feature = "semantic")]
fn not_run(code: &str, message: String) -> CallToolResult {
    refusal(serde_json::json!({
        "ok": false,
        "errors": [{"error": code, "path": "$", "message": message}],
    }))
}
