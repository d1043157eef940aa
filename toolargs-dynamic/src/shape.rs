//! The contract loaded from a schema, in the form the walker reads: a graph of [`Schema`]s
//! addressed by [`Id`], so that `$ref` (recursion included) is an edge, not a copy. `load`
//! builds it from JSON Schema; `walk` runs a payload through it.

use serde_json::Value;

use crate::exact::Decimal;
use toolargs_core::coerce::format::Format;
use toolargs_core::coerce::{ArgType, Capabilities};

/// Index of a schema in its [`Graph`].
pub(crate) type Id = usize;

/// Every schema of one document, and which one is the root.
#[derive(Clone, Debug)]
pub(crate) struct Graph {
    pub schemas: Vec<Schema>,
    pub root: Id,
    /// For each schema, what it declares together with the schemas it applies in place.
    pub closures: Vec<Closure>,
}

impl Graph {
    pub fn get(&self, id: Id) -> &Schema {
        &self.schemas[id]
    }
}

/// One schema: a boolean schema, or keywords.
#[derive(Clone, Debug)]
pub(crate) enum Schema {
    /// `true` (and `{}`): every value.
    True,
    /// `false`: no value.
    False,
    Rules(Box<Rules>),
}

/// The JSON types a schema allows, as a bit set. `number` includes `integer`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Types(u8);

impl Types {
    pub const NULL: Types = Types(1);
    pub const BOOLEAN: Types = Types(2);
    pub const INTEGER: Types = Types(4);
    pub const NUMBER: Types = Types(8);
    pub const STRING: Types = Types(16);
    pub const ARRAY: Types = Types(32);
    pub const OBJECT: Types = Types(64);
    pub const NONE: Types = Types(0);

    pub fn named(name: &str) -> Option<Types> {
        Some(match name {
            "null" => Types::NULL,
            "boolean" => Types::BOOLEAN,
            "integer" => Types::INTEGER,
            "number" => Types::NUMBER,
            "string" => Types::STRING,
            "array" => Types::ARRAY,
            "object" => Types::OBJECT,
            _ => return None,
        })
    }

    pub fn has(self, other: Types) -> bool {
        self.0 & other.0 != 0
    }

    pub fn with(self, other: Types) -> Types {
        Types(self.0 | other.0)
    }

    /// Each single type in the set, in a fixed order.
    pub fn each(self) -> impl Iterator<Item = Types> {
        [
            Types::NULL,
            Types::BOOLEAN,
            Types::INTEGER,
            Types::NUMBER,
            Types::STRING,
            Types::ARRAY,
            Types::OBJECT,
        ]
        .into_iter()
        .filter(move |t| self.has(*t))
    }

    pub fn name(self) -> &'static str {
        match self {
            Types::NULL => "null",
            Types::BOOLEAN => "a boolean",
            Types::INTEGER => "an integer",
            Types::NUMBER => "a number",
            Types::STRING => "a string",
            Types::ARRAY => "an array",
            Types::OBJECT => "an object",
            _ => "a value",
        }
    }
}

/// A numeric bound and whether it is exclusive.
#[derive(Clone, Debug)]
pub(crate) struct Limit {
    pub value: Decimal,
    /// The bound as an integer, when it is one: integers compare without reading digits.
    pub integer: Option<i128>,
    /// The bound as a double, when it has at most 15 significant digits.
    pub float: Option<f64>,
    pub exclusive: bool,
}

/// A `pattern` or `patternProperties` key, with ECMA-262 semantics.
#[derive(Clone, Debug)]
pub(crate) struct Pattern {
    pub source: String,
    pub regex: regress::Regex,
    /// The same pattern as an identifier shape (`^ord_[A-Za-z0-9]{8}$`), which means the same
    /// in every dialect and is checked in one pass over the bytes.
    pub fixed: Option<toolargs_core::spec::Pattern>,
}

impl Pattern {
    /// JSON Schema patterns are not anchored: they match anywhere in the string.
    pub fn is_match(&self, text: &str) -> bool {
        match &self.fixed {
            Some(fixed) => fixed.is_match(text),
            None => self.regex.find(text).is_some(),
        }
    }
}

