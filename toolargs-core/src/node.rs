//! The decoded payload as a borrowed tree.
//!
//! Strings without escapes and number literals point into the payload text, so a clean call
//! allocates only the containers and the final typed value. Numbers keep their literal text:
//! whether `1999.0` or `1e3` is integral is decided on the decimal digits, never on a
//! rounded `f64`.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::text::{push_preview, PREVIEW_CHARS};

/// A JSON value borrowed from the payload.
///
/// One variant for each of JSON's six kinds of value, and there will be no other: a `match`
/// over them all is exhaustive, as over `serde_json::Value`. What may grow is how a number
/// is held ([`Number`], which is `#[non_exhaustive]`).
#[derive(Clone, Debug, PartialEq)]
pub enum Node<'a> {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// Any JSON number.
    Number(Number<'a>),
    /// A string, borrowed when it had no escapes.
    String(Cow<'a, str>),
    /// An array.
    Array(Vec<Node<'a>>),
    /// An object, members in payload order (duplicates were rejected while decoding text).
    Object(Vec<(Cow<'a, str>, Node<'a>)>),
}

/// A JSON number, as literal text (from a payload) or as a decoded `serde_json` number.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Number<'a> {
    /// The literal as written, already checked against the JSON number grammar.
    Literal(&'a str),
    /// A signed integer from a decoded value.
    I64(i64),
    /// An unsigned integer from a decoded value.
    U64(u64),
    /// A float from a decoded value.
    F64(f64),
}

/// How a JSON number reads as an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntegerReading {
    /// Written as an integer (`1999`).
    Exact(i128),
    /// Written with a fraction or exponent but integral (`1999.0`, `1.999e3`).
    Integral(i128),
    /// Has a non-zero fractional part (`19.99`).
    Fractional,
    /// Integral but beyond any supported integer type.
    TooLarge,
}

impl Number<'_> {
    /// Reads the number as an integer, exactly, from its decimal digits.
    // Inlined: a schema's type and its bounds both ask, for every number of a call.
    #[inline]
    pub fn integer(&self) -> IntegerReading {
        match *self {
            Number::I64(v) => IntegerReading::Exact(v.into()),
            Number::U64(v) => IntegerReading::Exact(v.into()),
            Number::F64(v) => {
                if v.fract() != 0.0 || !v.is_finite() {
                    IntegerReading::Fractional
                } else if v.abs() < 1e30 {
                    // Below 2^100 the float is an exact integer that i128 holds.
                    IntegerReading::Integral(v as i128)
                } else {
                    IntegerReading::TooLarge
                }
            }
            Number::Literal(text) => match short_integer(text) {
                Some(value) => IntegerReading::Exact(value),
                None => read_literal_integer(text),
            },
        }
    }

    /// The value as the nearest `f64` (infinite when the literal is beyond `f64`).
    pub fn as_f64(&self) -> f64 {
        match *self {
            Number::I64(v) => v as f64,
            Number::U64(v) => v as f64,
            Number::F64(v) => v,
            Number::Literal(text) => text.parse().unwrap_or(f64::NAN),
        }
    }

    /// The number as a `serde_json` value (for repair records and previews): exact when
    /// [`Number::to_exact_value`] is, else the nearest `f64` (`null` beyond its range).
    pub fn to_value(&self) -> Value {
        self.to_exact_value()
            .unwrap_or_else(|| Value::from(self.as_f64()))
    }

    /// The number as a `serde_json` value that means what was sent, or `None` when no
    /// `serde_json::Number` holds it: an integer literal beyond `i64` and `u64`, or a literal
    /// beyond the range of `f64`. A literal with a fraction or an exponent is the nearest
    /// `f64`, as for any reader of JSON numbers as doubles; written as `serde_json` writes it
    /// (the shortest text that reads back as the same `f64`), it comes back unchanged.
    pub fn to_exact_value(&self) -> Option<Value> {
        match *self {
            Number::I64(v) => Some(Value::from(v)),
            Number::U64(v) => Some(Value::from(v)),
            Number::F64(v) => serde_json::Number::from_f64(v).map(Value::Number),
            Number::Literal(text) => {
                if !text.contains(['.', 'e', 'E']) {
                    // serde_json reads an integer beyond u64 and i64 as a float, which is
                    // another number.
                    return match text.parse::<u64>() {
                        Ok(v) => Some(Value::from(v)),
                        Err(_) => text.parse::<i64>().ok().map(Value::from),
                    };
                }
                // With serde_json's `float_roundtrip`, the correctly rounded f64.
                match text.parse::<serde_json::Number>() {
                    Ok(n) if n.as_f64().is_some_and(f64::is_finite) => Some(Value::Number(n)),
                    _ => None,
                }
            }
        }
    }

    /// Whether [`Number::to_exact_value`] is `Some`, without building the value when the
    /// answer is plain: integers of 64 bits, and integer literals of up to 18 digits.
    ///
    /// ```
    /// use toolargs_core::node::Number;
    /// assert!(Number::Literal("-1999").is_exact());
    /// assert!(Number::Literal("19.99").is_exact());
    /// assert!(!Number::Literal("123456789012345678901234567890").is_exact());
    /// assert!(!Number::Literal("1e400").is_exact());
    /// ```
    pub fn is_exact(&self) -> bool {
        match *self {
            Number::I64(_) | Number::U64(_) => true,
            Number::Literal(text) if is_short_integer(text.strip_prefix('-').unwrap_or(text)) => {
                true
            }
            _ => self.to_exact_value().is_some(),
        }
    }
}

