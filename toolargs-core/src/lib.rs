//! Runtime of [`toolargs`](https://docs.rs/toolargs): the gate between an LLM and the tools it calls.
//!
//! Most users depend on the `toolargs` facade and `#[derive(ToolArgs)]`; this crate holds what
//! the derived code runs on:
//!
//! - [`decode`]: payload decoding (text, bytes or a decoded value; code fences; one level of
//!   double encoding; duplicate keys; `NaN`; bounded nesting),
//! - [`coerce`]: the coercers, one module per kind of value, the only place the policy lives,
//! - [`report`]: [`Parsed`], [`Repair`], [`Rejection`], [`ArgumentError`] and the stable
//!   [`Rule`] and [`Code`] names,
//! - [`dialect`]: tool definitions for OpenAI, Anthropic, Gemini and MCP, from the plain schema,
//! - [`semantic`]: the semantic gate, which checks that a corrected call still means what the
//!   original meant, and decides by the tool's effect whether it runs,
//! - [`ToolArgs`]: the trait the derive implements.
#![warn(missing_docs)]

pub mod coerce;
pub mod cx;
pub mod declare;
pub mod decode;
pub mod dialect;
pub mod effect;
pub(crate) mod fixed_shape;
pub(crate) mod json;
pub mod node;
pub mod options;
pub mod path;
pub mod report;
pub mod spec;
/// JSON text helpers the toolargs crates share (escaping, previews in messages). Not an API.
#[doc(hidden)]
pub mod text;
pub mod tool;

pub use coerce::ArgType;
pub use cx::Cx;
pub use decode::RawArgs;
pub use dialect::Dialect;
pub use effect::Effect;
pub use node::Node;
pub use options::{Limits, ParseOptions};
pub use path::Path;
pub use report::{ArgumentError, Code, Parsed, Rejection, Repair, Rule};
pub use spec::{Bound, FieldSpec, Pattern, UnknownPolicy};
pub use tool::{parse_with, ToolArgs};
