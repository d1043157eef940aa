//! OpenAI: its two APIs ([`chat`], [`responses`]) define tools with the same schema rules, and
//! the same strict mode (Structured Outputs), decided here.

mod chat;
mod responses;

use serde_json::{Map, Value};

use crate::coerce::optional::nullable;
use crate::dialect::has_open_parts;

pub(crate) use chat::OpenAiChat;
pub(crate) use responses::OpenAiResponses;

/// What strict mode takes, by keyword; a keyword not listed is dropped from what the model is
/// shown (the gate still enforces it). Lengths, `uniqueItems` and `default` are refused by
/// strict mode.
const STRICT_KEYWORDS: &[&str] = &[
    "type",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "items",
    "enum",
    "anyOf",
    "const",
    "format",
    "pattern",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "$ref",
    "$defs",
    "definitions",
    "title",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];

/// The string formats strict mode documents; it refuses any other.
const STRICT_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Whether strict mode keeps `keyword` with `value`.
pub(crate) fn strict_keeps(keyword: &str, value: &Value) -> bool {
    match keyword {
        "format" => value.as_str().is_some_and(|f| STRICT_FORMATS.contains(&f)),
        _ => STRICT_KEYWORDS.contains(&keyword),
    }
}

/// Strict mode: every property is required, one that was optional accepts `null` instead, and
/// no other key is allowed. Returns the properties that were optional.
pub(crate) fn require_all(schema: &mut Map<String, Value>) -> Vec<String> {
    let required = schema.get("required").cloned().unwrap_or_default();
    let Some(Value::Object(props)) = schema.get_mut("properties") else {
        return Vec::new();
    };
    let mut all = Vec::with_capacity(props.len());
    let mut optional = Vec::new();
    for (name, prop) in props.iter_mut() {
        let name = Value::from(name.as_str());
        if !required.as_array().is_some_and(|r| r.contains(&name)) {
            *prop = nullable(prop.take());
            optional.extend(name.as_str().map(str::to_owned));
        }
        all.push(name);
    }
    schema.insert("required".to_owned(), Value::Array(all));
    schema.insert("additionalProperties".to_owned(), Value::Bool(false));
    optional
}

/// True when strict mode can show `schema` as `lowered`: no part of either is open (a map,
/// an untyped value, keys matched by pattern) and the root is an object.
pub(crate) fn strict_can_show(schema: &Value, lowered: &Value) -> bool {
    lowered.get("type") == Some(&Value::from("object"))
        && !has_open_keys(schema)
        && !has_open_parts(lowered)
        && local_references_only(lowered)
}

/// True when every `$ref` points into the same document by JSON pointer (`#`, `#/$defs/x`):
/// strict mode resolves no `$id` or `$anchor`.
fn local_references_only(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().all(|(key, value)| match (key.as_str(), value) {
            ("$ref", Value::String(r)) => r == "#" || r.starts_with("#/"),
            _ => local_references_only(value),
        }),
        Value::Array(items) => items.iter().all(local_references_only),
        _ => true,
    }
}

/// True when some object anywhere in `schema` takes keys it does not name: keys matched by
/// pattern, or other keys under a schema (or `true`). Every object of the JSON is looked at,
/// so a property that happens to be named like one of these keywords counts too: the answer
/// errs towards "open", which only costs strict mode.
fn has_open_keys(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(key, value)| match key.as_str() {
            "patternProperties" => true,
            "additionalProperties" | "unevaluatedProperties" if value != &Value::Bool(false) => {
                true
            }
            _ => has_open_keys(value),
        }),
        Value::Array(items) => items.iter().any(has_open_keys),
        _ => false,
    }
}
