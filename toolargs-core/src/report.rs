//! What a parse produces: the parsed value with its repairs, or a rejection listing every error.
//!
//! Rule and code names are stable strings: tests, dashboards and the model's correction prompt
//! depend on them, so renaming one is a breaking change.

use std::fmt;

use serde_json::{json, Value};

macro_rules! stable_names {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident => $text:literal,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum $name {
            $($(#[$vmeta])* $variant,)*
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The stable snake_case name.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }

            /// Looks a value up by its stable name.
            pub fn from_name(name: &str) -> Option<Self> {
                match name {
                    $($text => Some($name::$variant),)*
                    _ => None,
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.as_str() == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }

        impl PartialEq<$name> for &str {
            fn eq(&self, other: &$name) -> bool {
                *self == other.as_str()
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                self.as_str()
            }
        }
    };
}

stable_names! {
    /// The name of a repair: what was changed, with exactly one possible reading.
    Rule {
        /// A Markdown code fence around the whole payload was removed.
        StripCodeFence => "strip_code_fence",
        /// The payload was a JSON string holding a JSON object; it was decoded once more.
        UnwrapDoubleEncoded => "unwrap_double_encoded",
        /// An empty or blank payload, or `null`, for a tool's arguments: no arguments, `{}`.
        EmptyToObject => "empty_to_object",
        /// `"1999"` for an integer field became `1999`.
        NumericStringToInt => "numeric_string_to_int",
        /// `1999.0` for an integer field became `1999`.
        IntegralFloatToInt => "integral_float_to_int",
        /// `"19.99"` for a number field became `19.99`.
        NumericStringToNumber => "numeric_string_to_number",
        /// `"true"`/`"FALSE"` for a boolean field became `true`/`false`.
        StringToBool => "string_to_bool",
        /// An enum value in the wrong ASCII case matched exactly one variant.
        EnumCasefold => "enum_casefold",
        /// A lone string for a list field became a one-item list.
        ScalarToList => "scalar_to_list",
        /// `null` for an optional or defaulted field was treated as absent.
        NullToAbsent => "null_to_absent",
        /// A key the tool does not declare was removed (strip policy).
        StripUnknownField => "strip_unknown_field",
    }
}

stable_names! {
    /// The stable code of an argument error, which the model can act on.
    Code {
        /// The payload is not JSON, or has prose around it.
        InvalidJson => "invalid_json",
        /// The payload is not a JSON object, or is encoded twice or more.
        NotObject => "not_object",
        /// A key appears twice in one object.
        DuplicateKey => "duplicate_key",
        /// `NaN` or `Infinity` appeared in the payload.
        NonFiniteNumber => "non_finite_number",
        /// A string for an integer field that is not a plain base-10 integer.
        AmbiguousInteger => "ambiguous_integer",
        /// A number that would lose precision: a fraction for an integer field, more
        /// significant digits than a decimal field carries, or, in an open value, a number no
        /// JSON value holds exactly (an integer beyond `i64` and `u64`).
        LossyNumber => "lossy_number",
        /// A string for a number field that is not a plain decimal.
        AmbiguousNumber => "ambiguous_number",
        /// A string for a boolean field other than `true`/`false`.
        AmbiguousBoolean => "ambiguous_boolean",
        /// A value of the wrong JSON type.
        Type => "type",
        /// A number outside the declared bounds or the Rust type's range.
        OutOfRange => "out_of_range",
        /// A string that does not fully match the field's pattern.
        Pattern => "pattern",
        /// A string or list outside its length bounds.
        Length => "length",
        /// A string that is not one of the enum's values.
        Enum => "enum",
        /// A string for a list field that cannot safely become a one-item list.
        AmbiguousList => "ambiguous_list",
        /// A date not written `YYYY-MM-DD`.
        AmbiguousDate => "ambiguous_date",
        /// A `YYYY-MM-DD` string that is not a calendar day.
        InvalidDate => "invalid_date",
        /// A date-time that is not RFC 3339 with an explicit offset.
        AmbiguousDatetime => "ambiguous_datetime",
        /// An RFC 3339 date-time that cannot exist.
        InvalidDatetime => "invalid_datetime",
        /// A required field is absent or null.
        Missing => "missing",
        /// A key the tool does not declare (reject policy).
        UnknownField => "unknown_field",
        /// A repair was needed on a field marked `strict`.
        RepairForbidden => "repair_forbidden",
        /// The payload text is larger than [`Limits::max_payload_bytes`](crate::Limits).
        TooLarge => "too_large",
        /// Arrays and objects nest deeper than [`Limits::max_depth`](crate::Limits).
        TooDeep => "too_deep",
        /// A string value or an object key is longer than
        /// [`Limits::max_string_bytes`](crate::Limits).
        TooLong => "too_long",
        /// An array has more items than [`Limits::max_items`](crate::Limits).
        TooManyItems => "too_many_items",
        /// An object has more keys than [`Limits::max_keys`](crate::Limits).
        TooManyKeys => "too_many_keys",
        /// An item of a set equal, once read, to an earlier one (reported at the later one).
        DuplicateItem => "duplicate_item",
        /// A value two or more variants of an untagged union accept equally well.
        AmbiguousVariant => "ambiguous_variant",
        /// A string that is not an RFC 3339 time with an offset (`format: time`).
        InvalidTime => "invalid_time",
        /// A string that is not an email address (`format: email`).
        InvalidEmail => "invalid_email",
        /// A string that is not a hyphenated UUID (`format: uuid`, `uuid::Uuid`).
        InvalidUuid => "invalid_uuid",
        /// A string that is not an absolute URI (`format: uri`, `url::Url`).
        InvalidUri => "invalid_uri",
        /// A string that is not a dotted-quad IPv4 address (`format: ipv4`).
        InvalidIpv4 => "invalid_ipv4",
        /// A string that is not an IPv6 address (`format: ipv6`).
        InvalidIpv6 => "invalid_ipv6",
        /// A string that is not a host name (`format: hostname`).
        InvalidHostname => "invalid_hostname",
        /// A number that is not a multiple of the schema's `multipleOf`.
        NotMultiple => "not_multiple",
        /// An array with too few or too many items matching the schema's `contains`.
        Contains => "contains",
        /// An object with fewer or more keys than `minProperties`/`maxProperties` allow.
        PropertyCount => "property_count",
        /// A value the schema rules out as such: a `false` schema, or one matching `not`.
        NotAllowed => "not_allowed",
        /// An object key that does not satisfy the schema's `propertyNames`.
        InvalidKey => "invalid_key",
    }
}

/// One repair applied to the arguments: where, by which rule, and the value before and after.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Repair {
    /// JSON path of the repaired value (`$`, `$.field`, `$.list[3]`).
    pub path: String,
    /// The rule that was applied.
    pub rule: Rule,
    /// The value as it arrived.
    pub before: Value,
    /// The value after the repair.
    pub after: Value,
}

impl Repair {
    /// A repair at `path` (a rendered JSON path, `$.field`) by `rule`, from `before` to
    /// `after`: for a front door or a gate of your own that reports repairs as toolargs does.
    pub fn new(path: impl Into<String>, rule: Rule, before: Value, after: Value) -> Repair {
        Repair {
            path: path.into(),
            rule,
            before,
            after,
        }
    }
}

/// One problem in the arguments: where, its stable code, and a message for the model.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ArgumentError {
    /// JSON path of the offending value or key.
    pub path: String,
    /// The stable code.
    pub code: Code,
    /// What was expected and what arrived, written for the model; empty when the message was
    /// not kept ([`ParseOptions::omit_messages`](crate::ParseOptions::omit_messages)). Read
    /// it with [`ArgumentError::message()`] to tell the two apart.
    pub message: String,
}

