//! A tool's semantic profile: what every argument means, read from its JSON Schema (numbers,
//! booleans, enums, dates, lists, objects) with the declared kinds laid over it (money,
//! quantities, entities, critical fields, aliases).

use serde_json::{Map, Value};

use super::currency::Currency;
use super::units::builtin_family;
use super::SemanticError;
use toolargs_core::declare::{Kind, Semantics, Source};
use toolargs_core::effect::Effect;
use toolargs_core::tool::ToolArgs;

/// Deepest `$ref` chain or nesting followed when reading a schema.
const MAX_DEPTH: usize = 32;

/// What a value means, and so how its readings are compared.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Meaning {
    /// A string compared as written (surrounding whitespace aside).
    Text,
    /// A number compared by value; text such as `"1,500"` reads as every number it can be.
    Number,
    /// `true` or `false`; `"yes"`, `"no"`, `1`, `0` read as what they say.
    Boolean,
    /// One of fixed string values; an exact value, a unique ASCII-case match or a declared
    /// alias reads as that value.
    Enum {
        /// The values.
        values: Vec<String>,
        /// `(alias, value)` pairs.
        aliases: Vec<(String, String)>,
    },
    /// A canonical kind: money, a date, a date-time, a quantity or an entity.
    Kind(Kind),
    /// A list, compared item by item.
    List(Box<Meaning>),
    /// An object, compared field by field.
    Object(Vec<FieldProfile>),
    /// Anything else, compared as canonical JSON.
    Json,
}

impl Meaning {
    /// The stable name: `text`, `number`, `boolean`, `enum`, `money`, `date`, `datetime`,
    /// `quantity`, `entity`, `list`, `object`, `json`.
    pub fn name(&self) -> &'static str {
        match self {
            Meaning::Text => "text",
            Meaning::Number => "number",
            Meaning::Boolean => "boolean",
            Meaning::Enum { .. } => "enum",
            Meaning::Kind(kind) => kind.name(),
            Meaning::List(_) => "list",
            Meaning::Object(_) => "object",
            Meaning::Json => "json",
        }
    }

    /// The meaning below any list layers.
    fn leaf_mut(&mut self) -> &mut Meaning {
        match self {
            Meaning::List(inner) => inner.leaf_mut(),
            other => other,
        }
    }
}

/// One field of an object.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct FieldProfile {
    /// The JSON name.
    pub name: String,
    /// What its value means.
    pub meaning: Meaning,
    /// A mismatch here rejects the call.
    pub critical: bool,
    /// Required by the schema.
    pub required: bool,
    /// The schema's default, which an absent value means.
    pub default: Option<Value>,
}

/// Everything the semantic gate needs to know about a tool: its name, its effect and the
/// meaning of every argument.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Profile {
    name: String,
    effect: Effect,
    fields: Vec<FieldProfile>,
}

impl Profile {
    /// The profile of a derived tool: its schema with the kinds its struct declares.
    ///
    /// # Panics
    /// Never for a type that derives `ToolArgs`: the derive checks every declaration at
    /// compile time. A hand-written `ToolArgs::semantics` that names a field the schema lacks
    /// panics here with the reason.
    pub fn of<T: ToolArgs>() -> Profile {
        Profile::from_schema(T::NAME, T::EFFECT, &T::json_schema())
            .with(&T::semantics())
            .unwrap_or_else(|e| panic!("semantic declarations of {}: {e}", T::NAME))
    }

    /// The profile a JSON Schema gives on its own (for a tool loaded as a
    /// `toolargs_dynamic::Spec`); add declarations with [`Profile::with`]. What the schema does
    /// not describe is compared as JSON.
    pub fn from_schema(name: &str, effect: Effect, schema: &Value) -> Profile {
        let fields = match meaning_of(schema, schema, 0) {
            Meaning::Object(fields) => fields,
            _ => Vec::new(),
        };
        Profile {
            name: name.to_owned(),
            effect,
            fields,
        }
    }

