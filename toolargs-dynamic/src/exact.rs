//! Exact arithmetic for the keywords that compare numbers: bounds, `multipleOf`, and JSON
//! equality for `enum`/`const`/`uniqueItems`. Numbers are read from their decimal digits, never
//! through a float, so `0.3` is a multiple of `0.1` and `9007199254740993` is not
//! `9007199254740992`.

use std::cmp::Ordering;

use serde_json::Value;
use toolargs_core::internal::text::same_text;
use toolargs_core::node::{IntegerReading, Node, Number};

/// A number as sign, significant digits and a power of ten: `digits × 10^exponent`. Zero has
/// no digits. Built from JSON number text, which every number in a schema or payload is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Decimal {
    negative: bool,
    /// ASCII digits without leading or trailing zeros.
    digits: Vec<u8>,
    exponent: i64,
}

impl Decimal {
    /// Reads JSON number text (`-12.5e3`); `None` for anything else.
    pub fn parse(text: &str) -> Option<Decimal> {
        let (negative, rest) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (mantissa, exponent) = match rest.find(['e', 'E']) {
            Some(at) => (&rest[..at], rest[at + 1..].parse::<i64>().ok()?),
            None => (rest, 0),
        };
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if whole.is_empty() || !(whole.bytes().chain(fraction.bytes())).all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let mut digits: Vec<u8> = whole.bytes().chain(fraction.bytes()).collect();
        let mut exponent = exponent.checked_sub(i64::try_from(fraction.len()).ok()?)?;
        let leading = digits.iter().take_while(|&&d| d == b'0').count();
        digits.drain(..leading);
        while digits.last() == Some(&b'0') {
            digits.pop();
            exponent = exponent.checked_add(1)?;
        }
        if digits.is_empty() {
            exponent = 0;
        }
        Some(Decimal {
            negative: negative && !digits.is_empty(),
            digits,
            exponent,
        })
    }

    /// The number a JSON value holds, read from its shortest exact text.
    pub fn of(number: &serde_json::Number) -> Decimal {
        // serde_json writes floats in their shortest round-trip form, which is the float.
        Decimal::parse(&number.to_string()).unwrap_or(Decimal {
            negative: false,
            digits: Vec::new(),
            exponent: 0,
        })
    }

    /// The number as a double, when it has at most 15 significant digits (so that distinct
    /// such numbers are distinct doubles, in the same order).
    pub fn to_short_f64(&self) -> Option<f64> {
        (self.digits.len() <= 15).then(|| self.to_string().parse().ok())?
    }

    /// The number as an `i128`, when it is an integer that fits.
    pub fn to_i128(&self) -> Option<i128> {
        if self.exponent < 0 || self.digits.len() as i64 + self.exponent > 38 {
            return None;
        }
        let mut value: i128 = 0;
        for &d in &self.digits {
            value = value.checked_mul(10)?.checked_add(i128::from(d - b'0'))?;
        }
        for _ in 0..self.exponent {
            value = value.checked_mul(10)?;
        }
        Some(if self.negative { -value } else { value })
    }

    fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// Position of the leading digit: `digits.len() + exponent`, the order of magnitude.
    fn magnitude(&self) -> i128 {
        self.digits.len() as i128 + i128::from(self.exponent)
    }

