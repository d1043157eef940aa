//! Tool definitions in each provider's dialect, made from the plain JSON Schema of the arguments.
//!
//! Every dialect is a transformation of [`ToolArgs::json_schema`](crate::ToolArgs::json_schema);
//! which keywords it keeps is decided in one table, [`Dialect::keeps`]. A keyword a provider
//! cannot take is dropped from what the model is shown, never from what the parser enforces,
//! and where it can be said in words (a date's shape, a length, a default) it is added to the
//! field's description:
//!
//! | dialect | cannot express (the parser still enforces it, with the code shown) |
//! |---|---|
//! | [`Dialect::JsonSchema`], [`Dialect::Anthropic`], [`Dialect::Mcp`], OpenAI with `strict: false` | nothing |
//! | OpenAI with `strict: true` | `minLength`/`maxLength` (`length`); `uniqueItems` (`duplicate_item`); `default` (`null` stands for it) |
//! | [`Dialect::Gemini`] | `format: date` (`ambiguous_date`, `invalid_date`); `additionalProperties: false` (`unknown_field`); `uniqueItems` (`duplicate_item`); `default`; a map's value schema, key pattern and entry count (`propertyNames`, `minProperties`/`maxProperties`) |
//!
//! A map field (an object of open keys) and an open value (`serde_json::Value`, schema `{}`)
//! have no form in OpenAI's strict mode, which requires `additionalProperties: false` on every
//! object and a type everywhere: [`tool_definition`] sends a tool with one with
//! `strict: false`, and the schema states it as in the other dialects.
//!
//! A union (an enum with data) is `anyOf` its variants in every dialect: OpenAI's strict mode
//! takes `anyOf` of strict objects but not `oneOf`. Gemini has no `const`, so a tagged
//! union's tag is a one-value `enum` there, and OpenAPI's missing `null` type is `nullable`.
//!
//! OpenAI's strict mode requires every property, so an optional or defaulted field is typed
//! `["T", "null"]` there and the model sends `null` to leave it out. Parse such calls with
//! [`Dialect::parse_options`] (it sets [`ParseOptions::null_as_absent`]), and a call that conforms
//! to the schema the model was shown parses with zero repairs in every dialect, unless it breaks
//! a rule the dialect cannot express.
//!
//! ```
//! use serde_json::json;
//! use toolargs_core::{dialect::tool_definition, Dialect, Effect};
//!
//! // What `#[derive(ToolArgs)]` writes for `order_id: String` with `min_len = 1`, and
//! // `verbose: Option<bool>`; `GetOrder::tool_definition(dialect)` makes this call.
//! let schema = json!({
//!     "type": "object",
//!     "properties": {
//!         "order_id": {"type": "string", "minLength": 1},
//!         "verbose": {"type": "boolean"},
//!     },
//!     "required": ["order_id"],
//!     "additionalProperties": false,
//! });
//! let strict = Dialect::OpenAiChat { strict: true };
//! let tool = tool_definition(strict, "get_order", Some("Look up an order."), Effect::ReadOnly, &schema);
//! assert_eq!(tool["function"]["parameters"], json!({
//!     "type": "object",
//!     "properties": {
//!         "order_id": {"type": "string", "description": "At least 1 character."},
//!         "verbose": {"type": ["boolean", "null"]},
//!     },
//!     "required": ["order_id", "verbose"],
//!     "additionalProperties": false,
//! }));
//! assert!(strict.parse_options().null_as_absent);
//! ```

use serde_json::{Map, Value};

use crate::effect::Effect;
use crate::options::ParseOptions;
use crate::provider::{openai, Anthropic, Gemini, Mcp, OpenAiChat, OpenAiResponses};

