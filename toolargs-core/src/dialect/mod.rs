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

mod lower;

pub use crate::schema::{has_open_parts, Change};
use lower::Lowerer;

use crate::effect::Effect;
use crate::options::ParseOptions;
use crate::provider::{openai, Anthropic, Gemini, Mcp, OpenAiChat, OpenAiResponses, Provider};

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
            // The JSON Schema dialects take 2020-12 whole; OpenAPI's `nullable` is said as
            // a type array there.
            _ => keyword != "nullable",
        }
    }

    /// The dialect's stable name: `json_schema`, `openai_chat`, `openai_chat_strict`,
    /// `openai_responses`, `openai_responses_strict`, `anthropic`, `gemini` or `mcp`, as
    /// [`Dialect::from_name`] reads it.
    ///
    /// ```
    /// use toolargs_core::Dialect;
    ///
    /// for dialect in Dialect::ALL {
    ///     assert_eq!(Dialect::from_name(dialect.name()), Some(dialect));
    /// }
    /// assert_eq!(Dialect::OpenAiChat { strict: true }.name(), "openai_chat_strict");
    /// assert_eq!(Dialect::from_name("openai"), None);
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Dialect::JsonSchema => "json_schema",
            Dialect::OpenAiChat { strict: false } => "openai_chat",
            Dialect::OpenAiChat { strict: true } => "openai_chat_strict",
            Dialect::OpenAiResponses { strict: false } => "openai_responses",
            Dialect::OpenAiResponses { strict: true } => "openai_responses_strict",
            Dialect::Anthropic => "anthropic",
            Dialect::Gemini => "gemini",
            Dialect::Mcp => "mcp",
        }
    }

    /// The dialect named `name` ([`Dialect::name`]).
    pub fn from_name(name: &str) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|d| d.name() == name)
    }

    /// Every dialect's name, for messages: `json_schema, openai_chat, ...`.
    pub fn names() -> String {
        Dialect::ALL.map(Dialect::name).join(", ")
    }

    /// Why the dialect's provider refuses a tool named `name`, if it does.
    pub fn name_refusal(self, name: &str) -> Option<String> {
        match self {
            Dialect::OpenAiChat { .. } | Dialect::OpenAiResponses { .. } => {
                openai::name_refusal(name)
            }
            Dialect::Anthropic => Anthropic::name_refusal(name),
            Dialect::Gemini => Gemini::name_refusal(name),
            Dialect::JsonSchema | Dialect::Mcp => None,
        }
    }

    /// True when the dialect refuses `keyword` at the root of a schema, where it takes it
    /// below.
    pub(crate) fn refuses_at_root(self, keyword: &str) -> bool {
        self == Dialect::Anthropic && Anthropic::refuses_at_root(keyword)
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

    /// The arguments' schema as this dialect shows it: `schema` (any JSON Schema, such as
    /// [`ToolArgs::json_schema`](crate::ToolArgs::json_schema)'s) lowered to what the dialect
    /// takes ([`lower`] lists what changed). Besides `$schema` and `title`, every dialect but
    /// [`Dialect::JsonSchema`] drops a root `description` that repeats the tool's.
    ///
    /// For Gemini this is the OpenAPI 3.0 form (`parameters`); [`tool_definition`] sends a
    /// schema that needs more (a map, an open value, a recursive type) as Gemini's
    /// `parametersJsonSchema` instead.
    pub fn parameters(self, schema: &Value, description: Option<&str>) -> Value {
        self.lowered(schema, description).0
    }

    /// [`Dialect::parameters`] with the walk that made it.
    fn lowered<'s>(self, schema: &'s Value, description: Option<&str>) -> (Value, Lowerer<'s>) {
        let mut lowerer = Lowerer::new(self, schema);
        if self == Dialect::JsonSchema {
            return (schema.clone(), lowerer);
        }
        let mut out = lowerer.root();
        if let Some(map) = out.as_object_mut() {
            if description.is_some()
                && map.get("description").and_then(Value::as_str) == description
            {
                map.shift_remove("description");
            }
        }
        (out, lowerer)
    }

    /// What a keyword this dialect drops told the model, in words for its description. The
    /// gate enforces a dropped constraint either way; telling it keeps the model from
    /// learning it by rejection.
    pub(crate) fn note(self, key: &str, value: &Value) -> Option<String> {
        if self.keeps(key, value) {
            return None;
        }
        let characters = |n: &Value| match n.as_u64() {
            Some(1) => "1 character".to_owned(),
            _ => format!("{n} characters"),
        };
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
    }

    /// The notes of every keyword of `schema` this dialect drops, in a fixed order.
    pub(crate) fn notes(self, schema: &Map<String, Value>) -> Vec<String> {
        ["format", "minLength", "maxLength", "uniqueItems", "default"]
            .into_iter()
            .filter_map(|key| self.note(key, schema.get(key)?))
            .collect()
    }
}

/// A tool's definition in one dialect, and what it does not show as the full schema says.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Lowering {
    /// The definition, in the provider's request shape.
    pub definition: Value,
    /// What the definition does not show as written, keyword by keyword, in the order met.
    pub changes: Vec<Change>,
    /// Why the provider refuses the definition as it stands, which no lowering changes
    /// (a tool name outside its rules: toolargs never renames).
    pub refusals: Vec<String>,
}