/// Whether unsigned literal digits are a plain integer of at most 18 digits, which every
/// integer type from 64 bits up holds.
#[inline]
fn is_short_integer(digits: &str) -> bool {
    digits.len() <= 18 && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The common case of [`Number::integer`]: a plain integer literal short enough that it cannot
/// overflow, read in 64-bit arithmetic (eighteen digits fit), which is cheaper than 128-bit.
#[inline]
fn short_integer(text: &str) -> Option<i128> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    if !is_short_integer(digits) {
        return None;
    }
    let value = i128::from(
        digits
            .bytes()
            .fold(0u64, |acc, b| acc * 10 + u64::from(b - b'0')),
    );
    Some(if negative { -value } else { value })
}

/// Splits a JSON number literal into sign, digits and a decimal exponent, then decides
/// integrality on the digits alone.
fn read_literal_integer(text: &str) -> IntegerReading {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], parse_exponent(&rest[at + 1..])),
        None => (rest, 0),
    };
    let (int_digits, frac_digits) = match mantissa.find('.') {
        Some(at) => (&mantissa[..at], &mantissa[at + 1..]),
        None => (mantissa, ""),
    };
    let plain = frac_digits.is_empty() && exponent == 0 && !rest.contains(['e', 'E']);
    // value = digits * 10^(exponent - frac_digits.len())
    let scale = exponent.saturating_sub(frac_digits.len() as i64);
    let digits = int_digits.bytes().chain(frac_digits.bytes());
    let total = int_digits.len() + frac_digits.len();
    let keep = if scale >= 0 {
        total
    } else {
        let drop = scale.unsigned_abs().min(total as u64) as usize;
        let dropped_all_zero = int_digits
            .bytes()
            .chain(frac_digits.bytes())
            .skip(total - drop)
            .all(|b| b == b'0');
        if !dropped_all_zero {
            return IntegerReading::Fractional;
        }
        total - drop
    };
    let mut value: i128 = 0;
    for b in digits.take(keep) {
        value = match value
            .checked_mul(10)
            .and_then(|v| v.checked_add(i128::from(b - b'0')))
        {
            Some(v) => v,
            None => return IntegerReading::TooLarge,
        };
    }
    if scale > 0 && value != 0 {
        for _ in 0..scale.min(64) {
            value = match value.checked_mul(10) {
                Some(v) => v,
                None => return IntegerReading::TooLarge,
            };
        }
    }
    let value = if negative { -value } else { value };
    if plain {
        IntegerReading::Exact(value)
    } else {
        IntegerReading::Integral(value)
    }
}

