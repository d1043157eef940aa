//! The contract loaded from a schema, in the form the walker reads: one [`Shape`] per value.
//! `load` builds shapes from JSON Schema; `walk` runs a payload through them.

use serde_json::Value;
use toolargs_core::spec::{Bound, FieldSpec, Pattern};

/// One value's contract.
#[derive(Clone, Debug)]
pub(crate) struct Shape {
    pub kind: ShapeKind,
    /// `null` is a value of this shape (type arrays with "null", `nullable`, anyOf with null).
    pub nullable: bool,
    pub min: Option<Bound>,
    pub max: Option<Bound>,
    pub pattern: Option<Pattern>,
    pub min_len: Option<usize>,
    pub max_len: Option<usize>,
    pub min_items: Option<usize>,
    pub max_items: Option<usize>,
}

#[derive(Clone, Debug)]
pub(crate) enum ShapeKind {
    Integer,
    Number,
    Boolean,
    String,
    Date,
    DateTime,
    /// String values, matched like a derived enum.
    Enum(Vec<String>),
    /// Any other `enum`/`const`: exact values.
    Literal(Vec<Value>),
    Array(Box<Shape>),
    Object(ObjectShape),
}

#[derive(Clone, Debug)]
pub(crate) struct ObjectShape {
    pub fields: Vec<FieldShape>,
    pub additional: Additional,
}

#[derive(Clone, Debug)]
pub(crate) struct FieldShape {
    pub name: String,
    pub shape: Shape,
    pub required: bool,
    pub default: Option<Value>,
}

/// What `additionalProperties` says.
#[derive(Clone, Debug)]
pub(crate) enum Additional {
    /// Absent or `false`: unknown keys go through the tool's unknown policy.
    Undeclared,
    /// `true`: any extra key is kept as sent.
    Any,
    /// A schema: extra keys are kept when their value satisfies it.
    Schema(Box<Shape>),
}

impl Shape {
    pub(crate) fn new(kind: ShapeKind) -> Shape {
        Shape {
            kind,
            nullable: false,
            min: None,
            max: None,
            pattern: None,
            min_len: None,
            max_len: None,
            min_items: None,
            max_items: None,
        }
    }

    /// The constraints in the form the coercers take.
    pub fn field_spec(&self) -> FieldSpec<'_> {
        FieldSpec::new()
            .with_bounds(self.min, self.max)
            .with_pattern(self.pattern.as_ref())
            .with_length(self.min_len, self.max_len)
            .with_items(self.min_items, self.max_items)
    }

    /// Whether a lone string may stand for a one-item list of this shape.
    pub fn scalar_to_list(&self) -> bool {
        matches!(
            self.kind,
            ShapeKind::String | ShapeKind::Date | ShapeKind::DateTime | ShapeKind::Enum(_)
        )
    }
}
