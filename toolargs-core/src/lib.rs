//! The parser of [`toolargs`](https://docs.rs/toolargs): the gate between an LLM and the tools
//! it calls.
//!
//! Most users depend on the `toolargs` facade and `#[derive(ToolArgs)]`; this crate holds what
//! the derived code runs on, and what the upper layers (`toolargs-dynamic`,
//! `toolargs-semantic`, `toolargs-agent`, `toolargs-replay`) build on:
//!
//! - [`decode`]: payload decoding (text, bytes or a decoded value; code fences; one level of
//!   double encoding; duplicate keys; `NaN`; limits on size and nesting),
//! - [`coerce`]: the coercers, one module per kind of value, the only place the policy lives,
//! - [`report`]: [`Parsed`], [`Repair`], [`Rejection`], [`ArgumentError`] and the stable
//!   [`Rule`] and [`Code`] names,
//! - [`spec`]: the constraints of one field; [`effect`]: what a tool does and the policy for
//!   unknown keys it implies,
//! - [`json`]: [`json::skim`], a few parts of a JSON document read where they stand (a member
//!   by key, a value's span, a string or a number), for log formats and the like,
//! - [`dialect`]: tool definitions in each provider's dialect, from the plain schema,
//! - [`provider`]: the registry of providers, one module each: definitions, streams and logs,
//! - [`declare`]: what a type declares about the meaning of its fields, read by the semantic
//!   gate,
//! - [`judge`]: [`Judge`], what judges a call (a derived type as [`tool::Typed`], or a loaded
//!   schema), the one contract streams, replay, the MCP gate and the Python package use,
//! - [`stream`]: a call judged while it arrives, with an early rejection that is never
//!   wrong and the strict verdict at the end,
//! - [`tool`]: the [`ToolArgs`] trait the derive implements, [`tool::Typed`], its judge, and
//!   [`tool::parse_payload`], the envelope every front door shares.
//!
//! It has no `tracing` or `metrics` dependency: observing calls is the toolbox's job.
#![warn(missing_docs)]

#[doc(hidden)]
pub mod __private;
pub mod coerce;
pub mod cx;
pub mod declare;
pub mod decode;
pub mod dialect;
pub mod effect;
pub(crate) mod fixed_shape;
#[doc(hidden)]
pub mod internal;
pub mod json;
pub mod judge;
pub mod node;
pub mod options;
pub mod path;
pub mod provider;
pub mod report;
pub(crate) mod schema;
pub mod spec;
pub mod stream;
#[cfg(feature = "telemetry")]
pub mod telemetry;
pub(crate) mod text;
pub mod tool;

pub use coerce::ArgType;
pub use cx::Cx;
pub use decode::RawArgs;
pub use dialect::Dialect;
pub use effect::Effect;
pub use judge::{Judge, LoadWarning};
pub use node::Node;
pub use options::{Limits, ParseOptions};
pub use path::Path;
pub use report::{ArgumentError, Code, Parsed, Rejection, Repair, Rule};
pub use spec::{Bound, FieldSpec, Pattern, UnknownPolicy};
pub use tool::{parse_with, ToolArgs};
