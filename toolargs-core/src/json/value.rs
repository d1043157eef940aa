//! A decoded `serde_json` value borrowed as a document, under the same limits as text.

use std::borrow::Cow;

use serde_json::Value;

use crate::node::{Node, Number};
use crate::options::Limits;
use crate::path::Path;
use crate::report::ArgumentError;

use super::limit::{too_deep, too_long, too_many_items, too_many_keys};
use super::pool::{pooled_items, pooled_members};
use super::Document;

/// Borrows a decoded `serde_json` value as a document, under the same `limits` as text (except
/// the payload size, which a decoded value no longer has).
pub(crate) fn read_value<'a>(
    value: &'a Value,
    limits: &Limits,
) -> Result<Document<'a>, ArgumentError> {
    from_value(value, &Path::ROOT, limits.max_depth, limits).map(|root| Document { root })
}

fn from_value<'a>(
    value: &'a Value,
    path: &Path<'_>,
    depth_left: usize,
    limits: &Limits,
) -> Result<Node<'a>, ArgumentError> {
    Ok(match value {
        Value::Null => Node::Null,
        Value::Bool(b) => Node::Bool(*b),
        Value::Number(n) => Node::Number(if let Some(v) = n.as_u64() {
            Number::U64(v)
        } else if let Some(v) = n.as_i64() {
            Number::I64(v)
        } else {
            Number::F64(n.as_f64().unwrap_or(f64::NAN))
        }),
        Value::String(s) => {
            if s.len() > limits.max_string_bytes && depth_left < limits.max_depth {
                return Err(too_long(path, false, limits));
            }
            Node::String(Cow::Borrowed(s))
        }
        Value::Array(items) => {
            let depth = depth_left.checked_sub(1).ok_or_else(|| too_deep(limits))?;
            if items.len() > limits.max_items {
                return Err(too_many_items(path, limits));
            }
            let mut out = pooled_items();
            out.reserve(items.len());
            for (index, item) in items.iter().enumerate() {
                out.push(from_value(item, &path.index(index), depth, limits)?);
            }
            Node::Array(out)
        }
        Value::Object(map) => {
            let depth = depth_left.checked_sub(1).ok_or_else(|| too_deep(limits))?;
            if map.len() > limits.max_keys {
                return Err(too_many_keys(path, limits));
            }
            let mut out = pooled_members();
            out.reserve(map.len());
            for (key, item) in map {
                if key.len() > limits.max_string_bytes {
                    return Err(too_long(path, true, limits));
                }
                let node = from_value(item, &path.key(key), depth, limits)?;
                out.push((Cow::Borrowed(key.as_str()), node));
            }
            Node::Object(out)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Code;

    #[test]
    fn decoded_values_meet_the_same_limits() {
        let limits = Limits {
            max_depth: 3,
            max_string_bytes: 4,
            max_items: 3,
            max_keys: 2,
            ..Limits::DEFAULT
        };
        let read = |value: Value| {
            read_value(&value, &limits)
                .map(|doc| doc.root().to_value())
                .map_err(|e| (e.code, e.path))
        };
        let fine = serde_json::json!({"abcd": [["wxyz"], 1, 2], "b": {}});
        assert_eq!(read(fine.clone()), Ok(fine));
        for (value, code, path) in [
            (serde_json::json!({"a": "vwxyz"}), Code::TooLong, "$.a"),
            (serde_json::json!({"abcde": 1}), Code::TooLong, "$"),
            (
                serde_json::json!({"a": [1, 2, 3, 4]}),
                Code::TooManyItems,
                "$.a",
            ),
            (
                serde_json::json!({"a": 1, "b": 2, "c": 3}),
                Code::TooManyKeys,
                "$",
            ),
            (serde_json::json!({"a": [[[1]]]}), Code::TooDeep, "$"),
        ] {
            assert_eq!(read(value.clone()), Err((code, path.to_owned())), "{value}");
        }
    }
}
