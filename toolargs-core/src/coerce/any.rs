//! `serde_json::Value`: any JSON value, passed unchanged. Nothing is checked and nothing is
//! repaired; the derive accepts such a field only when it says so (`#[arg(any)]`).
//!
//! Unchanged means exactly as sent: a number that no `serde_json::Number` holds exactly (an
//! integer beyond `i64` and `u64`, a literal beyond the range of `f64`) is refused with
//! `lossy_number` rather than passed on as another number.

use serde_json::{json, Map, Value};

use super::ArgType;
use crate::cx::Cx;
use crate::node::described;
use crate::node::Node;
use crate::path::Path;
use crate::report::Code;
use crate::spec::FieldSpec;

impl ArgType for Value {
    fn coerce(node: &Node<'_>, _: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Self> {
        coerce_any(node, path, cx)
    }

    fn canonical(&self) -> Value {
        self.clone()
    }

    /// The schema that accepts every value.
    fn schema(_: &FieldSpec<'_>) -> Value {
        json!({})
    }
}

/// Reads any value exactly as sent. Every number that no `serde_json::Number` holds exactly
/// is a `lossy_number` error at its own path; everything else is copied.
pub fn coerce_any(node: &Node<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Value> {
    match node {
        Node::Number(n) => {
            let value = n.to_exact_value();
            if value.is_none() {
                lossy_number(node, path, cx);
            }
            value
        }
        Node::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            let mut ok = true;
            for (index, item) in items.iter().enumerate() {
                match coerce_any(item, &path.index(index), cx) {
                    Some(v) => out.push(v),
                    None => ok = false,
                }
            }
            ok.then_some(Value::Array(out))
        }
        Node::Object(members) => {
            let mut out = Map::with_capacity(members.len());
            let mut ok = true;
            for (key, item) in members {
                match coerce_any(item, &path.key(key), cx) {
                    Some(v) => {
                        out.insert(key.as_ref().to_owned(), v);
                    }
                    None => ok = false,
                }
            }
            ok.then_some(Value::Object(out))
        }
        other => Some(other.to_value()),
    }
}

/// Records `lossy_number` for a number no JSON reader keeps exactly: an integer beyond
/// `i64` and `u64`, or a literal beyond the range of `f64`.
pub(crate) fn lossy_number(node: &Node<'_>, path: &Path<'_>, cx: &mut Cx) {
    cx.error_with(path, Code::LossyNumber, || {
        described(
            &["expected a number that passes through exactly, got "],
            node,
            ", which no JSON reader keeps exactly (integers beyond -2^63..2^64-1, or beyond \
             the range of a double); send it as a string if its digits matter",
        )
    });
}