impl ArgumentError {
    /// An error at `path` (a rendered JSON path, `$.field`) with its code and message.
    pub fn new(path: impl Into<String>, code: Code, message: impl Into<String>) -> ArgumentError {
        ArgumentError {
            path: path.into(),
            code,
            message: message.into(),
        }
    }

    /// The message, or `None` when it was not kept
    /// ([`ParseOptions::omit_messages`](crate::ParseOptions::omit_messages)): every error
    /// toolargs reports with a message has a non-empty one.
    pub fn message(&self) -> Option<&str> {
        (!self.message.is_empty()).then_some(self.message.as_str())
    }
}

impl fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.message() {
            Some(message) => write!(f, "{}: {}: {}", self.path, self.code, message),
            None => write!(f, "{}: {}", self.path, self.code),
        }
    }
}

impl std::error::Error for ArgumentError {}

/// Successfully parsed arguments and every repair it took to get them.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed<T> {
    /// The typed arguments.
    pub args: T,
    /// Repairs in the order they were applied; empty for a clean call.
    pub repairs: Vec<Repair>,
}

impl<T> Parsed<T> {
    /// True when the call needed no repair.
    pub fn is_clean(&self) -> bool {
        self.repairs.is_empty()
    }
}

/// The arguments were rejected. Holds every error found in the call, never zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    errors: Vec<ArgumentError>,
    omitted: usize,
}