fn parse_exponent(text: &str) -> i64 {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let magnitude = digits.bytes().fold(0i64, |acc, b| {
        acc.saturating_mul(10).saturating_add(i64::from(b - b'0'))
    });
    if negative {
        -magnitude
    } else {
        magnitude
    }
}

impl<'a> Node<'a> {
    /// The JSON type name used in messages: `null`, `boolean`, `number`, `string`, `array`, `object`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Node::Null => "null",
            Node::Bool(_) => "boolean",
            Node::Number(_) => "number",
            Node::String(_) => "string",
            Node::Array(_) => "array",
            Node::Object(_) => "object",
        }
    }

    /// Borrows a decoded `serde_json` value as a node, refusing nesting deeper than `max_depth`.
    pub fn from_value(value: &'a Value, max_depth: usize) -> Result<Node<'a>, TooDeep> {
        Ok(match value {
            Value::Null => Node::Null,
            Value::Bool(b) => Node::Bool(*b),
            Value::Number(n) => Node::Number(if let Some(v) = n.as_u64() {
                Number::U64(v)
            } else if let Some(v) = n.as_i64() {
                Number::I64(v)
            } else {
                Number::F64(n.as_f64().unwrap_or(f64::NAN))
            }),
            Value::String(s) => Node::String(Cow::Borrowed(s)),
            Value::Array(items) => {
                let depth = max_depth.checked_sub(1).ok_or(TooDeep)?;
                Node::Array(
                    items
                        .iter()
                        .map(|v| Node::from_value(v, depth))
                        .collect::<Result<_, _>>()?,
                )
            }
            Value::Object(map) => {
                let depth = max_depth.checked_sub(1).ok_or(TooDeep)?;
                Node::Object(
                    map.iter()
                        .map(|(k, v)| Ok((Cow::Borrowed(k.as_str()), Node::from_value(v, depth)?)))
                        .collect::<Result<_, _>>()?,
                )
            }
        })
    }

    /// Copies the node into an owned `serde_json` value. Numbers are copied as
    /// [`Number::to_value`] does: a number no `serde_json::Number` holds exactly becomes the
    /// nearest float. [`coerce_any`](crate::coerce::any::coerce_any) refuses such a number
    /// instead.
    pub fn to_value(&self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(*b),
            Node::Number(n) => n.to_value(),
            Node::String(s) => Value::String(s.as_ref().to_owned()),
            Node::Array(items) => Value::Array(items.iter().map(Node::to_value).collect()),
            Node::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.as_ref().to_owned(), v.to_value()))
                    .collect::<Map<_, _>>(),
            ),
        }
    }

    /// The node as compact JSON text that means exactly what was read: a number literal keeps
    /// its digits (where [`Node::to_value`] may round), strings are escaped as `serde_json`
    /// escapes them, and members keep their order.
    ///
    /// ```
    /// let node = toolargs_core::decode::parse_document(r#"{ "n" : 1e400, "s": "a\u00e9" }"#, 8)
    ///     .unwrap();
    /// assert_eq!(node.to_json(), r#"{"n":1e400,"s":"aé"}"#);
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    fn write_json(&self, out: &mut String) {
        match self {
            Node::Null => out.push_str("null"),
            Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Node::Number(Number::Literal(text)) => out.push_str(text),
            Node::Number(n) => out.push_str(&n.to_value().to_string()),
            Node::String(s) => out.push_str(&Value::from(s.as_ref()).to_string()),
            Node::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write_json(out);
                }
                out.push(']');
            }
            Node::Object(members) => {
                out.push('{');
                for (i, (key, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&Value::from(key.as_ref()).to_string());
                    out.push(':');
                    value.write_json(out);
                }
                out.push('}');
            }
        }
    }

    /// A short, human-readable description of the value for messages, bounded in size
    /// whatever the input: `the string "19.99"`, `the number 19.99`, `an array of 3 items`.
    pub fn describe(&self) -> String {
        let mut text = String::with_capacity(self.description_room());
        self.push_description(&mut text);
        text
    }

    /// Appends [`Node::describe`] to `out`.
    pub(crate) fn push_description(&self, out: &mut String) {
        use std::fmt::Write as _;
        match self {
            Node::Null => out.push_str("null"),
            Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Node::Number(n) => {
                out.push_str("the number ");
                push_preview_number(out, n);
            }
            Node::String(s) => {
                out.push_str("the string ");
                push_preview(out, s);
            }
            Node::Array(items) => match items.len() {
                1 => out.push_str("an array of 1 item"),
                n => {
                    let _ = write!(out, "an array of {n} items");
                }
            },
            Node::Object(members) => match members.len() {
                1 => out.push_str("an object with 1 key"),
                n => {
                    let _ = write!(out, "an object with {n} keys");
                }
            },
        }
    }

    /// Room for the description, enough in all but rare cases (escapes in a preview).
    fn description_room(&self) -> usize {
        match self {
            Node::String(s) => s.len().min(4 * PREVIEW_CHARS) + 16,
            Node::Number(Number::Literal(text)) => text.len().min(4 * PREVIEW_CHARS) + 16,
            _ => 32,
        }
    }
}