/// A provider's tool-definition format.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// `{name, description, parameters}`, with `parameters` the plain JSON Schema 2020-12
    /// exactly as [`ToolArgs::json_schema`](crate::ToolArgs::json_schema) returns it.
    JsonSchema,
    /// An OpenAI Chat Completions tool:
    /// `{"type": "function", "function": {name, description, parameters, strict}}`.
    OpenAiChat {
        /// Structured Outputs: the model's arguments are constrained to the schema, which
        /// must then be in strict mode's subset.
        strict: bool,
    },
    /// An OpenAI Responses API tool: `{"type": "function", name, description, parameters, strict}`.
    /// `strict` is always written, since the Responses API turns it on when it is left out.
    OpenAiResponses {
        /// As for [`Dialect::OpenAiChat`].
        strict: bool,
    },
    /// An Anthropic Messages API tool: `{name, description, input_schema}`.
    Anthropic,
    /// A Gemini function declaration: `{name, description, parameters}`, with `parameters` in
    /// the OpenAPI 3.0 subset Gemini reads (`nullable` instead of type arrays, no
    /// `additionalProperties`, only the `date-time` format). A tool without arguments has no
    /// `parameters`, since Gemini refuses an object without properties.
    Gemini,
    /// An MCP tool: `{name, description, inputSchema, annotations}`, the annotations from
    /// [`Effect::mcp_annotations`].
    Mcp,
}

/// What the JSON Schema dialects (Anthropic, MCP, OpenAI without `strict`) keep, by keyword.
/// A keyword not listed (the root's `$schema` and `title`) is kept by [`Dialect::JsonSchema`]
/// alone, which keeps everything; what strict mode and Gemini keep is decided in their
/// providers' modules.
const JSON_SCHEMA_KEYWORDS: &[&str] = &[
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
    "default",
    "format",
    "pattern",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "uniqueItems",
    "$ref",
    "$defs",
];

impl Dialect {
    /// Every dialect, each OpenAI one with and without `strict`.
    pub const ALL: [Dialect; 8] = [
        Dialect::JsonSchema,
        Dialect::OpenAiChat { strict: false },
        Dialect::OpenAiChat { strict: true },
        Dialect::OpenAiResponses { strict: false },
        Dialect::OpenAiResponses { strict: true },
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::Mcp,
    ];

    /// Whether the dialect keeps `keyword` (with its `value`) anywhere in the schema: the one
    /// place that decides what each provider is shown, asking the provider's own module
    /// ([`provider`](crate::provider)).
    pub fn keeps(self, keyword: &str, value: &Value) -> bool {
        match self {
            Dialect::JsonSchema => true,
            Dialect::Gemini => Gemini::keeps(keyword, value),
            d if d.is_strict() => openai::strict_keeps(keyword, value),
            _ => JSON_SCHEMA_KEYWORDS.contains(&keyword),
        }
    }

    /// True for OpenAI's strict mode: every property required, optional ones nullable.
    pub const fn is_strict(self) -> bool {
        matches!(
            self,
            Dialect::OpenAiChat { strict: true } | Dialect::OpenAiResponses { strict: true }
        )
    }

    /// The options to parse calls made against this dialect's schema with: strict mode sends
    /// `null` for every field it leaves out, which is then no repair
    /// ([`ParseOptions::null_as_absent`]).
    pub const fn parse_options(self) -> ParseOptions {
        ParseOptions {
            null_as_absent: self.is_strict(),
            ..ParseOptions::DEFAULT
        }
    }

    /// The arguments' schema as this dialect shows it: `schema` is the plain JSON Schema of
    /// [`ToolArgs::json_schema`](crate::ToolArgs::json_schema), filtered by [`Dialect::keeps`]
    /// and reshaped for strict mode or OpenAPI. Besides `$schema` and `title`, every dialect but
    /// [`Dialect::JsonSchema`] drops a root `description` that repeats the tool's.
    ///
    /// For Gemini this is the OpenAPI 3.0 form (`parameters`); [`tool_definition`] sends a
    /// schema that needs more (a map, an open value, a recursive type) as Gemini's
    /// `parametersJsonSchema` instead.
    pub fn parameters(self, schema: &Value, description: Option<&str>) -> Value {
        if self == Dialect::JsonSchema {
            return schema.clone();
        }
        let mut out = if self == Dialect::Gemini {
            self.convert(&without_refs(schema))
        } else {
            self.convert(schema)
        };
        if let Some(map) = out.as_object_mut() {
            if description.is_some()
                && map.get("description").and_then(Value::as_str) == description
            {
                map.shift_remove("description");
            }
        }
        out
    }

