//! String enums: an exact match, or exactly one ASCII-case-insensitive match (`enum_casefold`).
//! Padding, look-alike Unicode and anything matching two variants are rejected.

use serde_json::{json, Value};

use super::type_error;
use crate::cx::Cx;
use crate::node::Node;
use crate::path::Path;
use crate::report::{Code, Rule};
use crate::spec::FieldSpec;

/// Reads one of `names`, returning its index.
pub fn coerce_enum(
    node: &Node<'_>,
    names: &[&str],
    spec: &FieldSpec<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
) -> Option<usize> {
    let Node::String(s) = node else {
        type_error(cx, path, &format!("one of {}", list(names)), node);
        return None;
    };
    if let Some(index) = names.iter().position(|n| *n == s.as_ref()) {
        return Some(index);
    }
    let mut folded = names
        .iter()
        .enumerate()
        .filter(|(_, n)| n.eq_ignore_ascii_case(s));
    match (folded.next(), folded.next()) {
        (Some((index, name)), None) => cx
            .repair(
                path,
                spec.strict,
                Rule::EnumCasefold,
                node.to_value(),
                Value::from(*name),
            )
            .then_some(index),
        _ => {
            cx.error(
                path,
                Code::Enum,
                format!("expected one of {}, got {}", list(names), node.describe()),
            );
            None
        }
    }
}

/// The JSON Schema of a string enum.
pub fn enum_schema(names: &[&str]) -> Value {
    json!({"type": "string", "enum": names})
}

fn list(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| Value::from(*n).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
