//! OpenAI: its two APIs ([`chat`], [`responses`]) define tools with the same schema rules, and
//! the same strict mode (Structured Outputs), decided here.

mod chat;
mod responses;

use serde_json::{Map, Value};

use crate::coerce::optional::nullable;

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
/// no other key is allowed.
pub(crate) fn require_all(schema: &mut Map<String, Value>) {
    let required = schema.get("required").cloned().unwrap_or_default();
    let Some(Value::Object(props)) = schema.get_mut("properties") else {
        return;
    };
    let mut all = Vec::with_capacity(props.len());
    for (name, prop) in props.iter_mut() {
        let name = Value::from(name.as_str());
        if !required.as_array().is_some_and(|r| r.contains(&name)) {
            *prop = nullable(prop.take());
        }
        all.push(name);
    }
    schema.insert("required".to_owned(), Value::Array(all));
    schema.insert("additionalProperties".to_owned(), Value::Bool(false));
}