impl Rejection {
    /// At most this many errors are kept; the rest are only counted, so hostile input with
    /// millions of bad items cannot make the report itself huge.
    pub const MAX_ERRORS: usize = 100;

    /// Builds a rejection from collected errors. `omitted` counts errors past [`Self::MAX_ERRORS`].
    ///
    /// # Panics
    /// Never on input; callers inside the crate always pass at least one error.
    pub(crate) fn new(errors: Vec<ArgumentError>, omitted: usize) -> Self {
        debug_assert!(!errors.is_empty());
        Rejection { errors, omitted }
    }

    /// A rejection with a single error.
    pub fn single(error: ArgumentError) -> Self {
        Rejection {
            errors: vec![error],
            omitted: 0,
        }
    }

    /// Every error of the call, in the order found (never empty).
    pub fn errors(&self) -> &[ArgumentError] {
        &self.errors
    }

    /// Number of errors beyond [`Self::MAX_ERRORS`] that were counted but not kept.
    pub fn omitted(&self) -> usize {
        self.omitted
    }

    /// Consumes the rejection and returns its errors.
    pub fn into_errors(self) -> Vec<ArgumentError> {
        self.errors
    }

    /// True when any error has this code.
    pub fn has_code(&self, code: Code) -> bool {
        self.errors.iter().any(|e| e.code == code)
    }

    /// The tool result to send back to the model so it can correct the call:
    /// `{"ok":false,"errors":[{"error":CODE,"path":PATH,"message":TEXT}, ...]}`
    /// (plus `"omitted":N` when errors were dropped past the cap). Keys are written in this
    /// order whatever `serde_json` features are enabled.
    pub fn for_model(&self) -> String {
        use crate::text::push_json_str;
        let size: usize = self
            .errors
            .iter()
            .map(|e| e.path.len() + e.message.len() + 64)
            .sum();
        let mut out = String::with_capacity(size + 48);
        out.push_str("{\"ok\":false,\"errors\":[");
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"error\":");
            push_json_str(&mut out, e.code.as_str());
            out.push_str(",\"path\":");
            push_json_str(&mut out, &e.path);
            out.push_str(",\"message\":");
            push_json_str(&mut out, &e.message);
            out.push('}');
        }
        out.push(']');
        if self.omitted > 0 {
            out.push_str(",\"omitted\":");
            out.push_str(&self.omitted.to_string());
        }
        out.push('}');
        out
    }

    /// [`Self::for_model`] as a JSON value.
    pub fn to_model_json(&self) -> Value {
        let errors: Vec<Value> = self
            .errors
            .iter()
            .map(|e| json!({"error": e.code.as_str(), "path": e.path, "message": e.message}))
            .collect();
        let mut body = json!({"ok": false, "errors": errors});
        if self.omitted > 0 {
            body["omitted"] = json!(self.omitted);
        }
        body
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.errors.len() + self.omitted;
        write!(
            f,
            "tool arguments rejected ({total} error{})",
            if total == 1 { "" } else { "s" }
        )?;
        for error in &self.errors {
            write!(f, "; {error}")?;
        }
        if self.omitted > 0 {
            write!(f, "; and {} more", self.omitted)?;
        }
        Ok(())
    }
}

impl std::error::Error for Rejection {}