    /// Lays declarations over the profile. A declaration that names a field the schema lacks,
    /// a currency or unit field that is not a sibling, an unknown currency code or a unit its
    /// built-in family does not have is an error.
    pub fn with(mut self, semantics: &Semantics) -> Result<Profile, SemanticError> {
        overlay(&mut self.fields, semantics, "$")?;
        Ok(self)
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tool's effect.
    pub fn effect(&self) -> Effect {
        self.effect
    }

    /// The top-level arguments.
    pub fn fields(&self) -> &[FieldProfile] {
        &self.fields
    }

    /// A top-level argument by JSON name.
    pub fn field(&self, name: &str) -> Option<&FieldProfile> {
        self.fields.iter().find(|f| f.name == name)
    }
}

fn resolve<'s>(schema: &'s Value, root: &'s Value, depth: usize) -> &'s Value {
    let reference = schema.get("$ref").and_then(Value::as_str);
    match reference {
        Some(r) if depth < MAX_DEPTH => {
            let target = r
                .strip_prefix('#')
                .and_then(|pointer| root.pointer(pointer));
            match target {
                Some(t) => resolve(t, root, depth + 1),
                None => schema,
            }
        }
        _ => schema,
    }
}

fn meaning_of(schema: &Value, root: &Value, depth: usize) -> Meaning {
    if depth > MAX_DEPTH {
        return Meaning::Json;
    }
    let schema = resolve(schema, root, depth);
    let Some(map) = schema.as_object() else {
        return Meaning::Json;
    };
    // `anyOf`/`oneOf` of one type and null: the type.
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(options)) = map.get(key) {
            let non_null: Vec<&Value> = options
                .iter()
                .filter(|o| o.get("type").and_then(Value::as_str) != Some("null"))
                .collect();
            return match non_null.as_slice() {
                [one] => meaning_of(one, root, depth + 1),
                _ => Meaning::Json,
            };
        }
    }
    let ty = match map.get("type") {
        Some(Value::String(t)) => Some(t.as_str()),
        Some(Value::Array(types)) => {
            let types: Vec<&str> = types
                .iter()
                .filter_map(Value::as_str)
                .filter(|t| *t != "null")
                .collect();
            match types.as_slice() {
                [one] => Some(*one),
                _ => return Meaning::Json,
            }
        }
        _ => None,
    };
    if let Some(Value::Array(values)) = map.get("enum") {
        let strings: Vec<String> = values
            .iter()
            .filter(|v| !v.is_null())
            .map(|v| v.as_str().map(str::to_owned))
            .collect::<Option<_>>()
            .unwrap_or_default();
        let non_null = values.iter().filter(|v| !v.is_null()).count();
        return if !strings.is_empty() && strings.len() == non_null {
            Meaning::Enum {
                values: strings,
                aliases: Vec::new(),
            }
        } else {
            Meaning::Json
        };
    }
    match ty {
        Some("string") => match map.get("format").and_then(Value::as_str) {
            Some("date") => Meaning::Kind(Kind::Date),
            Some("date-time") => Meaning::Kind(Kind::DateTime),
            _ => Meaning::Text,
        },
        Some("integer" | "number") => Meaning::Number,
        Some("boolean") => Meaning::Boolean,
        Some("array") => match map.get("items") {
            Some(items) => Meaning::List(Box::new(meaning_of(items, root, depth + 1))),
            None => Meaning::List(Box::new(Meaning::Json)),
        },
        Some("object") => match map.get("properties").and_then(Value::as_object) {
            Some(properties) => Meaning::Object(fields_of(properties, map, root, depth)),
            None => Meaning::Json,
        },
        _ => Meaning::Json,
    }
}

fn fields_of(
    properties: &Map<String, Value>,
    object: &Map<String, Value>,
    root: &Value,
    depth: usize,
) -> Vec<FieldProfile> {
    let required: Vec<&str> = object
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    properties
        .iter()
        .map(|(name, schema)| FieldProfile {
            name: name.clone(),
            meaning: meaning_of(schema, root, depth + 1),
            critical: false,
            required: required.contains(&name.as_str()),
            default: resolve(schema, root, depth).get("default").cloned(),
        })
        .collect()
}

fn overlay(
    fields: &mut [FieldProfile],
    semantics: &Semantics,
    at: &str,
) -> Result<(), SemanticError> {
    let names: Vec<String> = fields.iter().map(|f| f.name.clone()).collect();
    for declaration in semantics.fields() {
        let Some(field) = fields.iter_mut().find(|f| f.name == declaration.field) else {
            return Err(SemanticError::new(format!(
                "{at} has no field {:?} (fields: {})",
                declaration.field,
                names.join(", ")
            )));
        };
        let path = format!("{at}.{}", field.name);
        field.critical |= declaration.critical;
        if let Some(kind) = &declaration.kind {
            check_kind(kind, &field.name, &names, &path)?;
            check_fit(kind, field.meaning.leaf_mut(), &path)?;
            *field.meaning.leaf_mut() = Meaning::Kind(kind.clone());
        }
        let nested = &declaration.nested;
        if nested.is_empty() {
            continue;
        }
        match field.meaning.leaf_mut() {
            Meaning::Object(inner) => {
                if !nested.aliases().is_empty() {
                    return Err(SemanticError::new(format!(
                        "{path} is an object, and aliases are for enums"
                    )));
                }
                overlay(inner, nested, &path)?;
            }
            Meaning::Enum { values, aliases } => {
                if !nested.fields().is_empty() {
                    return Err(SemanticError::new(format!(
                        "{path} is an enum, and has no fields to declare"
                    )));
                }
                for (alias, value) in nested.aliases() {
                    if !values.contains(value) {
                        return Err(SemanticError::new(format!(
                            "{path}: alias {alias:?} names {value:?}, which is not one of {values:?}"
                        )));
                    }
                    aliases.push((alias.clone(), value.clone()));
                }
            }
            other => {
                return Err(SemanticError::new(format!(
                    "{path} is {}, which has no nested declarations",
                    other.name()
                )))
            }
        }
    }
    Ok(())
}

