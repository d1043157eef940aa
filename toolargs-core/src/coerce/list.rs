//! Lists: a single plain string becomes a one-item list (`scalar_to_list`) when the items are
//! read from strings; a string with `,` `;` or a newline, or one that looks like JSON, has more
//! than one reading and is rejected. A list whose items are not read from strings may arrive
//! as JSON text in a string, which is decoded once (`unwrap_double_encoded`).

use std::borrow::Cow;

use serde_json::{json, Value};

use super::encoded::{reread, Shape};
use super::{put, type_error, ArgType, Capabilities};
use crate::cx::Cx;
use crate::node::described;
use crate::node::Node;
use crate::path::Path;
use crate::report::{Code, Rule};
use crate::spec::FieldSpec;

impl<T: ArgType> ArgType for Vec<T> {
    // Constraints other than the item count pass through to the items; a list is not read
    // from a lone string itself.
    const HONOURS: Capabilities = T::HONOURS.with_scalar_to_list(false).with_items(true);

    fn coerce(node: &Node<'_>, spec: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Self> {
        coerce_list(
            node,
            spec,
            path,
            cx,
            wraps_scalar(T::HONOURS),
            |item, at, cx| T::coerce(item, spec, at, cx),
        )
    }

    fn canonical(&self) -> Value {
        Value::Array(self.iter().map(T::canonical).collect())
    }

    fn schema(spec: &FieldSpec<'_>) -> Value {
        let mut schema = json!({"type": "array", "items": T::item_schema(spec)});
        put(&mut schema, "minItems", spec.min_items.map(Value::from));
        put(&mut schema, "maxItems", spec.max_items.map(Value::from));
        schema
    }

    fn declared_semantics() -> crate::declare::Semantics {
        T::declared_semantics()
    }
}

/// Whether a lone string may stand for a one-item list (`scalar_to_list`) of items that honour
/// `item`: items read from strings. Both doors ask it: a derived list or set with its item
/// type's [`ArgType::HONOURS`], a loaded schema with what its `items` are read as.
#[inline]
pub const fn wraps_scalar(item: Capabilities) -> bool {
    item.scalar_to_list
}

/// Reads a list: an array, or (when `scalar_to_list` is allowed for the item type) a lone
/// plain string as a one-item list. Each item goes through `item` at its own path; the length
/// bounds are checked as well, and every error is recorded.
pub fn coerce_list<T>(
    node: &Node<'_>,
    spec: &FieldSpec<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
    scalar_to_list: bool,
    mut item: impl FnMut(&Node<'_>, &Path<'_>, &mut Cx) -> Option<T>,
) -> Option<Vec<T>> {
    let single;
    let items: &[Node<'_>] = match node {
        Node::Array(items) => items,
        Node::String(s) if scalar_to_list => {
            if !is_single_item(s) {
                cx.error_with(path, Code::AmbiguousList, || {
                    described(
                        &["expected an array, got "],
                        node,
                        ", which cannot safely become a one-item list; send a JSON array",
                    )
                });
                return None;
            }
            let after = Value::Array(vec![node.to_value()]);
            if !cx.repair(
                path,
                spec.strict,
                Rule::ScalarToList,
                node.to_value(),
                after,
            ) {
                return None;
            }
            single = [Node::String(Cow::Borrowed(s.as_ref()))];
            &single
        }
        other => {
            if !scalar_to_list {
                let decoded = reread(other, Shape::Array, spec.strict, path, cx, |inner, cx| {
                    coerce_list(inner, spec, path, cx, scalar_to_list, item)
                });
                if let Some(read) = decoded {
                    return read;
                }
            }
            type_error(cx, path, "an array", other);
            return None;
        }
    };
    let length_ok = check_items(items.len(), spec, path, cx);
    let mut out = Vec::with_capacity(items.len());
    let mut items_ok = true;
    for (index, node) in items.iter().enumerate() {
        match item(node, &path.index(index), cx) {
            Some(value) if items_ok => out.push(value),
            Some(_) => {}
            None => items_ok = false,
        }
    }
    (length_ok && items_ok).then_some(out)
}

/// A non-blank string with no list separator that does not look like a JSON array.
pub(crate) fn is_single_item(s: &str) -> bool {
    !s.trim().is_empty() && !s.contains([',', ';', '\n']) && !s.trim_start().starts_with('[')
}

fn check_items(len: usize, spec: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> bool {
    let too_few = spec.min_items.is_some_and(|min| len < min);
    let too_many = spec.max_items.is_some_and(|max| len > max);
    if too_few || too_many {
        let expected = match (spec.min_items, spec.max_items) {
            (Some(min), Some(max)) => format!("from {min} to {max} items"),
            (Some(min), None) => format!("at least {min} items"),
            (None, Some(max)) => format!("at most {max} items"),
            (None, None) => "any number of items".to_owned(),
        };
        cx.error_with(path, Code::Length, || {
            format!("expected an array of {expected}, got {len} items")
        });
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::is_single_item;

    #[test]
    fn single_items_have_no_separators() {
        assert!(is_single_item("fragile"));
        assert!(is_single_item("two words"));
        for bad in ["", "  ", "a,b", "a;b", "a\nb", "[\"a\"]", " [x"] {
            assert!(!is_single_item(bad), "{bad:?}");
        }
    }
}
