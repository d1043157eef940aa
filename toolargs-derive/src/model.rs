//! The checked model the expander reads. Every value here has been validated: names are
//! resolved to enums, bounds fit their field's type, patterns compile in both regex dialects,
//! semantic sources name a sibling field or a known currency or unit. Expansion only maps it
//! to tokens.

use proc_macro2::Span;
use syn::{Expr, Ident, LitStr, Type};

pub struct Tool<'a> {
    pub ident: &'a Ident,
    /// The tool name, checked against what providers accept.
    pub name: String,
    pub description: Option<String>,
    /// Destructive when undeclared, as `toolargs_core::Effect::default()` is.
    pub effect: EffectAttr,
    /// `None` when undeclared: the effect's default policy applies.
    pub unknown: Option<UnknownAttr>,
    /// `crate = "path"`: the facade's path when it is not `::toolargs`.
    pub krate: Option<syn::Path>,
    pub body: Body<'a>,
}

pub enum Body<'a> {
    Struct(Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
    /// A one-field tuple struct, read as its field.
    Newtype(Box<Field<'a>>),
    /// An enum with data: `tag = "..."` or `untagged`.
    Union(Union<'a>),
}

pub struct Union<'a> {
    /// The tag key; `None` for an untagged union.
    pub tag: Option<String>,
    pub variants: Vec<UnionVariant<'a>>,
}

pub struct UnionVariant<'a> {
    pub ident: &'a Ident,
    pub json_name: String,
    pub description: Option<String>,
    pub data: VariantData<'a>,
}

pub enum VariantData<'a> {
    /// Only the tag (tagged unions only).
    Unit,
    Named(Vec<Field<'a>>),
    /// Read as the field's type (untagged unions only).
    Newtype(Box<Field<'a>>),
}

/// `#[toolargs(effect = ...)]`, one variant per `toolargs_core::Effect`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EffectAttr {
    ReadOnly,
    Additive,
    Destructive,
    External,
}

/// `#[toolargs(unknown = ...)]`, one variant per `toolargs_core::UnknownPolicy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnknownAttr {
    Reject,
    Strip,
}

pub struct Field<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub json_name: String,
    pub description: Option<String>,
    /// `Option<T>`: absent when `None`, never required.
    pub optional: bool,
    pub strict: bool,
    pub min: Option<Bound>,
    pub max: Option<Bound>,
    pub pattern: Option<Pattern>,
    /// The keys of a map.
    pub key_pattern: Option<Pattern>,
    pub min_len: Option<usize>,
    pub max_len: Option<usize>,
    pub min_items: Option<usize>,
    pub max_items: Option<usize>,
    pub default: Option<DefaultValue>,
    pub semantic: Option<Semantic>,
    pub critical: bool,
    /// True when the type below `Option` and `Vec` is read through its `ArgType` impl: its
    /// semantic declarations (if it derives `ToolArgs`) nest under this field.
    pub nested: bool,
    /// Attributes whose fit to the type only its `ArgType` impl knows: asserted at compile
    /// time against the impl's constants.
    pub trait_checks: Vec<TraitCheck>,
}

/// `const _: () = assert!(<Type as ArgType>::HONOURS.field, "message")`, spanned at the attribute.
pub struct TraitCheck {
    pub span: Span,
    /// The field of `Capabilities`: `pattern`, `bounds`, `length`, `items` or `key_pattern`.
    pub constant: &'static str,
    pub message: String,
}

/// A numeric bound, already known to fit the field's type (an integer for integer fields).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    Int(i128),
    Float(f64),
}

/// A pattern that compiles as a full match and reads the same in ECMA-262.
pub struct Pattern {
    pub source: String,
    /// The source compiled as a full match (`^(?:...)$`), for checking literal defaults.
    pub regex: regex::Regex,
}

pub enum DefaultValue {
    /// `default`: `Default::default()`, reported at the key when the type has no impl.
    Trait(Span),
    /// `default = "text"` on a `String` field.
    Str(LitStr),
    /// `default = <expr>`, used as written.
    Expr(Box<Expr>),
}

/// `#[arg(semantic = ...)]` as written: a canonical kind or a built-in unit family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SemanticAttr {
    Money,
    Date,
    DateTime,
    Entity,
    Quantity,
    Family(BuiltinFamily),
}

/// The unit families built into the runtime.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinFamily {
    Duration,
    Length,
    Mass,
    DataSize,
}

/// A declared semantic kind with its checked parameters.
pub enum Semantic {
    Money { currency: Source, minor_units: bool },
    Date,
    DateTime,
    Entity { kind: String },
    Quantity { family: Family, unit: Source },
}

pub enum Family {
    Builtin(BuiltinFamily),
    /// A family the gate is given at run time (`semantic = "quantity", family = "volume"`);
    /// its units are checked when the gate runs.
    Custom(String),
}

/// Where a currency or unit comes from.
pub enum Source {
    /// A sibling field holding it, by JSON name.
    Field(String),
    /// A fixed currency code or unit name.
    Fixed(String),
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub json_name: String,
    pub synonyms: Vec<String>,
}
