//! Meaning declared for tools that were not derived: the derive's semantic vocabulary as data,
//! from a gate's policy file, a property's `x-toolargs` keyword in the schema itself, or the
//! `meaning` option of the Python and npm packages. Each names an argument by its path (`amount_cents`,
//! `order.amount_cents`, `lines[].amount`) and says what it means with the keys of
//! `#[arg(...)]`: `semantic`, `currency`, `minor_units`, `unit`, `family`, `entity`,
//! `critical`, and `synonyms` for the values of an enum.
//!
//! ```
//! use serde_json::json;
//! use toolargs_core::Effect;
//! use toolargs_semantic::{Meanings, Profile};
//!
//! let schema = json!({"type": "object", "properties": {
//!     "amount_cents": {"type": "integer"},
//!     "currency": {"type": "string", "pattern": "^[A-Z]{3}$"}}});
//! let meanings: Meanings = serde_json::from_value(json!({
//!     "amount_cents": {"semantic": "money", "currency": "currency", "minor_units": true,
//!                      "critical": true}}))?;
//! let profile = Profile::declared("issue_refund", Effect::External, &schema, &meanings)?;
//! assert_eq!(profile.field("amount_cents").unwrap().meaning.name(), "money");
//!
//! // A property the schema does not have is an error that names it.
//! let wrong: Meanings = serde_json::from_value(json!({"amount": {"semantic": "money",
//!     "currency": "USD"}}))?;
//! let error = Profile::declared("issue_refund", Effect::External, &schema, &wrong).unwrap_err();
//! assert!(error.message().contains("amount"), "{error}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;
use toolargs_core::declare::{Kind, Semantics, Source};
use toolargs_core::effect::Effect;

use super::currency::Currency;
use super::profile::Profile;
use super::units::builtin_family;
use super::SemanticError;

/// The keyword a property of a JSON Schema declares its meaning under.
pub const SCHEMA_KEYWORD: &str = "x-toolargs";

/// What one argument means: the keys of the derive's `#[arg(...)]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Declared {
    /// The kind: `money`, `date`, `datetime`, `entity`, `quantity`, or a unit family
    /// (`duration`, `length`, `mass`, `data_size`).
    #[serde(default)]
    pub semantic: Option<String>,
    /// For money: the sibling argument that holds the currency, or a fixed ISO 4217 code.
    #[serde(default)]
    pub currency: Option<String>,
    /// For money: the amount is in minor units (cents).
    #[serde(default)]
    pub minor_units: bool,
    /// For a quantity: the sibling argument that holds the unit, or a fixed unit.
    #[serde(default)]
    pub unit: Option<String>,
    /// For `semantic = "quantity"`: the unit family.
    #[serde(default)]
    pub family: Option<String>,
    /// For an entity: what it refers to (`person`, `account`).
    #[serde(default)]
    pub entity: Option<String>,
    /// A change here rejects a correction instead of asking for a confirmation.
    #[serde(default)]
    pub critical: bool,
    /// For an enum: other names of its values, by value (`{"overnight": ["next_day"]}`).
    #[serde(default)]
    pub synonyms: BTreeMap<String, Vec<String>>,
}

/// Declarations by argument path, as a policy file or a package option gives them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct Meanings(pub BTreeMap<String, Declared>);

impl Meanings {
    /// True when nothing is declared.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The declarations of `schema`'s properties under [`SCHEMA_KEYWORD`], at any depth of
    /// nested `properties` (and `items`).
    pub fn in_schema(schema: &Value) -> Result<Meanings, SemanticError> {
        let mut found = BTreeMap::new();
        collect(schema, schema, "", &mut found, 0)?;
        Ok(Meanings(found))
    }
}