    /// What the keywords this dialect drops from `schema` told the model, in words for its
    /// description. The parser enforces a dropped constraint either way; telling it keeps the
    /// model from learning it by rejection.
    fn notes(self, schema: &Map<String, Value>) -> Vec<String> {
        let characters = |n: &Value| match n.as_u64() {
            Some(1) => "1 character".to_owned(),
            _ => format!("{n} characters"),
        };
        ["format", "minLength", "maxLength", "uniqueItems", "default"]
            .into_iter()
            .filter_map(|key| {
                let value = schema.get(key).filter(|v| !self.keeps(key, v))?;
                match key {
                    "format" if value == "date" => Some("A date written YYYY-MM-DD.".to_owned()),
                    "format" if value == "uuid" => {
                        Some("A UUID written 8-4-4-4-12 hexadecimal digits.".to_owned())
                    }
                    "format" if value == "uri" => Some("An absolute URL.".to_owned()),
                    "minLength" => Some(format!("At least {}.", characters(value))),
                    "maxLength" => Some(format!("At most {}.", characters(value))),
                    "uniqueItems" if value == &Value::Bool(true) => {
                        Some("Each item at most once.".to_owned())
                    }
                    "default" => Some(format!("Default: {value}.")),
                    _ => None,
                }
            })
            .collect()
    }

    fn convert(self, schema: &Value) -> Value {
        let Some(map) = schema.as_object() else {
            return schema.clone();
        };
        let mut out = Map::new();
        for (key, value) in map {
            if !self.keeps(key, value) {
                continue;
            }
            let value = match (key.as_str(), value) {
                ("properties", Value::Object(props)) => Value::Object(
                    props
                        .iter()
                        .map(|(name, s)| (name.clone(), self.convert(s)))
                        .collect(),
                ),
                ("items", items) => self.convert(items),
                ("anyOf", Value::Array(branches)) => {
                    Value::Array(branches.iter().map(|b| self.convert(b)).collect())
                }
                ("$defs", Value::Object(defs)) => Value::Object(
                    defs.iter()
                        .map(|(name, s)| (name.clone(), self.convert(s)))
                        .collect(),
                ),
                ("additionalProperties", values @ Value::Object(_)) => self.convert(values),
                _ => value.clone(),
            };
            out.insert(key.clone(), value);
        }
        let notes = self.notes(map);
        if !notes.is_empty() {
            let mut text = notes.join(" ");
            if let Some(Value::String(d)) = out.get("description") {
                text = format!("{d} {text}");
            }
            out.insert("description".to_owned(), Value::from(text));
        }
        if self.is_strict() {
            openai::require_all(&mut out);
        }
        if self == Dialect::Gemini {
            Gemini::reshape(map, &mut out);
        }
        Value::Object(out)
    }
}

/// True when some part of `schema` is open, which OpenAI's strict mode cannot express: an
/// object that takes keys it does not declare (a map's `additionalProperties` schema), or a
/// value of any type (a `serde_json::Value` field, schema `{}`).
pub fn has_open_parts(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else {
        return false;
    };
    let typed = ["type", "enum", "const", "properties", "anyOf", "$ref"]
        .iter()
        .any(|key| map.contains_key(*key));
    !typed
        || map.iter().any(|(key, value)| match key.as_str() {
            "additionalProperties" => value.is_object() || value == &Value::Bool(true),
            "properties" => value
                .as_object()
                .is_some_and(|props| props.values().any(has_open_parts)),
            "items" => has_open_parts(value),
            "anyOf" => value
                .as_array()
                .is_some_and(|branches| branches.iter().any(has_open_parts)),
            "$defs" => value
                .as_object()
                .is_some_and(|defs| defs.values().any(has_open_parts)),
            _ => false,
        })
}