    fn cmp_abs(&self, other: &Decimal) -> Ordering {
        match (self.is_zero(), other.is_zero()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        self.magnitude()
            .cmp(&other.magnitude())
            // Same magnitude: the digit strings compare left-aligned; a longer one with the
            // same prefix is larger because it has no trailing zeros.
            .then_with(|| self.digits.cmp(&other.digits))
    }

    /// Whether `self` is an integer multiple of `divisor` (which is not zero). `None` when the
    /// divisor has more significant digits than this exact check handles (then loading
    /// refuses the keyword).
    pub fn is_multiple_of(&self, divisor: &Decimal) -> Option<bool> {
        if self.is_zero() {
            return Some(true);
        }
        // self = a·10^p, divisor = b·10^q. With e = min(p, q): a·10^(p−e) mod b·10^(q−e).
        let modulus = small_integer(&divisor.digits)?;
        let shift_divisor = divisor.exponent.saturating_sub(self.exponent).max(0);
        let shift_self = self.exponent.saturating_sub(divisor.exponent).max(0);
        // b·10^(q−e) with q−e > 0 means a·10^(p−e) = a must be divisible by b·10^k: it has no
        // trailing zeros, so k must be 0 unless a is a multiple of 10, which it is not.
        if shift_divisor > 0 {
            return Some(false);
        }
        let mut remainder: u128 = 0;
        for &d in &self.digits {
            remainder = (remainder * 10 + u128::from(d - b'0')) % modulus;
        }
        Some(remainder * pow10_mod(shift_self, modulus) % modulus == 0)
    }
}

/// Plain decimal notation while it stays short, scientific beyond.
impl std::fmt::Display for Decimal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.digits.is_empty() {
            return f.write_str("0");
        }
        let digits = std::str::from_utf8(&self.digits).unwrap_or("0");
        let sign = if self.negative { "-" } else { "" };
        let len = self.digits.len() as i64;
        match self.exponent {
            e if (0..=20).contains(&e) => write!(f, "{sign}{digits}{}", "0".repeat(e as usize)),
            e if e < 0 && -e < len => {
                let at = (len + e) as usize;
                write!(f, "{sign}{}.{}", &digits[..at], &digits[at..])
            }
            e if e < 0 && -e - len <= 6 => {
                write!(f, "{sign}0.{}{digits}", "0".repeat((-e - len) as usize))
            }
            e => {
                let (head, tail) = digits.split_at(1);
                let dot = if tail.is_empty() { "" } else { "." };
                write!(f, "{sign}{head}{dot}{tail}e{}", e + len - 1)
            }
        }
    }
}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Decimal) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Decimal {
    fn cmp(&self, other: &Decimal) -> Ordering {
        match (self.negative, other.negative) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.cmp_abs(other),
            (true, true) => other.cmp_abs(self),
        }
    }
}

/// Divisors up to 18 significant digits keep every product below 2^128.
fn small_integer(digits: &[u8]) -> Option<u128> {
    if digits.len() > 18 {
        return None;
    }
    Some(
        digits
            .iter()
            .fold(0u128, |acc, &d| acc * 10 + u128::from(d - b'0')),
    )
}

/// 10^k mod m by squaring, so `1e308` against `0.5` costs a few dozen steps.
fn pow10_mod(mut k: i64, m: u128) -> u128 {
    let mut result = 1 % m;
    let mut base = 10 % m;
    while k > 0 {
        if k & 1 == 1 {
            result = result * base % m;
        }
        base = base * base % m;
        k >>= 1;
    }
    result
}

/// JSON equality: numbers by mathematical value (`1` equals `1.0`), objects regardless of key
/// order, at any depth.
pub(crate) fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(x), Some(y), _, _) => x == y,
                (_, _, Some(x), Some(y)) => x == y,
                _ => Decimal::of(x) == Decimal::of(y),
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

/// Whether `node` equals one of the values of an `enum`, by JSON equality. A string, the
/// usual case, is compared with the strings alone, inline.
pub(crate) fn listed(node: &Node<'_>, allowed: &[Value]) -> bool {
    match node {
        Node::String(text) => allowed
            .iter()
            .any(|value| matches!(value, Value::String(listed) if same_text(text, listed))),
        _ => allowed.iter().any(|value| node_equal(node, value)),
    }
}

/// JSON equality between a payload node and a value, without building the node's value.
pub(crate) fn node_equal(node: &Node<'_>, value: &Value) -> bool {
    match (node, value) {
        (Node::Null, Value::Null) => true,
        (Node::Bool(a), Value::Bool(b)) => a == b,
        (Node::String(a), Value::String(b)) => same_text(a, b),
        (Node::Number(n), Value::Number(m)) => match (n.integer(), m.as_i64(), m.as_u64()) {
            (IntegerReading::Exact(a), Some(b), _) => a == i128::from(b),
            (IntegerReading::Exact(a), _, Some(b)) => a == i128::from(b),
            _ => number_decimal(n) == Decimal::of(m),
        },
        (Node::Array(items), Value::Array(values)) => {
            items.len() == values.len() && items.iter().zip(values).all(|(n, v)| node_equal(n, v))
        }
        (Node::Object(members), Value::Object(map)) => {
            members.len() == map.len()
                && members
                    .iter()
                    .all(|(k, n)| map.get(k.as_ref()).is_some_and(|v| node_equal(n, v)))
        }
        _ => false,
    }
}