/// The definition of a tool in `dialect`: its name, description and the arguments' schema
/// (`schema`, any JSON Schema, such as [`ToolArgs::json_schema`](crate::ToolArgs::json_schema)
/// returns) lowered by [`Dialect::parameters`]; MCP adds the annotations of `effect`.
/// `description` is left out when there is none. The [`Lowering::changes`] list what the
/// definition does not show as written; the gate enforces them all the same.
///
/// A schema strict mode cannot express (an object with open keys, an untyped value, a root
/// that is not an object) is sent with `strict: false` in the OpenAI dialects, and the change
/// says so (keyword `strict`).
///
/// ```
/// use serde_json::json;
/// use toolargs_core::{dialect::lower, Dialect, Effect};
///
/// let schema = json!({
///     "type": "object",
///     "properties": {
///         "sku": {"type": "string", "maxLength": 12},
///         "qty": {"type": "integer", "exclusiveMinimum": 0},
///         "kind": {"oneOf": [{"const": "retail"}, {"const": "trade"}]}
///     },
///     "required": ["sku", "qty"],
///     "additionalProperties": false
/// });
/// let lowering = lower(Dialect::Gemini, "order", None, Effect::Additive, &schema);
/// let parameters = &lowering.definition["parameters"];
/// assert_eq!(parameters["properties"]["qty"], json!({"type": "integer", "minimum": 0}));
/// assert_eq!(parameters["properties"]["kind"], json!({"anyOf": [{"enum": ["retail"]}, {"enum": ["trade"]}]}));
/// let changed: Vec<(&str, &str)> = lowering
///     .changes
///     .iter()
///     .map(|c| (c.path.as_str(), c.keyword.as_str()))
///     .collect();
/// assert_eq!(changed, [
///     ("/properties/qty", "exclusiveMinimum"),
///     ("/properties/kind", "oneOf"),
///     ("/properties/kind/oneOf/0", "const"),
///     ("/properties/kind/oneOf/1", "const"),
///     ("", "additionalProperties"),
/// ]);
/// assert!(lowering.changes.iter().all(|c| c.enforced));
/// ```
pub fn lower(
    dialect: Dialect,
    name: &str,
    description: Option<&str>,
    effect: Effect,
    schema: &Value,
) -> Lowering {
    let mut head = Map::new();
    head.insert("name".to_owned(), Value::from(name));
    if let Some(d) = description {
        head.insert("description".to_owned(), Value::from(d));
    }
    let (mut parameters, walk) = dialect.lowered(schema, description);
    let mut changes = walk.changes;
    // Strict mode needs `additionalProperties: false` on every object, which a map (an
    // object of open keys) cannot have; such a tool is sent without strict mode rather than
    // with a schema that would forbid every entry.
    let strict_refusal = dialect
        .is_strict()
        .then(|| openai::strict_refusal(schema, &parameters))
        .flatten();
    let dialect = match (dialect, strict_refusal) {
        (Dialect::OpenAiChat { .. } | Dialect::OpenAiResponses { .. }, Some(why)) => {
            let loose = match dialect {
                Dialect::OpenAiChat { .. } => Dialect::OpenAiChat { strict: false },
                _ => Dialect::OpenAiResponses { strict: false },
            };
            let (loose_parameters, walk) = loose.lowered(schema, description);
            parameters = loose_parameters;
            changes = walk.changes;
            changes.insert(
                0,
                Change {
                    path: String::new(),
                    keyword: "strict".to_owned(),
                    instead: format!("strict: false: strict mode cannot take {why}"),
                    enforced: true,
                    exact: false,
                },
            );
            loose
        }
        (other, _) => other,
    };
    let definition = match dialect {
        Dialect::JsonSchema => {
            head.insert("parameters".to_owned(), parameters);
            Value::Object(head)
        }
        Dialect::OpenAiChat { strict } => OpenAiChat::definition(head, parameters, strict),
        Dialect::OpenAiResponses { strict } => {
            OpenAiResponses::definition(head, parameters, strict)
        }
        Dialect::Anthropic => Anthropic::definition(head, parameters),
        Dialect::Gemini if Gemini::needs_json_schema(schema, &parameters, walk.recursive) => {
            changes = vec![Gemini::json_schema_change()];
            let (plain, _) = Dialect::Mcp.lowered(schema, description);
            Gemini::definition(head, plain, true)
        }
        Dialect::Gemini => Gemini::definition(head, parameters, false),
        Dialect::Mcp => Mcp::definition(head, parameters, effect),
    };
    let refusals = dialect.name_refusal(name).into_iter().collect();
    Lowering {
        definition,
        changes,
        refusals,
    }
}

impl Lowering {
    /// The schema of the arguments in the definition, wherever the provider's shape keeps it
    /// (`function.parameters`, `input_schema`, `inputSchema`, `parameters`,
    /// `parametersJsonSchema`); `None` for a Gemini tool without arguments.
    pub fn schema(&self) -> Option<&Value> {
        let inner = Provider::definition_wrappers()
            .find_map(|wrapper| self.definition.get(wrapper).filter(|w| w.is_object()));
        let part = inner.unwrap_or(&self.definition);
        Provider::schema_members()
            .into_iter()
            .find_map(|member| part.get(member))
    }
}

/// The definition of a tool in `dialect`: [`lower`]'s, without the list of changes.
pub fn tool_definition(
    dialect: Dialect,
    name: &str,
    description: Option<&str>,
    effect: Effect,
    schema: &Value,
) -> Value {
    lower(dialect, name, description, effect, schema).definition
}