/// Gemini reads no `$ref`: each reference is replaced by its definition, and a reference met
/// inside its own definition (a recursive field) by an object whose description names what
/// it holds. The model is shown one level of the recursion in full; the parser reads every
/// level, with the same rules.
fn without_refs(schema: &Value) -> Value {
    let Some(Value::Object(defs)) = schema.get("$defs") else {
        return schema.clone();
    };
    let mut open = Vec::new();
    let mut out = inline(schema, defs, &mut open);
    if let Some(map) = out.as_object_mut() {
        map.shift_remove("$defs");
    }
    out
}

fn inline<'s>(schema: &'s Value, defs: &'s Map<String, Value>, open: &mut Vec<&'s str>) -> Value {
    match schema {
        Value::Object(map) => {
            let target = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/$defs/"));
            let Some(name) = target else {
                return Value::Object(
                    map.iter()
                        .filter(|(key, _)| *key != "$defs")
                        .map(|(key, value)| (key.clone(), inline(value, defs, open)))
                        .collect(),
                );
            };
            let said = map.get("description").and_then(Value::as_str);
            let Some((name, definition)) = defs.get_key_value(name) else {
                return Value::Object(Map::new());
            };
            let mut out = if open.contains(&name.as_str()) {
                let what = definition
                    .get("description")
                    .and_then(Value::as_str)
                    .map_or(String::new(), |d| format!(" ({})", d.trim_end_matches('.')));
                let mut placeholder = Map::new();
                placeholder.insert("type".to_owned(), Value::from("object"));
                placeholder.insert(
                    "description".to_owned(),
                    Value::from(format!(
                        "A {name}{what}: an object of the same shape as the enclosing {name}."
                    )),
                );
                Value::Object(placeholder)
            } else {
                open.push(name);
                let out = inline(definition, defs, open);
                open.pop();
                out
            };
            // A description written at the use goes before the definition's.
            if let (Some(said), Some(map)) = (said, out.as_object_mut()) {
                let text = match map.get("description").and_then(Value::as_str) {
                    Some(d) => format!("{said} {d}"),
                    None => said.to_owned(),
                };
                map.insert("description".to_owned(), Value::from(text));
            }
            out
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| inline(v, defs, open)).collect()),
        other => other.clone(),
    }
}

/// The definition of a tool in `dialect`: its name, description and the arguments' plain
/// JSON Schema (`schema`, as [`ToolArgs::json_schema`](crate::ToolArgs::json_schema) returns
/// it) transformed by [`Dialect::parameters`]; MCP adds the annotations of `effect`.
/// `description` is left out when there is none. A schema with open parts (a map or an
/// open value field, see [`has_open_parts`]) is sent with `strict: false` in the OpenAI
/// dialects.
pub fn tool_definition(
    dialect: Dialect,
    name: &str,
    description: Option<&str>,
    effect: Effect,
    schema: &Value,
) -> Value {
    // Strict mode needs `additionalProperties: false` on every object, which a map (an
    // object of open keys) cannot have; such a tool is sent without strict mode rather than
    // with a schema that would forbid every entry.
    let dialect = match dialect {
        Dialect::OpenAiChat { strict: true } if has_open_parts(schema) => {
            Dialect::OpenAiChat { strict: false }
        }
        Dialect::OpenAiResponses { strict: true } if has_open_parts(schema) => {
            Dialect::OpenAiResponses { strict: false }
        }
        other => other,
    };
    let mut head = Map::new();
    head.insert("name".to_owned(), Value::from(name));
    if let Some(d) = description {
        head.insert("description".to_owned(), Value::from(d));
    }
    let parameters = || dialect.parameters(schema, description);
    match dialect {
        Dialect::JsonSchema => {
            head.insert("parameters".to_owned(), parameters());
            Value::Object(head)
        }
        Dialect::OpenAiChat { strict } => OpenAiChat::definition(head, parameters(), strict),
        Dialect::OpenAiResponses { strict } => {
            OpenAiResponses::definition(head, parameters(), strict)
        }
        Dialect::Anthropic => Anthropic::definition(head, parameters()),
        Dialect::Gemini => Gemini::definition(head, schema, description),
        Dialect::Mcp => Mcp::definition(head, parameters(), effect),
    }
}
