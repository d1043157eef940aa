//! Tool definitions in each provider's dialect, made from the plain JSON Schema of the arguments.
//!
//! Every dialect is a transformation of [`ToolArgs::json_schema`](crate::ToolArgs::json_schema);
//! which keywords it keeps is decided in one table, [`Dialect::keeps`], which asks the
//! provider's own module ([`provider`](crate::provider)). A keyword a provider
//! cannot take is dropped from what the model is shown, never from what the parser enforces,
//! and where it can be said in words (a date's shape, a length, a default) it is added to the
//! field's description:
//!
//! | dialect | cannot express (the parser still enforces it, with the code shown) |
//! |---|---|
//! | every dialect but those below: [`Dialect::JsonSchema`], [`Dialect::Anthropic`], [`Dialect::Mcp`], OpenAI with `strict: false`, ... | nothing |
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
use lower::{Lowerer, Rules};

use crate::effect::Effect;
use crate::options::ParseOptions;
use crate::provider::{Form, Provider};

/// The dialect of a provider in the registry, as a pattern.
macro_rules! dialect_pattern {
    ($name:ident) => {
        Dialect::$name
    };
    ($name:ident, $strict:ident) => {
        Dialect::$name { $strict }
    };
}

/// Whether the dialect [`dialect_pattern`] matched is in strict mode.
macro_rules! dialect_strict {
    () => {
        false
    };
    ($strict:ident) => {
        $strict
    };
}

/// The dialect of a provider in the registry, in strict mode when `$on` and it has one.
macro_rules! dialect_of {
    ($name:ident; $on:expr) => {
        Dialect::$name
    };
    ($name:ident, $strict:ident; $on:expr) => {
        Dialect::$name { $strict: $on }
    };
}

