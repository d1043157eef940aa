//! The envelope of a payload: what may stand around, or instead of, the one JSON object of a
//! tool's arguments. Three things have one reading and are repaired at the root: a Markdown
//! code fence around the whole payload (`strip_code_fence`), one level of double encoding, a
//! JSON string whose text is the object (`unwrap_double_encoded`), and no arguments at all,
//! blank text or `null` (`empty_to_object`). Any other root that is not an object is
//! `not_object`.
//!
//! The decoder (`decode`) reads the text under the limits and asks this module what the
//! envelope means. A value double-encoded below the root is `encoded`'s.

use serde_json::Value;

use crate::json::{read_text, Document};
use crate::node::Node;
use crate::options::Limits;
use crate::path::Path;
use crate::report::{ArgumentError, Code, Repair, Rule};

/// Whether text sent for a tool's arguments holds none: nothing but whitespace.
#[inline]
pub(crate) fn is_blank(text: &str) -> bool {
    text.trim_ascii().is_empty()
}

/// Whether a decoded root sent for a tool's arguments holds none: `null`.
#[inline]
pub(crate) fn is_null(node: &Node<'_>) -> bool {
    matches!(node, Node::Null)
}

/// No arguments, sent as blank text or as `null` (`before`): read as `{}`, so that required
/// fields are reported `missing` by name rather than the payload as not an object. Records
/// `empty_to_object` and returns the empty object.
#[cold]
pub(crate) fn no_arguments(before: Value, repairs: &mut Vec<Repair>) -> Node<'static> {
    repairs.push(Repair {
        path: "$".to_owned(),
        rule: Rule::EmptyToObject,
        before,
        after: Value::Object(serde_json::Map::new()),
    });
    Node::Object(Vec::new())
}

/// The body of a payload fenced as ```` ```json ```` or ```` ``` ```` on lines of their own,
/// with `strip_code_fence` recorded; the text itself when it is not fenced.
#[inline]
pub(crate) fn unfenced<'t>(text: &'t str, repairs: &mut Vec<Repair>) -> &'t str {
    // Most payloads start with `{`: settle those without a call.
    if text.as_bytes().first() == Some(&b'{') {
        return text;
    }
    unfence(text, repairs)
}

/// [`unfenced`] of a payload that does not start with `{`.
fn unfence<'t>(text: &'t str, repairs: &mut Vec<Repair>) -> &'t str {
    match strip_code_fence(text) {
        Some(inner) => {
            repairs.push(Repair {
                path: "$".to_owned(),
                rule: Rule::StripCodeFence,
                before: Value::String(text.to_owned()),
                after: Value::String(inner.to_owned()),
            });
            inner
        }
        None => text,
    }
}

/// A root that decoded to a JSON string (`outer`, whose text is `inner_text`) where an object
/// is expected: one level of double encoding when that text is one JSON object, read under
/// the same limits, with `unwrap_double_encoded` recorded. Anything else the string holds is
/// `not_object`, saying what it is; an error of the limits is the inner reading's own.
pub(crate) fn unwrap_double_encoded<'t>(
    outer: &Node<'_>,
    inner_text: &'t str,
    limits: &Limits,
    repairs: &mut Vec<Repair>,
) -> Result<Document<'t>, ArgumentError> {
    let inner = match read_text(inner_text, limits) {
        Ok(inner) => inner,
        Err(err) if err.code == Code::InvalidJson => {
            return Err(root_error(
                Code::NotObject,
                format!(
                    "expected a JSON object, got {} that is not JSON",
                    outer.describe()
                ),
            ))
        }
        Err(err) => return Err(err),
    };
    if !matches!(inner.root(), Node::Object(_)) {
        let what = match inner.root() {
            Node::String(_) => "a JSON string encoded more than once".to_owned(),
            other => format!("{} encoded as a string", other.describe()),
        };
        return Err(root_error(
            Code::NotObject,
            format!("expected a JSON object, got {what}"),
        ));
    }
    repairs.push(Repair {
        path: "$".to_owned(),
        rule: Rule::UnwrapDoubleEncoded,
        before: Value::String(inner_text.to_owned()),
        after: inner.root().to_value(),
    });
    Ok(inner)
}

/// The error of a root that is not an object and has no reading as one.
#[cold]
pub(crate) fn not_object(node: &Node<'_>) -> ArgumentError {
    root_error(
        Code::NotObject,
        format!("expected a JSON object, got {}", node.describe()),
    )
}

fn root_error(code: Code, message: String) -> ArgumentError {
    ArgumentError::new(Path::ROOT.render(), code, message)
}

/// Returns the body of a payload fenced as ```` ```json ```` or ```` ``` ```` on lines of their own.
fn strip_code_fence(text: &str) -> Option<&str> {
    let rest = text.trim_start().strip_prefix("```")?.trim_end();
    let rest = rest.strip_prefix("json").unwrap_or(rest);
    let rest = rest.trim_start_matches([' ', '\t']).strip_prefix('\n')?;
    rest.strip_suffix("```")?.strip_suffix('\n')
}

#[cfg(test)]
mod tests {
    use super::strip_code_fence;

    #[test]
    fn fences_need_their_own_lines() {
        assert_eq!(strip_code_fence("```json\n{}\n```"), Some("{}"));
        assert_eq!(strip_code_fence("  ```\n{}\n```\n"), Some("{}"));
        assert_eq!(strip_code_fence("```json \t\n{\n}\n```"), Some("{\n}"));
        assert_eq!(strip_code_fence("```json{}```"), None);
        assert_eq!(strip_code_fence("```python\n{}\n```"), None);
        assert_eq!(strip_code_fence("{}"), None);
        assert_eq!(strip_code_fence("```json\n```"), None);
    }
}
