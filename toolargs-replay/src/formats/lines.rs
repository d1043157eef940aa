//! The replay's own format: one call per record, `{"tool": NAME, "arguments":
//! STRING_OR_OBJECT, ...}`, every other top-level field a grouping key.

use std::borrow::Cow;

use serde_json::Value;
use toolargs_core::node::Node;

use super::{Args, Call};
use crate::outcome::BadRecord;

/// Reads one record and hands its call (or why it is none) to `f`.
///
/// toolargs' own reader borrows from the line; a line it refuses (a duplicate key, say) is
/// read again by serde_json, which keeps the last value as most loggers' readers do.
pub(crate) fn read<R>(
    text: &str,
    by: &[String],
    f: impl FnOnce(Result<Call<'_>, BadRecord>) -> R,
) -> R {
    let fallback: Value;
    let node = match toolargs_core::decode::parse_document(
        text,
        toolargs_core::options::Limits::DEFAULT.max_depth,
    ) {
        Ok(node) => node,
        Err(_) => match serde_json::from_str::<Value>(text) {
            Ok(value) => {
                fallback = value;
                match Node::from_value(&fallback, usize::MAX) {
                    Ok(node) => node,
                    Err(_) => return f(Err(BadRecord::NotJson)),
                }
            }
            Err(_) => return f(Err(BadRecord::NotJson)),
        },
    };
    let Node::Object(fields) = &node else {
        return f(Err(BadRecord::NotObject));
    };
    let field = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v);
    let key: Vec<Value> = by
        .iter()
        .map(|f| field(f).map_or(Value::Null, Node::to_value))
        .collect();
    let tool = match field("tool") {
        None | Some(Node::Null) => None,
        Some(Node::String(name)) => Some(name.as_ref()),
        Some(_) => Some(""),
    };
    let arguments = field("arguments").map(|arguments| match arguments {
        Node::String(text) => Args::Text(text.as_ref()),
        other => Args::Value(Cow::Owned(other.to_value())),
    });
    f(Ok(Call {
        tool,
        arguments,
        key,
    }))
}