impl Profile {
    /// The profile of a tool loaded from `schema`, with the meaning its properties declare
    /// under [`SCHEMA_KEYWORD`] and `meanings` laid over it (a path both declare takes
    /// `meanings`' declaration: the operator's word over the server's). A declaration that
    /// names an argument the schema does not have, or a kind that does not fit its type, is
    /// an error that names it.
    pub fn declared(
        name: &str,
        effect: Effect,
        schema: &Value,
        meanings: &Meanings,
    ) -> Result<Profile, SemanticError> {
        let in_schema = Meanings::in_schema(schema)?;
        Profile::with_meanings(name, effect, schema, in_schema, meanings)
    }

    /// [`Profile::declared`], or `None` when neither `meanings` nor the schema declares
    /// anything: a tool without declared meaning is judged by its schema alone.
    pub fn declared_if_any(
        name: &str,
        effect: Effect,
        schema: &Value,
        meanings: &Meanings,
    ) -> Result<Option<Profile>, SemanticError> {
        let in_schema = Meanings::in_schema(schema)?;
        if in_schema.is_empty() && meanings.is_empty() {
            return Ok(None);
        }
        Profile::with_meanings(name, effect, schema, in_schema, meanings).map(Some)
    }

    /// The profile with `in_schema`'s declarations and `meanings` laid over them.
    fn with_meanings(
        name: &str,
        effect: Effect,
        schema: &Value,
        in_schema: Meanings,
        meanings: &Meanings,
    ) -> Result<Profile, SemanticError> {
        let mut all = in_schema.0;
        all.extend(meanings.0.clone());
        let mut semantics = Semantics::new();
        for (path, declared) in &all {
            let segments: Vec<&str> = path
                .split('.')
                .map(|segment| segment.strip_suffix("[]").unwrap_or(segment))
                .collect();
            if segments.iter().any(|segment| segment.is_empty()) {
                return Err(SemanticError::new(format!(
                    "{path:?} is not an argument path (`amount`, `order.amount`, `lines[].amount`)"
                )));
            }
            let holder = holder_of(schema, &segments);
            semantics = add(semantics, &segments, declared, holder, path)?;
        }
        Profile::from_schema(name, effect, schema).with(&semantics)
    }
}

/// Deepest nesting of `properties` and `$ref`s followed.
const MAX_DEPTH: usize = 32;

/// Collects the [`SCHEMA_KEYWORD`] declarations under `schema` (whose paths start with
/// `prefix`).
fn collect(
    schema: &Value,
    root: &Value,
    prefix: &str,
    found: &mut BTreeMap<String, Declared>,
    depth: usize,
) -> Result<(), SemanticError> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    let schema = resolved(schema, root);
    if let Some(items) = schema.get("items") {
        collect(items, root, &format!("{prefix}[]"), found, depth + 1)?;
    }
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Ok(());
    };
    for (name, property) in properties {
        let path = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}.{name}")
        };
        if let Some(declared) = property.get(SCHEMA_KEYWORD) {
            let declared = Declared::deserialize(declared)
                .map_err(|e| SemanticError::new(format!("{path}: its {SCHEMA_KEYWORD}: {e}")))?;
            found.insert(path.clone(), declared);
        }
        collect(property, root, &path, found, depth + 1)?;
    }
    Ok(())
}

/// `schema`, or what its local `$ref` points at.
fn resolved<'s>(schema: &'s Value, root: &'s Value) -> &'s Value {
    let mut schema = schema;
    for _ in 0..MAX_DEPTH {
        let target = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix('#'))
            .and_then(|pointer| root.pointer(pointer));
        match target {
            Some(target) => schema = target,
            None => break,
        }
    }
    schema
}

/// The object schema whose property the last segment names (through lists), when there is
/// one: where its siblings are.
fn holder_of<'s>(root: &'s Value, segments: &[&str]) -> Option<&'s Value> {
    let mut schema = resolved(root, root);
    let (_, above) = segments.split_last()?;
    for segment in above {
        let mut next = resolved(schema.get("properties")?.get(*segment)?, root);
        while let Some(items) = next.get("items") {
            next = resolved(items, root);
        }
        schema = next;
    }
    Some(schema)
}

