//! A small dispatcher for the agent loop: register tools with handlers, dispatch a model's call
//! by name, and get back what to do next.
//!
//! ```
//! use toolargs_agent::{Dispatch, Session, ToolCall, Toolbox};
//! # use toolargs_core::{ArgType, Cx, Effect, FieldSpec, Node, Path, ToolArgs, UnknownPolicy};
//! # struct Ping;
//! # impl ArgType for Ping {
//! #     fn coerce(n: &Node<'_>, _: &FieldSpec<'_>, p: &Path<'_>, cx: &mut Cx) -> Option<Self> {
//! #         matches!(n, Node::Object(_)).then_some(Ping).or_else(|| {
//! #             cx.error(p, toolargs_core::Code::Type, "expected an object");
//! #             None
//! #         })
//! #     }
//! #     fn canonical(&self) -> serde_json::Value { serde_json::json!({}) }
//! #     fn schema(_: &FieldSpec<'_>) -> serde_json::Value { serde_json::json!({"type": "object"}) }
//! # }
//! # impl ToolArgs for Ping {
//! #     const NAME: &'static str = "ping";
//! #     const DESCRIPTION: Option<&'static str> = None;
//! #     const EFFECT: Effect = Effect::ReadOnly;
//! #     const UNKNOWN: UnknownPolicy = UnknownPolicy::Strip;
//! #     const OBJECT: bool = true;
//! # }
//! let mut tools = Toolbox::new();
//! tools.register(|_: Ping| Ok(serde_json::json!("pong")));
//! let mut session = Session::new();
//! match tools.dispatch(&mut session, ToolCall::new("call_1", "ping", "{}")) {
//!     Dispatch::Ran { output, .. } => assert_eq!(output, "pong"),
//!     other => panic!("{other:?}"),
//! }
//! ```

mod audit;
mod budget;
mod call;
mod dispatch;
pub mod observe;
mod run;
mod toolbox;

pub use budget::{Budget, Session};
pub use call::ToolCall;
pub use dispatch::{Dispatch, Pending};
pub use observe::AuditRecord;
pub use toolbox::{ToolResult, Toolbox};
