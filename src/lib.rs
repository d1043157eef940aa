//! Typed, policy-driven parsing of LLM tool-call arguments.
//!
//! Declare a tool's arguments once, as a Rust struct with `#[derive(ToolArgs)]`. From that
//! declaration come a parser that repairs representation errors with exactly one meaning,
//! rejects everything with two or more (every error of a call at once, each with a stable code
//! and a JSON path), records every repair, and the JSON Schema the model is shown.
//!
//! ```
//! use toolargs::ToolArgs;
//!
//! /// Refund part of an order.
//! #[derive(ToolArgs, Debug)]
//! #[toolargs(name = "issue_refund")]
//! struct IssueRefund {
//!     #[arg(pattern = r"ord_[A-Za-z0-9]{8}")]
//!     order_id: String,
//!     #[arg(min = 1, max = 50000)]
//!     amount_cents: i64,
//! }
//!
//! let parsed = IssueRefund::parse(r#"{"order_id":"ord_A1b2C3d4","amount_cents":"1999"}"#).unwrap();
//! assert_eq!(parsed.args.amount_cents, 1999);
//! assert_eq!(parsed.repairs[0].rule, "numeric_string_to_int");
//!
//! let rejected = IssueRefund::parse(r#"{"order_id":"ord_A1b2C3d4","amount_cents":"19.99"}"#).unwrap_err();
//! assert_eq!(rejected.errors()[0].code, "ambiguous_integer");
//! assert_eq!(rejected.errors()[0].path, "$.amount_cents");
//! ```
//!
//! # What a derived type gives you
//!
//! - [`ToolArgs::parse`]: the typed parser. The input is JSON text (`&str`, `String`) or an
//!   already-decoded `serde_json::Value` (a `Value::String` is read as JSON text, as many SDKs
//!   log arguments). The result is [`Parsed`] `{ args, repairs }`, or a [`Rejection`] holding
//!   every error of the call; [`Rejection::for_model`] is the tool result to send back.
//! - [`ToolArgs::to_json`]: the canonical form, which parses back with zero repairs to an equal
//!   value.
//! - [`ToolArgs::json_schema`]: the JSON Schema (2020-12) of the arguments, and
//!   [`ToolArgs::tool_definition`]: the whole tool definition in a provider's [`Dialect`].
//! - `NAME`, `DESCRIPTION`, `EFFECT` and `UNKNOWN`: the tool's name, description (its doc
//!   comment), [`Effect`] and [`UnknownPolicy`].
//!
//! # Guides
//!
//! The [`guide`] module holds the reference and the how-to pages; every code block in them is
//! compiled and run as a test.
//!
//! - [The policy](guide::policy): what is repaired, what is rejected, and why.
//! - [The attribute reference](guide::attributes) and the [compile-time
//!   checks](guide::compile_checks).
//! - [Effects and unknown keys](guide::effects), [provider dialects](guide::dialects), and
//!   [limits on hostile input](guide::limits).
//! - With their features: `guide::agent_loop` (`agent`), `guide::semantic_gate` (`semantic`),
//!   `guide::dynamic_spec` (`dynamic`), `guide::replay` (`replay`), and `guide::rmcp`,
//!   `guide::rig`, `guide::async_openai` for the adapters.
//!
//! # Cargo features
//!
//! The parser, the derive and the dialects are always there; each layer above them is a
//! feature, so a build compiles only what it uses.
//!
#![cfg_attr(feature = "document-features", doc = document_features::document_features!())]
#![cfg_attr(
    not(feature = "document-features"),
    doc = "The features are described in the crate's `Cargo.toml`."
)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

pub mod guide;

pub use toolargs_core::{
    parse_with, ArgumentError, Code, Dialect, Effect, Judge, Limits, LoadWarning, ParseOptions,
    Parsed, RawArgs, Rejection, Repair, Rule, ToolArgs, UnknownPolicy,
};

/// Arguments judged while the model is still writing them: `T::stream()`, `spec.stream()`
/// (see [`guide::streaming`]), each against its [`Judge`]: [`stream::Typed`] or a `&Spec`.
pub mod stream {
    pub use toolargs_core::stream::*;
    pub use toolargs_core::tool::Typed;
}

/// Tool definitions in each provider's dialect ([`Dialect`]), for a derived type or any schema.
pub use toolargs_core::dialect;

pub mod ext;

/// Tools defined outside Rust: JSON Schema and tool definitions loaded at run time.
#[cfg(feature = "dynamic")]
pub use toolargs_dynamic as dynamic;
#[cfg(feature = "dynamic")]
pub use toolargs_dynamic::{LoadError, LoadErrorKind, Spec};

/// The semantic gate: a corrected call must still mean what the original meant.
#[cfg(feature = "semantic")]
pub use toolargs_semantic as semantic;

/// The toolbox: dispatch of gated calls, retry budgets, audit, events and counters.
#[cfg(feature = "agent")]
pub use toolargs_agent as toolbox;

/// Replay of recorded calls: the library behind the `toolargs` CLI.
#[cfg(feature = "replay")]
pub use toolargs_replay as replay;

/// Derives [`ToolArgs`] (and [`ArgType`](ext::ArgType)) for a struct with named fields, a one-field tuple struct (a newtype) or a fieldless enum.
///
/// See [`guide::attributes`] for the `#[toolargs(...)]` and `#[arg(...)]` keys.
pub use toolargs_derive::ToolArgs;

#[cfg(feature = "async-openai")]
#[path = "adapters/async_openai.rs"]
pub mod async_openai;
#[cfg(feature = "rig")]
#[path = "adapters/rig.rs"]
pub mod rig;
#[cfg(feature = "rmcp")]
#[path = "adapters/rmcp.rs"]
pub mod rmcp;
#[cfg(any(feature = "rmcp", feature = "rig"))]
#[path = "adapters/serde_parse.rs"]
mod serde_parse;

/// Paths used by code that `#[derive(ToolArgs)]` generates. Not a public API. The version in
/// the name keeps code generated by one release of the macro from using another's helpers.
#[doc(hidden)]
#[path = "private.rs"]
pub mod __private_0_1;
