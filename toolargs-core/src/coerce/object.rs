//! Objects: the pieces a derived struct's reader is made of. Members are matched to fields,
//! unknown keys go through the tool's policy, and each field's presence is decided here:
//! absent or null is the default, `None`, or a `missing` error.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::{type_error, ArgType};
use crate::cx::Cx;
use crate::node::Node;
use crate::path::Path;
use crate::report::{Code, Rule};
use crate::spec::{FieldSpec, UnknownPolicy};

/// The members of an object node, or a `type` error.
pub fn object_members<'n, 'a>(
    node: &'n Node<'a>,
    path: &Path<'_>,
    cx: &mut Cx,
) -> Option<&'n [(Cow<'a, str>, Node<'a>)]> {
    match node {
        Node::Object(members) => Some(members),
        other => {
            type_error(cx, path, "an object", other);
            None
        }
    }
}

/// Handles a key the object does not declare, by the tool's policy: strip it (a repair) or
/// reject it with a did-you-mean hint. The key is never renamed.
pub fn unknown_member(key: &str, value: &Node<'_>, known: &[&str], path: &Path<'_>, cx: &mut Cx) {
    let at = path.key(key);
    match cx.unknown_policy() {
        UnknownPolicy::Strip => {
            cx.repair(
                &at,
                false,
                Rule::StripUnknownField,
                value.to_value(),
                Value::Null,
            );
        }
        UnknownPolicy::Reject => {
            let mut message = format!("unknown field {}", crate::node::preview_str(key));
            if let Some(hint) = did_you_mean(key, known) {
                message.push_str(&format!(" (did you mean \"{hint}\"?)"));
            }
            if known.is_empty() {
                message.push_str("; this object accepts no fields");
            } else {
                message.push_str("; accepted fields: ");
                message.push_str(&known.join(", "));
            }
            cx.error(&at, Code::UnknownField, message);
        }
    }
}

/// The declared name closest to `key`, when it is close enough to be a likely typo.
pub fn did_you_mean<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    if key.len() > 256 {
        return None;
    }
    let key = key.to_ascii_lowercase();
    known
        .iter()
        .map(|name| (strsim::jaro_winkler(&key, name), *name))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name)
}

/// Reads one field: absent or null gives the default (or `None` for an `Option`), or a
/// `missing` error for a required field; a present value goes to the type's coercer.
pub fn field<T: ArgType>(
    member: Option<&Node<'_>>,
    spec: &FieldSpec<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
    default: Option<fn() -> T>,
) -> Option<T> {
    field_with(
        member,
        path,
        cx,
        || default.map(|make| make()).or_else(T::when_absent),
        T::canonical,
        |node, cx| T::coerce(node, spec, path, cx),
    )
}

/// The presence rules of [`field`] for any representation: `absent` gives the value of an
/// absent field (`None` when it is required), `canonical` its JSON for the `null_to_absent`
/// record, and `present` reads a value that is there and not null.
pub fn field_with<T>(
    member: Option<&Node<'_>>,
    path: &Path<'_>,
    cx: &mut Cx,
    absent: impl FnOnce() -> Option<T>,
    canonical: impl FnOnce(&T) -> Value,
    present: impl FnOnce(&Node<'_>, &mut Cx) -> Option<T>,
) -> Option<T> {
    match member {
        Some(Node::Null) | None => match absent() {
            Some(value) => {
                if member.is_some() && !cx.null_as_absent() {
                    cx.repair(
                        path,
                        false,
                        Rule::NullToAbsent,
                        Value::Null,
                        canonical(&value),
                    );
                }
                Some(value)
            }
            None => {
                let what = if member.is_some() { "null" } else { "absent" };
                cx.error(
                    path,
                    Code::Missing,
                    format!("this field is required but was {what}; send a value"),
                );
                None
            }
        },
        Some(node) => present(node, cx),
    }
}

/// One property of an object schema.
#[derive(Debug)]
pub struct Property {
    /// JSON name of the field.
    pub name: &'static str,
    /// Schema of the field's type.
    pub schema: Value,
    /// Description, if any.
    pub description: Option<&'static str>,
    /// Whether the field must be present.
    pub required: bool,
    /// The canonical default, if the field has one.
    pub default: Option<Value>,
}

/// Assembles an object schema: properties in declaration order, `required`, and
/// `additionalProperties: false` (a key the tool does not declare is never part of a good call).
pub fn object_schema(description: Option<&str>, properties: Vec<Property>) -> Value {
    let mut props = Map::new();
    let mut required = Vec::new();
    for p in properties {
        let mut schema = p.schema;
        if let Some(map) = schema.as_object_mut() {
            if let Some(d) = p.description {
                map.insert("description".to_owned(), Value::from(d));
            }
            if let Some(d) = p.default {
                map.insert("default".to_owned(), d);
            }
        }
        if p.required {
            required.push(Value::from(p.name));
        }
        props.insert(p.name.to_owned(), schema);
    }
    let mut schema = Map::new();
    schema.insert("type".to_owned(), Value::from("object"));
    if let Some(d) = description {
        schema.insert("description".to_owned(), Value::from(d));
    }
    schema.insert("properties".to_owned(), Value::Object(props));
    schema.insert("required".to_owned(), Value::Array(required));
    schema.insert("additionalProperties".to_owned(), Value::Bool(false));
    Value::Object(schema)
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn hints_only_close_names() {
        let known = ["order_id", "amount_cents", "reason"];
        assert_eq!(did_you_mean("amount", &known), Some("amount_cents"));
        assert_eq!(did_you_mean("Reason", &known), Some("reason"));
        assert_eq!(did_you_mean("zzz", &known), None);
    }
}
