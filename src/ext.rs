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
//!   policy, the final report); [`read_logged`], [`read_embedded`] and
//!   [`parse_logged_payload`] the same for arguments read from a log's text as they stand
//!   there (inside a JSON string, or as a JSON object).
//!
//! # A field type of your own
//!
//! A newtype delegates to the impl of its inner type and adds its own check; the policy
//! (what is repaired, what is rejected) stays in the coercers. The constant
//! [`ArgType::HONOURS`], a [`Capabilities`], says which field attributes the type honours: the
//! derive refuses the others at compile time, at the attribute. A wrapper type forwards its
//! inner type's answer whole (`const HONOURS: Capabilities = T::HONOURS;`).
//!
//! ```
//! use serde_json::Value;
//! use toolargs::ext::{ArgType, Capabilities, Cx, FieldSpec, Node, Path};
//! use toolargs::{Code, ToolArgs};
//!
//! /// A ticket number: a positive integer.
//! #[derive(Debug, PartialEq)]
//! struct Ticket(u32);
//!
//! impl ArgType for Ticket {
//!     // `min` and `max` reach the inner integer through the spec.
//!     const HONOURS: Capabilities = Capabilities::NONE.with_bounds(true);
//!
//!     fn coerce(node: &Node<'_>, spec: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Self> {
//!         let n = u32::coerce(node, spec, path, cx)?;
//!         if n == 0 {
//!             cx.error(path, Code::OutOfRange, "expected a ticket number, got 0");
//!             return None;
//!         }
//!         Some(Ticket(n))
//!     }
//!
//!     fn canonical(&self) -> Value {
//!         self.0.canonical()
//!     }
//!
//!     fn schema(spec: &FieldSpec<'_>) -> Value {
//!         let mut schema = u32::schema(spec);
//!         if spec.min.is_none() {
//!             schema["minimum"] = Value::from(1);
//!         }
//!         schema
//!     }
//! }
//!
//! #[derive(ToolArgs)]
//! struct Close {
//!     #[arg(max = 99999)]
//!     ticket: Ticket,
//! }
//!
//! // A numeric string is repaired by the integer coercer, as for a plain `u32` field.
//! let parsed = Close::parse(r#"{"ticket": "42"}"#).unwrap();
//! assert_eq!(parsed.args.ticket, Ticket(42));
//! assert_eq!(parsed.repairs.len(), 1);
//! assert!(Close::parse(r#"{"ticket": 0}"#).is_err());
//! assert!(Close::parse(r#"{"ticket": 100000}"#).is_err());
//! assert_eq!(Close::json_schema()["properties"]["ticket"]["minimum"], 1);
//! ```

pub use toolargs_core::coerce::format::Format;
pub use toolargs_core::coerce::{self, ArgType, Capabilities};
pub use toolargs_core::cx::Cx;
pub use toolargs_core::decode::{read_embedded, read_logged, LoggedPayload};
pub use toolargs_core::node::{IntegerReading, Node, Number};
pub use toolargs_core::path::Path;
pub use toolargs_core::spec::{Bound, FieldSpec, Pattern};
pub use toolargs_core::tool::{parse_logged_payload, parse_payload};
