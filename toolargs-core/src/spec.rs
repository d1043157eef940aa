//! Per-field constraints and per-tool policies, as the derive (or a loaded schema) declares them.

use crate::fixed_shape::FixedShape;
use std::borrow::Cow;
use std::fmt;

use regex::Regex;

/// What to do with keys the tool does not declare. Holds at every depth of the arguments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum UnknownPolicy {
    /// Reject the call with `unknown_field` and a did-you-mean hint.
    #[default]
    Reject,
    /// Remove the key and record a `strip_unknown_field` repair.
    Strip,
}

impl UnknownPolicy {
    /// `"reject"` or `"strip"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            UnknownPolicy::Reject => "reject",
            UnknownPolicy::Strip => "strip",
        }
    }
}

/// An inclusive numeric bound, kept exact for integers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    /// An integer bound.
    Int(i128),
    /// A fractional bound.
    Float(f64),
}

impl Bound {
    /// The bound as a float.
    pub fn as_f64(self) -> f64 {
        match self {
            Bound::Int(v) => v as f64,
            Bound::Float(v) => v,
        }
    }

    /// The bound as a JSON number for schemas.
    pub fn to_value(self) -> serde_json::Value {
        match self {
            Bound::Int(v) => crate::text::int_value(v),
            Bound::Float(v) => serde_json::Value::from(v),
        }
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bound::Int(v) => write!(f, "{v}"),
            Bound::Float(v) => write!(f, "{v}"),
        }
    }
}

/// A regular expression a string must match: as a whole (the `pattern` attribute) or anywhere in
/// it (the `pattern` keyword of a loaded JSON Schema, which searches).
#[derive(Clone, Debug)]
pub struct Pattern {
    source: Cow<'static, str>,
    regex: Regex,
    /// The same pattern without the regex engine, when it is an identifier or code of fixed
    /// shape (most are): the same answers, several times faster on short strings.
    shape: Option<FixedShape>,
    whole: bool,
}

impl Pattern {
    /// Compiles `source` so that it only matches whole strings, as if written `^(?:source)$`.
    pub fn new(source: impl Into<Cow<'static, str>>) -> Result<Self, regex::Error> {
        let source = source.into();
        let regex = Regex::new(&format!("^(?:{source})$"))?;
        Ok(Pattern {
            source,
            shape: FixedShape::of(regex.as_str()),
            regex,
            whole: true,
        })
    }

    /// Compiles `source` with JSON Schema semantics: it matches when found anywhere in the
    /// string, unless the pattern anchors itself.
    pub fn search(source: impl Into<Cow<'static, str>>) -> Result<Self, regex::Error> {
        let source = source.into();
        let regex = Regex::new(&source)?;
        Ok(Pattern {
            source,
            shape: FixedShape::of(regex.as_str()),
            regex,
            whole: false,
        })
    }

    /// The pattern as declared.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The form that goes into a JSON Schema `pattern`: `^(?:source)$` for a whole-string
    /// pattern, the source itself for a search pattern.
    pub fn schema_source(&self) -> &str {
        self.regex.as_str()
    }

    /// True when `text` matches (as a whole, or anywhere for a search pattern).
    pub fn is_match(&self, text: &str) -> bool {
        match &self.shape {
            Some(shape) => shape.is_match(text),
            None => self.regex.is_match(text),
        }
    }

    /// Whether the pattern must match the whole string.
    pub fn is_whole(&self) -> bool {
        self.whole
    }

    /// Whether the pattern is anchored at both ends and every match is one ASCII byte from a
    /// fixed set per position (`^ord_[A-Za-z0-9]{8}$`): then it is matched without the regex
    /// engine, and means the same in every regex dialect, ECMA-262 included.
    pub fn is_fixed_shape(&self) -> bool {
        self.shape.is_some()
    }
}

/// The constraints declared on one field. Constraints that do not apply to the field's type are
/// passed through to list items (so `pattern` on a `Vec<String>` constrains each item).
///
/// Built with [`FieldSpec::new`] and the `with_*` methods, so it can grow a constraint without
/// breaking the code that builds it.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct FieldSpec<'s> {
    /// Refuse every value repair on this field and everything below it.
    pub strict: bool,
    /// Inclusive lower bound for numbers.
    pub min: Option<Bound>,
    /// Inclusive upper bound for numbers.
    pub max: Option<Bound>,
    /// Full-match pattern for strings.
    pub pattern: Option<&'s Pattern>,
    /// Least number of characters for strings.
    pub min_len: Option<usize>,
    /// Most characters for strings.
    pub max_len: Option<usize>,
    /// Fewest items for lists.
    pub min_items: Option<usize>,
    /// Most items for lists.
    pub max_items: Option<usize>,
    /// Full-match pattern for the keys of a map.
    pub key_pattern: Option<&'s Pattern>,
}

impl FieldSpec<'static> {
    /// No constraints.
    pub const NONE: FieldSpec<'static> = FieldSpec::new();

    /// No constraints; add them with the `with_*` methods.
    // Written out as a literal and inlined: generated code calls it once per field and call,
    // and building from the `NONE` constant would copy the whole struct from static memory.
    #[inline]
    pub const fn new() -> Self {
        FieldSpec {
            strict: false,
            min: None,
            max: None,
            pattern: None,
            min_len: None,
            max_len: None,
            min_items: None,
            max_items: None,
            key_pattern: None,
        }
    }
}

impl<'s> FieldSpec<'s> {
    /// Refuses every value repair on this field and below it when `strict` is true.
    #[inline]
    pub const fn with_strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Inclusive numeric bounds.
    #[inline]
    pub const fn with_bounds(mut self, min: Option<Bound>, max: Option<Bound>) -> Self {
        self.min = min;
        self.max = max;
        self
    }

    /// A pattern strings must match.
    #[inline]
    pub const fn with_pattern(mut self, pattern: Option<&'s Pattern>) -> Self {
        self.pattern = pattern;
        self
    }

    /// Least and most characters of a string.
    #[inline]
    pub const fn with_length(mut self, min: Option<usize>, max: Option<usize>) -> Self {
        self.min_len = min;
        self.max_len = max;
        self
    }

    /// A pattern the keys of a map must match.
    #[inline]
    pub const fn with_key_pattern(mut self, pattern: Option<&'s Pattern>) -> Self {
        self.key_pattern = pattern;
        self
    }

    /// Fewest and most items of a list (or entries of a map).
    #[inline]
    pub const fn with_items(mut self, min: Option<usize>, max: Option<usize>) -> Self {
        self.min_items = min;
        self.max_items = max;
        self
    }
}

impl Default for FieldSpec<'_> {
    fn default() -> Self {
        FieldSpec::NONE
    }
}