/// A kind fits a value the schema reads as text or a number (an entity's id, money, a
/// quantity), or does not describe; never a boolean, an enum or an object.
fn check_fit(kind: &Kind, meaning: &Meaning, path: &str) -> Result<(), SemanticError> {
    let fits = match meaning {
        Meaning::Text | Meaning::Json | Meaning::Kind(_) => true,
        Meaning::Number => !matches!(kind, Kind::Date | Kind::DateTime),
        Meaning::Boolean | Meaning::Enum { .. } | Meaning::Object(_) | Meaning::List(_) => false,
    };
    if fits {
        return Ok(());
    }
    Err(SemanticError::new(format!(
        "{path} is {} in the schema, which cannot hold {}",
        meaning.name(),
        kind.name()
    )))
}

fn check_kind(
    kind: &Kind,
    field: &str,
    siblings: &[String],
    path: &str,
) -> Result<(), SemanticError> {
    let sibling = |source: &Source, what: &str| -> Result<(), SemanticError> {
        match source {
            Source::Field(name) if name == field => Err(SemanticError::new(format!(
                "{path}: the {what} cannot come from the field itself"
            ))),
            Source::Field(name) if !siblings.contains(name) => Err(SemanticError::new(format!(
                "{path}: the {what} field {name:?} is not a sibling (fields: {})",
                siblings.join(", ")
            ))),
            _ => Ok(()),
        }
    };
    match kind {
        Kind::Money { currency, .. } => {
            sibling(currency, "currency")?;
            if let Source::Fixed(code) = currency {
                if Currency::from_code(code).is_none() {
                    return Err(SemanticError::new(format!(
                        "{path}: {code:?} is not an ISO 4217 currency code"
                    )));
                }
            }
        }
        Kind::Quantity { family, unit, .. } => {
            sibling(unit, "unit")?;
            if let (Source::Fixed(name), Some(builtin)) = (unit, builtin_family(family)) {
                if builtin.units_named(name).is_empty() {
                    return Err(SemanticError::new(format!(
                        "{path}: {name:?} is not a unit of {family}"
                    )));
                }
            }
        }
        Kind::Date | Kind::DateTime | Kind::Entity { .. } => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "amount": {"type": "integer"},
                "currency": {"type": "string"},
                "due": {"type": ["string", "null"], "format": "date"},
                "at": {"type": "string", "format": "date-time"},
                "speed": {"$ref": "#/$defs/speed"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "notify": {"type": "boolean", "default": false},
                "line": {"type": "object", "properties": {"qty": {"type": "number"}}, "required": ["qty"]}
            },
            "required": ["amount", "currency"],
            "$defs": {"speed": {"type": "string", "enum": ["standard", "overnight"]}}
        })
    }

    #[test]
    fn reads_meanings_from_the_schema() {
        let p = Profile::from_schema("t", Effect::Additive, &schema());
        let meaning = |n: &str| p.field(n).unwrap().meaning.name();
        assert_eq!(meaning("amount"), "number");
        assert_eq!(meaning("currency"), "text");
        assert_eq!(meaning("due"), "date");
        assert_eq!(meaning("at"), "datetime");
        assert_eq!(meaning("speed"), "enum");
        assert_eq!(meaning("tags"), "list");
        assert_eq!(meaning("line"), "object");
        assert!(p.field("amount").unwrap().required);
        assert_eq!(p.field("notify").unwrap().default, Some(json!(false)));
    }

    #[test]
    fn lays_declarations_over_it() {
        let semantics = Semantics::new()
            .declare("amount", Kind::money(Source::field("currency"), true))
            .critical("amount")
            .nested("speed", Semantics::new().alias("next_day", "overnight"))
            .declare("tags", Kind::entity("tag"));
        let p = Profile::from_schema("t", Effect::Additive, &schema())
            .with(&semantics)
            .unwrap();
        assert_eq!(p.field("amount").unwrap().meaning.name(), "money");
        assert!(p.field("amount").unwrap().critical);
        assert!(matches!(
            &p.field("speed").unwrap().meaning,
            Meaning::Enum { aliases, .. } if aliases.len() == 1
        ));
        assert!(matches!(
            &p.field("tags").unwrap().meaning,
            Meaning::List(inner) if inner.name() == "entity"
        ));
    }

    #[test]
    fn rejects_declarations_that_cannot_hold() {
        let bad = [
            Semantics::new().critical("nope"),
            Semantics::new().declare("amount", Kind::money(Source::field("nope"), false)),
            Semantics::new().declare("amount", Kind::money(Source::fixed("XYZ"), false)),
            Semantics::new().declare(
                "amount",
                Kind::quantity("duration", Source::fixed("fortnights")),
            ),
            Semantics::new().nested("speed", Semantics::new().alias("x", "warp")),
        ];
        for semantics in bad {
            let result = Profile::from_schema("t", Effect::Additive, &schema()).with(&semantics);
            assert!(result.is_err(), "{semantics:?}");
        }
    }
}