/// `semantics` with `declared` laid at `segments`.
fn add(
    semantics: Semantics,
    segments: &[&str],
    declared: &Declared,
    holder: Option<&Value>,
    path: &str,
) -> Result<Semantics, SemanticError> {
    let [field, rest @ ..] = segments else {
        return Ok(semantics);
    };
    if !rest.is_empty() {
        let inner = add(Semantics::new(), rest, declared, holder, path)?;
        return Ok(semantics.nested(field, inner));
    }
    let is_sibling = |name: &str| {
        holder
            .and_then(|holder| holder.get("properties"))
            .and_then(|properties| properties.get(name))
            .is_some()
    };
    let mut semantics = semantics;
    if let Some(kind) = kind_of(declared, path, &is_sibling)? {
        semantics = semantics.declare(field, kind);
    }
    if declared.critical {
        semantics = semantics.critical(field);
    }
    if !declared.synonyms.is_empty() {
        let mut aliases = Semantics::new();
        for (value, synonyms) in &declared.synonyms {
            for synonym in synonyms {
                aliases = aliases.alias(synonym, value);
            }
        }
        semantics = semantics.nested(field, aliases);
    }
    Ok(semantics)
}

/// The kind `declared` names, if it names one.
fn kind_of(
    declared: &Declared,
    path: &str,
    is_sibling: &dyn Fn(&str) -> bool,
) -> Result<Option<Kind>, SemanticError> {
    let error = |why: String| Err(SemanticError::new(format!("{path}: {why}")));
    let Some(semantic) = declared.semantic.as_deref() else {
        for (key, given) in [
            ("currency", declared.currency.is_some()),
            ("minor_units", declared.minor_units),
            ("unit", declared.unit.is_some()),
            ("family", declared.family.is_some()),
            ("entity", declared.entity.is_some()),
        ] {
            if given {
                return error(format!("`{key}` says nothing without `semantic`"));
            }
        }
        return Ok(None);
    };
    // A sibling argument, or a fixed value `fixed` accepts; both or neither is an error.
    let source = |key: &str, value: &str, fixed: bool| -> Result<Source, SemanticError> {
        match (is_sibling(value), fixed) {
            (true, true) => Err(SemanticError::new(format!(
                "{path}: `{key} = {value:?}` names both an argument and a {key}; it must have one reading"
            ))),
            (true, false) => Ok(Source::field(value)),
            (false, true) => Ok(Source::fixed(value)),
            (false, false) => Err(SemanticError::new(format!(
                "{path}: `{key} = {value:?}` is neither a sibling argument nor a known {key}"
            ))),
        }
    };
    let unit = |family: &str| -> Result<Source, SemanticError> {
        let Some(unit) = declared.unit.as_deref() else {
            return Err(SemanticError::new(format!(
                "{path}: a {family} needs `unit`, a sibling argument or a unit"
            )));
        };
        let known = builtin_family(family).is_none_or(|f| !f.units_named(unit).is_empty());
        source("unit", unit, known)
    };
    let kind = match semantic {
        "money" => {
            let Some(currency) = declared.currency.as_deref() else {
                return error("money needs `currency`, a sibling argument or an ISO 4217 code".into());
            };
            let fixed = Currency::from_code(currency).is_some();
            Kind::money(source("currency", currency, fixed)?, declared.minor_units)
        }
        "date" => Kind::Date,
        "datetime" => Kind::DateTime,
        "entity" => Kind::entity(declared.entity.as_deref().unwrap_or("entity")),
        "quantity" => {
            let Some(family) = declared.family.as_deref() else {
                return error("a quantity needs `family`".into());
            };
            Kind::quantity(family, unit(family)?)
        }
        family @ ("duration" | "length" | "mass" | "data_size") => {
            Kind::quantity(family, unit(family)?)
        }
        other => {
            return error(format!(
                "`semantic = {other:?}` is not one of money, date, datetime, entity, quantity, duration, length, mass, data_size"
            ))
        }
    };
    if declared.minor_units && !matches!(kind, Kind::Money { .. }) {
        return error("`minor_units` is for money".into());
    }
    Ok(Some(kind))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn schema() -> Value {
        json!({"type": "object", "properties": {
            "amount_cents": {"type": "integer"},
            "currency": {"type": "string"},
            "paid": {"type": "boolean"},
            "speed": {"type": "string", "enum": ["standard", "overnight"]},
            "wait": {"type": "number", "x-toolargs": {"semantic": "duration", "unit": "min"}},
            "lines": {"type": "array", "items": {"type": "object", "properties": {
                "price": {"type": "number"}, "cur": {"type": "string"}}}}}})
    }

    fn meanings(value: Value) -> Meanings {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn the_schema_and_the_operator_declare_in_one_vocabulary() {
        let declared = meanings(json!({
            "amount_cents": {"semantic": "money", "currency": "currency", "minor_units": true,
                             "critical": true},
            "lines[].price": {"semantic": "money", "currency": "cur"},
            "speed": {"synonyms": {"overnight": ["next_day"]}}}));
        let profile = Profile::declared("t", Effect::External, &schema(), &declared).unwrap();
        let amount = profile.field("amount_cents").unwrap();
        assert_eq!(amount.meaning.name(), "money");
        assert!(amount.critical);
        assert_eq!(profile.field("wait").unwrap().meaning.name(), "quantity");
        let crate::Meaning::List(line) = &profile.field("lines").unwrap().meaning else {
            panic!("lines is a list");
        };
        let crate::Meaning::Object(fields) = line.as_ref() else {
            panic!("of objects");
        };
        assert_eq!(fields[0].meaning.name(), "money");
        let crate::Meaning::Enum { aliases, .. } = &profile.field("speed").unwrap().meaning else {
            panic!("speed is an enum");
        };
        assert_eq!(aliases, &[("next_day".to_owned(), "overnight".to_owned())]);
    }

    #[test]
    fn each_wrong_declaration_is_an_error_naming_it() {
        let cases = [
            (
                json!({"amount": {"semantic": "money", "currency": "USD"}}),
                "amount",
            ),
            (
                json!({"amount_cents": {"semantic": "money"}}),
                "needs `currency`",
            ),
            (
                json!({"amount_cents": {"semantic": "money", "currency": "dollars"}}),
                "neither",
            ),
            (json!({"amount_cents": {"semantic": "cash"}}), "not one of"),
            (
                json!({"amount_cents": {"currency": "USD"}}),
                "without `semantic`",
            ),
            (
                json!({"amount_cents": {"semantic": "date", "minor_units": true}}),
                "for money",
            ),
            (
                json!({"wait": {"semantic": "duration", "unit": "parsecs"}}),
                "neither",
            ),
            (
                json!({"paid": {"semantic": "money", "currency": "USD"}}),
                "paid",
            ),
            (
                json!({"speed": {"synonyms": {"express": ["fast"]}}}),
                "express",
            ),
            (
                json!({"lines..price": {"critical": true}}),
                "not an argument path",
            ),
        ];
        for (declared, says) in cases {
            let error = Profile::declared(
                "t",
                Effect::External,
                &schema(),
                &meanings(declared.clone()),
            )
            .expect_err(&declared.to_string());
            assert!(error.message().contains(says), "{declared}: {error}");
        }
        assert!(serde_json::from_value::<Meanings>(json!({"a": {"semantics": "money"}})).is_err());
        let bad_keyword = json!({"properties": {"a": {"x-toolargs": {"semantic": 1}}}});
        assert!(Meanings::in_schema(&bad_keyword).is_err());
    }
}