/// A schema's keywords, grouped by the kind of value they constrain.
#[derive(Clone, Debug, Default)]
pub(crate) struct Rules {
    /// `type`, with `nullable` folded in; `None` allows every type.
    pub types: Option<Types>,
    /// `enum`, values compared by JSON equality.
    pub allowed: Option<Vec<Value>>,
    /// `const`.
    pub constant: Option<Value>,
    /// Whether a string in the wrong ASCII case may be repaired to the one enum value it
    /// matches, as the enum coercer says of the values (`casefold_allowed`).
    pub casefold: bool,
    pub minimum: Option<Limit>,
    pub maximum: Option<Limit>,
    pub multiple_of: Option<Decimal>,
    pub min_length: Option<usize>,
    pub max_length: Option<usize>,
    pub pattern: Option<Pattern>,
    pub format: Option<Format>,
    pub prefix_items: Vec<Id>,
    pub items: Option<Id>,
    pub contains: Option<Id>,
    pub min_contains: Option<usize>,
    pub max_contains: Option<usize>,
    pub min_items: Option<usize>,
    pub max_items: Option<usize>,
    pub unique_items: bool,
    pub properties: Option<Vec<Property>>,
    /// `required` names that no entry of `properties` declares (a declared property carries
    /// its own [`Property::required`]): set apart at load, so the walk does not match every
    /// required name against every property for each call.
    pub required_undeclared: Vec<String>,
    pub additional: Additional,
    pub pattern_properties: Vec<(Pattern, Id)>,
    pub property_names: Option<Id>,
    pub min_properties: Option<usize>,
    pub max_properties: Option<usize>,
    pub dependent_required: Vec<(String, Vec<String>)>,
    pub dependent_schemas: Vec<(String, Id)>,
    pub reference: Option<Id>,
    pub all_of: Vec<Id>,
    pub any_of: Vec<Id>,
    pub one_of: Vec<Id>,
    pub not: Option<Id>,
    pub condition: Option<Condition>,
    pub unevaluated_items: Option<Id>,
    pub unevaluated_properties: Option<Id>,
    /// [`Rules::has_applicators`], computed once at load.
    pub in_place: bool,
}

impl Rules {
    /// Whether any keyword applies another schema to this same value (what `in_place`
    /// caches).
    pub fn has_applicators(&self) -> bool {
        self.reference.is_some()
            || !self.all_of.is_empty()
            || !self.any_of.is_empty()
            || !self.one_of.is_empty()
            || self.not.is_some()
            || self.condition.is_some()
            || !self.dependent_schemas.is_empty()
            || self.unevaluated_items.is_some()
            || self.unevaluated_properties.is_some()
    }

    /// The schemas applied to this same value. `tests` adds those that only test it (`not`,
    /// `if`), whose annotations do not count for the value.
    pub fn applied_in_place(&self, tests: bool) -> Vec<Id> {
        let mut ids: Vec<Id> = self.reference.into_iter().collect();
        ids.extend(&self.all_of);
        ids.extend(&self.any_of);
        ids.extend(&self.one_of);
        ids.extend(self.dependent_schemas.iter().map(|(_, id)| *id));
        if let Some(c) = &self.condition {
            ids.extend(c.then);
            ids.extend(c.otherwise);
            if tests {
                ids.push(c.test);
            }
        }
        if tests {
            ids.extend(self.not);
        }
        ids
    }

    /// Whether an array of `count` items meets `minItems` and `maxItems`.
    pub fn items_fit(&self, count: usize) -> bool {
        self.min_items.is_none_or(|min| count >= min)
            && self.max_items.is_none_or(|max| count <= max)
    }

    /// What the items of an array honour, as the coercer that reads them says: every item
    /// under one schema of `type: string` is read as a `String`. A tuple, `contains` or any
    /// other items schema honours nothing here. The list coercer decides from this whether a
    /// lone string may stand for a one-item list.
    pub fn items_honour(&self, graph: &Graph) -> Capabilities {
        let strings = self.prefix_items.is_empty()
            && self.contains.is_none()
            && match self.items.map(|id| graph.get(id)) {
                Some(Schema::Rules(items)) => items.types == Some(Types::STRING),
                _ => false,
            };
        match strings {
            true => <String as ArgType>::HONOURS,
            false => Capabilities::NONE,
        }
    }
}

/// One entry of `properties`.
#[derive(Clone, Debug)]
pub(crate) struct Property {
    pub name: String,
    pub schema: Id,
    /// Named in the schema's `required`.
    pub required: bool,
    /// Filled in when the key is absent and not required. Only a default that passes its own
    /// schema is kept.
    pub default: Option<Value>,
    /// Every value repair on this property and below it is refused (`repair_forbidden`), as
    /// on a field declared `strict` ([`Spec::make_strict`](crate::Spec::make_strict)).
    pub strict: bool,
}

impl Property {
    /// The value the arguments hold for this property when it is absent and not required: its
    /// default, when it has one other than `null` (a `null` default leaves the key out).
    pub fn absent_value(&self) -> Option<&Value> {
        self.default.as_ref().filter(|default| !default.is_null())
    }
}

/// What `additionalProperties` says.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) enum Additional {
    /// Absent: other keys are not evaluated here.
    #[default]
    Absent,
    /// `false`: other keys go through the tool's unknown-key policy.
    Closed,
    /// A schema other keys must satisfy.
    Schema(Id),
}

/// `if`/`then`/`else`.
#[derive(Clone, Debug)]
pub(crate) struct Condition {
    pub test: Id,
    pub then: Option<Id>,
    pub otherwise: Option<Id>,
}

/// What the walker needs to know about a schema as a whole, computed once after loading.
#[derive(Clone, Debug, Default)]
pub(crate) struct Closure {
    /// `properties` is declared here or in a schema applied in place (`$ref`, `allOf`, ...):
    /// keys nothing evaluates then go through the unknown-key policy.
    pub declares_properties: bool,
    /// Every property name declared in place, for did-you-mean hints.
    pub known: Vec<String>,
}
