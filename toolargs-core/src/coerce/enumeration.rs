//! String enums: an exact match, or exactly one ASCII-case-insensitive match (`enum_casefold`).
//! Padding, look-alike Unicode and anything matching two variants are rejected.

use serde_json::{json, Value};

use super::type_error;
use crate::cx::Cx;
use crate::node::described;
use crate::node::Node;
use crate::path::Path;
use crate::report::{Code, Rule};
use crate::spec::FieldSpec;

/// Reads one of `names`, returning its index.
pub fn coerce_enum<S: AsRef<str>>(
    node: &Node<'_>,
    names: &[S],
    spec: &FieldSpec<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
) -> Option<usize> {
    let Node::String(s) = node else {
        type_error(cx, path, &format!("one of {}", list(names)), node);
        return None;
    };
    if let Some(index) = names.iter().position(|n| n.as_ref() == s.as_ref()) {
        return Some(index);
    }
    let mut folded = names
        .iter()
        .enumerate()
        .filter(|(_, n)| n.as_ref().eq_ignore_ascii_case(s));
    match (folded.next(), folded.next()) {
        (Some((index, name)), None) => cx
            .repair(
                path,
                spec.strict,
                Rule::EnumCasefold,
                node.to_value(),
                Value::from(name.as_ref()),
            )
            .then_some(index),
        _ => {
            cx.error_with(path, Code::Enum, || {
                described(&["expected one of ", &list(names), ", got "], node, "")
            });
            None
        }
    }
}

/// Whether a string in the wrong ASCII case may be read as one of `names` at all: only when no
/// two names are equal ignoring ASCII case (a name given twice included), or the case repair
/// would pick between them. A derived enum with two such names does not compile; a loaded
/// `enum` with them takes its values as sent only.
pub fn casefold_allowed<'n>(names: impl IntoIterator<Item = &'n str>) -> bool {
    let mut folded: Vec<String> = names.into_iter().map(str::to_ascii_lowercase).collect();
    let count = folded.len();
    folded.sort_unstable();
    folded.dedup();
    folded.len() == count
}

/// The JSON Schema of a string enum.
pub fn enum_schema(names: &[&str]) -> Value {
    json!({"type": "string", "enum": names})
}

/// The names as JSON strings, comma-separated: `"damaged", "late"`.
fn list<S: AsRef<str>>(names: &[S]) -> String {
    let mut out = String::with_capacity(names.iter().map(|n| n.as_ref().len() + 4).sum());
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        crate::text::push_json_str(&mut out, name.as_ref());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::casefold_allowed;

    #[test]
    fn names_equal_but_for_case_refuse_the_case_repair() {
        assert!(casefold_allowed(["damaged", "late"]));
        assert!(casefold_allowed([]));
        assert!(!casefold_allowed(["a", "A", "b"]));
        assert!(!casefold_allowed(["late", "late"]));
    }
}
