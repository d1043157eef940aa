//! OpenAI: its two APIs ([`chat`], [`responses`]) define tools with the same schema rules, and
//! the same strict mode (Structured Outputs), decided here.

mod chat;
mod responses;

use serde_json::{Map, Value};

use crate::coerce::optional::nullable;
use crate::provider::{name_fits, word_or_dash};
use crate::schema::has_open_parts;

pub(crate) use chat::OpenAiChat;
pub(crate) use responses::OpenAiResponses;

/// What both APIs answer alike, for their `ProviderDef`s.
macro_rules! openai_schema_rules {
    () => {
        /// Strict mode keeps [`STRICT_KEYWORDS`](super::STRICT_KEYWORDS); without it, JSON
        /// Schema whole but OpenAPI's `nullable`.
        fn keeps(&self, keyword: &str, value: &Value, strict: bool) -> bool {
            if strict {
                super::strict_keeps(keyword, value)
            } else {
                keyword != "nullable"
            }
        }

        fn require_all(&self, schema: &mut Map<String, Value>) -> Vec<String> {
            super::require_all(schema)
        }

        fn strict_refusal(&self, schema: &Value, lowered: &Value) -> Option<String> {
            super::strict_refusal(schema, lowered)
        }

        fn name_refusal(&self, name: &str) -> Option<String> {
            super::name_refusal(name)
        }
    };
}
use openai_schema_rules;

/// What strict mode takes, by keyword; a keyword not listed is dropped from what the model is
/// shown (the gate still enforces it). Lengths, `uniqueItems`, `default` and a map's key
/// pattern and entry count are refused by strict mode.
const STRICT_KEYWORDS: &[&str] = &[
    "type",
    "description",
    "properties",
    "required",
    "additionalProperties",
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
fn strict_keeps(keyword: &str, value: &Value) -> bool {
    match keyword {
        "format" => value.as_str().is_some_and(|f| STRICT_FORMATS.contains(&f)),
        _ => STRICT_KEYWORDS.contains(&keyword),
    }
}

/// Strict mode: every property is required, one that was optional accepts `null` instead, and
/// no other key is allowed. Returns the properties that were optional.
fn require_all(schema: &mut Map<String, Value>) -> Vec<String> {
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

/// Why strict mode cannot show `schema` as `lowered`, if it cannot: a part of either is
/// open (a map, an untyped value, keys matched by pattern), the root is not an object, a
/// reference is by `$id` or `$anchor`, or the schema passes one of strict mode's documented
/// limits (<https://platform.openai.com/docs/guides/structured-outputs>: at most 5000
/// properties in all, 10 levels of nesting, 1000 enum values in all, 120000 characters of
/// property names, definition names, enum values and const values in all).
fn strict_refusal(schema: &Value, lowered: &Value) -> Option<String> {
    if lowered.get("type") != Some(&Value::from("object")) {
        return Some("the root is not an object".to_owned());
    }
    if has_open_keys(schema) || has_open_parts(lowered) || has_bare_objects(lowered) {
        return Some("open keys or an untyped value".to_owned());
    }
    if !local_references_only(lowered) {
        return Some("a reference by `$id` or `$anchor`".to_owned());
    }
    let mut size = Size::default();
    size.measure(lowered, 0);
    if size.properties > MAX_PROPERTIES {
        return Some(format!(
            "{} properties, over {MAX_PROPERTIES}",
            size.properties
        ));
    }
    if size.depth > MAX_DEPTH {
        return Some(format!(
            "{} levels of nesting, over {MAX_DEPTH}",
            size.depth
        ));
    }
    if size.enum_values > MAX_ENUM_VALUES {
        return Some(format!(
            "{} enum values, over {MAX_ENUM_VALUES}",
            size.enum_values
        ));
    }
    if size.characters > MAX_CHARACTERS {
        return Some(format!(
            "{} characters of names and values, over {MAX_CHARACTERS}",
            size.characters
        ));
    }
    None
}

/// Strict mode's documented limits.
const MAX_PROPERTIES: usize = 5000;
const MAX_DEPTH: usize = 10;
const MAX_ENUM_VALUES: usize = 1000;
const MAX_CHARACTERS: usize = 120_000;

/// What strict mode's limits count in a schema.
#[derive(Default)]
struct Size {
    properties: usize,
    /// Objects nested in objects, the root's properties at level 1.
    depth: usize,
    enum_values: usize,
    /// Property names, definition names, and string enum and const values, in characters.
    characters: usize,
}

impl Size {
    fn measure(&mut self, schema: &Value, depth: usize) {
        let Some(map) = schema.as_object() else {
            return;
        };
        if let Some(Value::Object(properties)) = map.get("properties") {
            self.properties += properties.len();
            self.characters += properties.keys().map(|k| k.chars().count()).sum::<usize>();
            self.depth = self.depth.max(depth + 1);
            for property in properties.values() {
                self.measure(property, depth + 1);
            }
        }
        if let Some(Value::Array(values)) = map.get("enum") {
            self.enum_values += values.len();
            self.characters += values.iter().map(characters).sum::<usize>();
        }
        if let Some(value) = map.get("const") {
            self.characters += characters(value);
        }
        for key in ["$defs", "definitions"] {
            if let Some(Value::Object(defs)) = map.get(key) {
                self.characters += defs.keys().map(|k| k.chars().count()).sum::<usize>();
            }
        }
        for key in ["items", "$defs", "definitions", "anyOf"] {
            match map.get(key) {
                Some(Value::Array(branches)) => {
                    branches.iter().for_each(|b| self.measure(b, depth));
                }
                Some(Value::Object(defs)) if key != "items" => {
                    defs.values().for_each(|d| self.measure(d, depth));
                }
                Some(item) => self.measure(item, depth),
                None => {}
            }
        }
    }
}

/// The characters of a string value, for strict mode's limit on names and values.
fn characters(value: &Value) -> usize {
    value.as_str().map_or(0, |s| s.chars().count())
}

/// True when some object schema of the lowered `schema` does not close its keys with
/// `additionalProperties: false`: strict mode wants it on every object, and an object of no
/// declared properties (`{"type": "object"}`) takes any key, which strict mode cannot say.
/// Every object of the JSON is looked at, erring towards "open" as [`has_open_keys`] does.
fn has_bare_objects(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => {
            let object = match map.get("type") {
                Some(Value::String(t)) => t == "object",
                Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
                _ => false,
            };
            (object && map.get("additionalProperties") != Some(&Value::Bool(false)))
                || map.values().any(has_bare_objects)
        }
        Value::Array(items) => items.iter().any(has_bare_objects),
        _ => false,
    }
}

/// Why OpenAI refuses a function named `name`, if it does: names are 1 to 64 ASCII letters,
/// digits, `_` and `-`.
fn name_refusal(name: &str) -> Option<String> {
    (!name_fits(name, 64, word_or_dash))
        .then(|| "OpenAI takes names of 1 to 64 letters, digits, `_` and `-`".to_owned())
}

/// A function's definition: `head` (name and description) with `parameters` and `strict`,
/// which both APIs write alike.
fn function(mut head: Map<String, Value>, parameters: Value, strict: bool) -> Map<String, Value> {
    head.insert("parameters".to_owned(), parameters);
    head.insert("strict".to_owned(), Value::Bool(strict));
    head
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
