//! Values double-encoded below the top level: a string holding JSON text where an object is
//! expected, or where a list is expected whose items are not read from strings.
//!
//! Such a string has one reading, so it is decoded once (`unwrap_double_encoded` at the
//! field's path, before and after recorded) when the text is JSON of the expected shape; the
//! decoded value then goes through the coercer that expected it, with its own repairs. A list
//! of strings sent as JSON text is not decoded: `"[\"a\"]"` could be that list, or a list of
//! the one string (`ambiguous_list`). A scalar sent as JSON text (`"42"`) is left to the
//! scalar's own rules.

use serde_json::Value;

use crate::cx::Cx;
use crate::json::read_text;
use crate::node::Node;
use crate::path::Path;
use crate::report::Rule;

/// The shape a double-encoded value must decode to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A JSON object.
    Object,
    /// A JSON array.
    Array,
}

/// When `node` is a string whose text is one JSON value of `shape`, records the repair and
/// reads the decoded value with `read`: `Some` of what `read` gives (`None` too when the field
/// is strict and the repair is refused). `None` when `node` is anything else, for the caller to
/// reject as it would.
///
/// The decoded text is read under the call's limits, its depth counted from `path`.
pub fn reread<R>(
    node: &Node<'_>,
    shape: Shape,
    strict: bool,
    path: &Path<'_>,
    cx: &mut Cx,
    read: impl FnOnce(&Node<'_>, &mut Cx) -> Option<R>,
) -> Option<Option<R>> {
    let Node::String(text) = node else {
        return None;
    };
    let opening = match shape {
        Shape::Object => b'{',
        Shape::Array => b'[',
    };
    // Most strings are not JSON text: settle them without a reader.
    if text.trim_ascii_start().as_bytes().first() != Some(&opening) {
        return None;
    }
    let mut limits = cx.limits();
    limits.max_depth = limits.max_depth.saturating_sub(path.depth());
    let document = read_text(text, &limits).ok()?;
    let decoded = document.root();
    let fits = match shape {
        Shape::Object => matches!(decoded, Node::Object(_)),
        Shape::Array => matches!(decoded, Node::Array(_)),
    };
    if !fits {
        return None;
    }
    let before = Value::String(text.as_ref().to_owned());
    if !cx.repair(
        path,
        strict,
        Rule::UnwrapDoubleEncoded,
        before,
        decoded.to_value(),
    ) {
        return Some(None);
    }
    Some(read(decoded, cx))
}