/// The number a payload node holds, exactly: from its literal when it has one.
pub(crate) fn number_decimal(n: &Number<'_>) -> Decimal {
    match n {
        Number::Literal(text) => Decimal::parse(text),
        _ => None,
    }
    .unwrap_or_else(|| match n.to_value() {
        Value::Number(number) => Decimal::of(&number),
        _ => Decimal::of(&serde_json::Number::from(0)),
    })
}

#[cfg(test)]
mod tests {
    use super::{json_equal, Decimal};
    use serde_json::json;

    fn d(text: &str) -> Decimal {
        Decimal::parse(text).unwrap()
    }

    #[test]
    fn compares_by_value() {
        assert_eq!(d("1.0"), d("1"));
        assert_eq!(d("100"), d("1e2"));
        assert_eq!(d("-0.0"), d("0"));
        assert!(d("9007199254740993") > d("9007199254740992"));
        assert!(d("-2") < d("-1.5"));
        assert!(d("0.001") < d("0.01"));
        assert!(d("1.5") > d("1.49999999999999999999"));
        assert!(d("1e400") > d("1.7976931348623157e308"));
    }

    #[test]
    fn displays_plainly_while_short() {
        for (text, shown) in [
            ("1999", "1999"),
            ("0.5", "0.5"),
            ("-12.25", "-12.25"),
            ("1e2", "100"),
            ("0.001", "0.001"),
            ("1e300", "1e300"),
            ("1.5e-30", "1.5e-30"),
            ("0", "0"),
        ] {
            assert_eq!(d(text).to_string(), shown);
        }
    }

    #[test]
    fn short_numbers_read_as_doubles() {
        assert_eq!(d("0.1").to_short_f64(), Some(0.1));
        assert_eq!(d("-2.5e-3").to_short_f64(), Some(-0.0025));
        assert_eq!(d("1e300").to_short_f64(), Some(1e300));
        assert_eq!(d("0.1000000000000000001").to_short_f64(), None);
    }

    #[test]
    fn integers_fit_when_they_can() {
        assert_eq!(d("1999").to_i128(), Some(1999));
        assert_eq!(d("-2e3").to_i128(), Some(-2000));
        assert_eq!(d("0").to_i128(), Some(0));
        assert_eq!(d("1.5").to_i128(), None);
        assert_eq!(d("1e40").to_i128(), None);
    }

    #[test]
    fn multiples_are_exact() {
        assert_eq!(d("0.3").is_multiple_of(&d("0.1")), Some(true));
        assert_eq!(d("0.0075").is_multiple_of(&d("0.0001")), Some(true));
        assert_eq!(d("0.00751").is_multiple_of(&d("0.0001")), Some(false));
        assert_eq!(d("1e308").is_multiple_of(&d("0.5")), Some(true));
        assert_eq!(d("35").is_multiple_of(&d("1.5")), Some(false));
        assert_eq!(d("4.5").is_multiple_of(&d("1.5")), Some(true));
        assert_eq!(d("10").is_multiple_of(&d("20")), Some(false));
        assert_eq!(d("0").is_multiple_of(&d("7")), Some(true));
        assert_eq!(d("12").is_multiple_of(&d("1234567890123456789")), None);
    }

    #[test]
    fn json_equality_reads_numbers_by_value_at_any_depth() {
        assert!(json_equal(&json!([1.0]), &json!([1])));
        assert!(json_equal(
            &json!({"a": {"b": 2.0}}),
            &json!({"a": {"b": 2}})
        ));
        assert!(!json_equal(&json!([1, 2]), &json!([2, 1])));
        assert!(!json_equal(&json!(false), &json!(0)));
        assert!(!json_equal(&json!(1), &json!("1")));
    }
}