/// A message made of `before`, the description of `node` and `after`, in one allocation:
/// most error messages are written this way.
pub(crate) fn described(before: &[&str], node: &Node<'_>, after: &str) -> String {
    let room = before.iter().map(|part| part.len()).sum::<usize>() + after.len();
    let mut message = String::with_capacity(room + node.description_room());
    for part in before {
        message.push_str(part);
    }
    node.push_description(&mut message);
    message.push_str(after);
    message
}

/// Nesting went past the configured depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooDeep;

fn push_preview_number(out: &mut String, n: &Number<'_>) {
    let owned;
    let text = match n {
        Number::Literal(text) => *text,
        other => {
            owned = other.to_value().to_string();
            owned.as_str()
        }
    };
    match text.char_indices().nth(PREVIEW_CHARS) {
        Some((at, _)) => {
            out.push_str(&text[..at]);
            out.push('…');
        }
        None => out.push_str(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(text: &str) -> IntegerReading {
        Number::Literal(text).integer()
    }

    #[test]
    fn integer_readings_follow_the_decimal_digits() {
        assert_eq!(lit("1999"), IntegerReading::Exact(1999));
        assert_eq!(lit("-0"), IntegerReading::Exact(0));
        assert_eq!(lit("1999.0"), IntegerReading::Integral(1999));
        assert_eq!(lit("1.999e3"), IntegerReading::Integral(1999));
        assert_eq!(lit("1e3"), IntegerReading::Integral(1000));
        assert_eq!(lit("1E+3"), IntegerReading::Integral(1000));
        assert_eq!(lit("19990e-1"), IntegerReading::Integral(1999));
        assert_eq!(lit("-1.5e1"), IntegerReading::Integral(-15));
        assert_eq!(lit("0e0"), IntegerReading::Integral(0));
        assert_eq!(lit("19.99"), IntegerReading::Fractional);
        assert_eq!(lit("1999.0000000000000001"), IntegerReading::Fractional);
        assert_eq!(lit("1e-400"), IntegerReading::Fractional);
        assert_eq!(
            lit("0.0e-99999999999999999999"),
            IntegerReading::Integral(0)
        );
        assert_eq!(lit("1e400"), IntegerReading::TooLarge);
        assert_eq!(
            lit("99999999999999999999999999999999999999999"),
            IntegerReading::TooLarge
        );
        assert_eq!(lit("0e99999999999"), IntegerReading::Integral(0));
    }
}
