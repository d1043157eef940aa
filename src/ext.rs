//! Extension points: what code outside the derive builds on.
//!
//! `#[derive(ToolArgs)]` covers most tools. This module is for the rest: a field type the
//! derive does not know, implemented by hand with [`ArgType`] on top of the same coercers the
//! derive calls (so the policy still lives in one place), or a front door of your own over
//! [`Node`], the decoded payload. Everything here is the machinery of `toolargs-core`; it
//! follows the same versioning as the rest of the crate.
//!
//! - [`ArgType`]: how one value is read ([`ArgType::coerce`]), written back
//!   ([`ArgType::canonical`]) and described ([`ArgType::schema`]).
//! - [`Cx`]: where a coercer records repairs and errors while it walks a payload.
//! - [`Node`]: a decoded JSON value that borrows from the payload and keeps number literals
//!   as sent; [`Path`]: where a value sits in the payload, rendered `$.a.b[3]` only on error.
//! - [`FieldSpec`], [`Bound`], [`Pattern`]: the constraints of one field.
//! - [`coerce`]: the coercers, one module per kind of value.
//! - [`parse_payload`]: the envelope every front door shares (decoding, limits, the unknown-key
//!   policy, the final report).

pub use toolargs_core::coerce::{self, ArgType};
pub use toolargs_core::cx::Cx;
pub use toolargs_core::node::{IntegerReading, Node, Number};
pub use toolargs_core::path::Path;
pub use toolargs_core::spec::{Bound, FieldSpec, Pattern};
pub use toolargs_core::tool::parse_payload;