/// Makes [`Dialect`] from the registry of providers: [`Dialect::JsonSchema`], then the dialect
/// of each provider.
macro_rules! dialects {
    ($(
        $(#[$doc:meta])*
        $name:ident = $def:path, dialect $({ $strict:ident })? [$(#[$dialect:meta])*],
        logs [$(#[$logs:meta])*];
    )*) => {
        /// A provider's tool-definition format: the plain JSON Schema, or the dialect of one
        /// provider of the [registry](crate::provider) (in strict mode or not, for a provider
        /// that has one).
        #[non_exhaustive]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Dialect {
            /// `{name, description, parameters}`, with `parameters` the plain JSON Schema
            /// 2020-12 exactly as [`ToolArgs::json_schema`](crate::ToolArgs::json_schema)
            /// returns it.
            JsonSchema,
            $(
                $(#[$dialect])*
                $name $({
                    /// Strict mode (OpenAI's Structured Outputs): the model's arguments are
                    /// constrained to the schema, which must then be in strict mode's subset.
                    $strict: bool
                })?,
            )*
        }

        impl Dialect {
            /// The provider whose dialect this is, and whether in strict mode; `None` for
            /// [`Dialect::JsonSchema`].
            const fn provider_strict(self) -> Option<(Provider, bool)> {
                match self {
                    Dialect::JsonSchema => None,
                    $(dialect_pattern!($name $(, $strict)?) => {
                        Some((Provider::$name, dialect_strict!($($strict)?)))
                    })*
                }
            }

            /// The dialect of `provider`, in strict mode when `strict` and it has one.
            pub(crate) const fn of(provider: Provider, strict: bool) -> Dialect {
                let _ = strict;
                match provider {
                    $(Provider::$name => dialect_of!($name $(, $strict)?; strict),)*
                }
            }
        }
    };
}

crate::__providers!(dialects);

/// How many dialects there are: [`Dialect::JsonSchema`], and one per provider, two for one
/// with a strict mode.
const DIALECTS: usize = {
    let mut count = 1;
    let mut i = 0;
    while i < Provider::ALL.len() {
        count += if Provider::ALL[i].has_strict_mode() {
            2
        } else {
            1
        };
        i += 1;
    }
    count
};

impl Dialect {
    /// Every dialect: [`Dialect::JsonSchema`], then each provider's in the registry's order,
    /// without and with strict mode for a provider that has one.
    pub const ALL: [Dialect; DIALECTS] = {
        let mut all = [Dialect::JsonSchema; DIALECTS];
        let mut at = 1;
        let mut i = 0;
        while i < Provider::ALL.len() {
            let provider = Provider::ALL[i];
            all[at] = Dialect::of(provider, false);
            at += 1;
            if provider.has_strict_mode() {
                all[at] = Dialect::of(provider, true);
                at += 1;
            }
            i += 1;
        }
        all
    };

    /// The provider whose dialect this is; `None` for [`Dialect::JsonSchema`].
    ///
    /// ```
    /// use toolargs_core::{provider::Provider, Dialect};
    ///
    /// assert_eq!(Dialect::OpenAiChat { strict: true }.provider(), Some(Provider::OpenAiChat));
    /// assert_eq!(Dialect::JsonSchema.provider(), None);
    /// ```
    pub const fn provider(self) -> Option<Provider> {
        match self.provider_strict() {
            Some((provider, _)) => Some(provider),
            None => None,
        }
    }

    /// What the lowering for this dialect keeps and reshapes.
    fn rules(self) -> Rules {
        match self.provider_strict() {
            Some((provider, strict)) => Rules::of(provider, strict),
            None => Rules::PLAIN,
        }
    }

    /// Whether the dialect keeps `keyword` (with its `value`) anywhere in the schema: the one
    /// place that decides what each provider is shown, asking the provider's own module
    /// ([`provider`](crate::provider)).
    pub fn keeps(self, keyword: &str, value: &Value) -> bool {
        self == Dialect::JsonSchema || self.rules().keeps(keyword, value)
    }

    /// The dialect's stable name, as [`Dialect::from_name`] reads it: `json_schema`, then
    /// each provider's (`openai_chat`, `openai_chat_strict`, `openai_responses`,
    /// `openai_responses_strict`, `anthropic`, `gemini`, `mcp`, ...), as its module names
    /// it.
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
        match self.provider_strict() {
            None => "json_schema",
            Some((provider, strict)) => {
                let names = provider.names();
                match (strict, names.strict_dialect) {
                    (true, Some(name)) => name,
                    _ => names.dialect,
                }
            }
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
        self.provider()
            .and_then(|provider| provider.def().name_refusal(name))
    }

    /// True for a dialect in strict mode (OpenAI's): every property required, optional ones
    /// nullable.
    pub const fn is_strict(self) -> bool {
        matches!(self.provider_strict(), Some((_, true)))
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
        if self == Dialect::JsonSchema {
            return (schema.clone(), Lowerer::new(Rules::PLAIN, schema));
        }
        lowered(self.rules(), schema, description)
    }
}

/// `schema` lowered by `rules`, a root `description` that repeats the tool's dropped.
fn lowered<'s>(rules: Rules, schema: &'s Value, description: Option<&str>) -> (Value, Lowerer<'s>) {
    let mut lowerer = Lowerer::new(rules, schema);
    let mut out = lowerer.root();
    if let Some(map) = out.as_object_mut() {
        if description.is_some() && map.get("description").and_then(Value::as_str) == description {
            map.shift_remove("description");
        }
    }
    (out, lowerer)
}

/// A tool's definition in one dialect, and what it does not show as the full schema says.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Lowering {
    /// The definition, in the provider's request shape.
    pub definition: Value,
    /// What the definition does not show as written, keyword by keyword, in the order met.
    pub changes: Vec<Change>,
    /// Why the provider refuses the definition as it stands, which no lowering changes (a
    /// tool name outside its rules, which toolargs never renames, or a schema whose root the
    /// provider cannot take).
    pub refusals: Vec<String>,
    /// The dialect the definition is written in, where [`Lowering::schema`] looks.
    dialect: Dialect,
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
    let Some((provider, strict)) = dialect.provider_strict() else {
        head.insert("parameters".to_owned(), schema.clone());
        return Lowering {
            definition: Value::Object(head),
            changes: Vec::new(),
            refusals: Vec::new(),
            dialect,
        };
    };
    let def = provider.def();
    let (mut parameters, walk) = lowered(Rules::of(provider, strict), schema, description);
    let mut changes = walk.changes;
    let mut recursive = walk.recursive;
    // Strict mode needs `additionalProperties: false` on every object, which a map (an
    // object of open keys) cannot have; such a tool is sent without strict mode rather than
    // with a schema that would forbid every entry.
    let strict_refusal = strict
        .then(|| def.strict_refusal(schema, &parameters))
        .flatten();
    let dialect = match strict_refusal {
        Some(why) => {
            let (loose, walk) = lowered(Rules::of(provider, false), schema, description);
            parameters = loose;
            changes = walk.changes;
            recursive = walk.recursive;
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
            Dialect::of(provider, false)
        }
        None => dialect,
    };
    let whole = def.whole_schema_instead(schema, &parameters, recursive);
    if let Some(change) = &whole {
        // The plain JSON Schema, in a member of its own.
        changes = vec![change.clone()];
        parameters = lowered(Rules::PLAIN, schema, description).0;
    }
    let form = Form {
        strict: dialect.is_strict(),
        effect,
        whole: whole.is_some(),
    };
    let refusals = def.name_refusal(name).into_iter();
    let refusals = refusals.chain(def.schema_refusal(&parameters)).collect();
    Lowering {
        definition: def.definition(head, parameters, form),
        changes,
        refusals,
        dialect,
    }
}

impl Lowering {
    /// The schema of the arguments in the definition, wherever the dialect's provider keeps
    /// it (`function.parameters`, `input_schema`, `inputSchema`, `parameters`,
    /// `parametersJsonSchema`, ...: [`Provider::schema_paths`] inside its
    /// [wrapper](Provider::wrapper)); `None` for a Gemini tool without arguments.
    pub fn schema(&self) -> Option<&Value> {
        let Some(provider) = self.dialect.provider() else {
            return self.definition.get("parameters");
        };
        let inner = provider
            .wrapper()
            .map_or(Some(&self.definition), |wrapper| {
                self.definition.get(wrapper)
            })?;
        provider
            .schema_paths()
            .iter()
            .find_map(|path| path.iter().try_fold(inner, |at, member| at.get(member)))
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
