//! Exact decimal numbers: the arithmetic of canonical forms. Amounts, unit factors and rates
//! are decimals, so `0.1 + 0.2`-style drift never decides whether two values are the same.

use std::cmp::Ordering;
use std::fmt;

use serde_json::{Number, Value};

/// Most fractional digits kept; beyond this a value is not read (it is not an amount, a date
/// or a quantity anyone writes).
const MAX_SCALE: u32 = 36;

/// An exact decimal: `mantissa × 10^-scale`, always normalized (no trailing zeros in the
/// mantissa of a fraction, and zero is `0`), so equal values are equal structurally.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CanonicalDecimal {
    mantissa: i128,
    scale: u32,
}

impl CanonicalDecimal {
    /// Zero.
    pub const ZERO: CanonicalDecimal = CanonicalDecimal {
        mantissa: 0,
        scale: 0,
    };

    /// An integer.
    pub const fn from_int(value: i128) -> CanonicalDecimal {
        CanonicalDecimal {
            mantissa: value,
            scale: 0,
        }
    }

    fn new(mut mantissa: i128, mut scale: u32) -> CanonicalDecimal {
        if mantissa == 0 {
            return CanonicalDecimal::ZERO;
        }
        while scale > 0 && mantissa % 10 == 0 {
            mantissa /= 10;
            scale -= 1;
        }
        CanonicalDecimal { mantissa, scale }
    }

    /// Parses `[+-]digits[.digits][(e|E)[+-]digits]` in ASCII, as JSON numbers and plain
    /// decimal strings are written. `None` for anything else, or beyond what can be held
    /// exactly.
    pub fn parse(text: &str) -> Option<CanonicalDecimal> {
        let (negative, body) = match text.as_bytes().first()? {
            b'-' => (true, &text[1..]),
            b'+' => (false, &text[1..]),
            _ => (false, text),
        };
        let (number, exponent) = match body.find(['e', 'E']) {
            Some(at) => (&body[..at], Some(&body[at + 1..])),
            None => (body, None),
        };
        let (int_part, frac_part) = match number.split_once('.') {
            Some((i, f)) => (i, f),
            None => (number, ""),
        };
        let digits_ok = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if int_part.is_empty() && frac_part.is_empty()
            || !digits_ok(int_part)
            || !digits_ok(frac_part)
            || (number.contains('.') && (int_part.is_empty() || frac_part.is_empty()))
        {
            return None;
        }
        let exponent: i64 = match exponent {
            None => 0,
            Some(e) => {
                let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
                if digits.is_empty() || !digits_ok(digits) || digits.len() > 6 {
                    return None;
                }
                e.parse().ok()?
            }
        };
        let all = format!("{int_part}{frac_part}");
        let all = all.trim_start_matches('0');
        let significant = all.trim_end_matches('0');
        let trailing = (all.len() - significant.len()) as i64;
        if significant.is_empty() {
            return Some(CanonicalDecimal::ZERO);
        }
        if significant.len() > 38 {
            return None;
        }
        let mut mantissa: i128 = significant.parse().ok()?;
        if negative {
            mantissa = -mantissa;
        }
        // value = significant × 10^(trailing - frac_len + exponent)
        let power = trailing - frac_part.len() as i64 + exponent;
        CanonicalDecimal::from_int(mantissa).shift(power)
    }

    /// The decimal a JSON number was written as. Integers are exact; a float is read from
    /// its shortest round-trip text, which is what was written unless it had superfluous
    /// digits (`15.00` reads as `15`).
    pub fn from_number(number: &Number) -> Option<CanonicalDecimal> {
        if let Some(i) = number.as_i64() {
            return Some(CanonicalDecimal::from_int(i.into()));
        }
        if let Some(u) = number.as_u64() {
            return Some(CanonicalDecimal::from_int(u.into()));
        }
        let f = number.as_f64()?;
        if !f.is_finite() {
            return None;
        }
        CanonicalDecimal::parse(&format!("{f:e}"))
    }

    /// The decimal of a JSON value that is a number.
    pub fn from_value(value: &Value) -> Option<CanonicalDecimal> {
        match value {
            Value::Number(n) => CanonicalDecimal::from_number(n),
            _ => None,
        }
    }

    /// `self × 10^power`, or `None` when it cannot be held exactly.
    pub fn shift(self, power: i64) -> Option<CanonicalDecimal> {
        if self.mantissa == 0 {
            return Some(CanonicalDecimal::ZERO);
        }
        let scale = i64::from(self.scale) - power;
        if scale >= 0 {
            let scale = u32::try_from(scale).ok().filter(|s| *s <= MAX_SCALE)?;
            Some(CanonicalDecimal::new(self.mantissa, scale))
        } else {
            let up = u32::try_from(-scale).ok()?;
            let factor = 10i128.checked_pow(up)?;
            Some(CanonicalDecimal::new(self.mantissa.checked_mul(factor)?, 0))
        }
    }

    /// `self × other`, exactly, or `None` on overflow.
    pub fn checked_mul(self, other: CanonicalDecimal) -> Option<CanonicalDecimal> {
        let mantissa = self.mantissa.checked_mul(other.mantissa)?;
        let scale = self.scale.checked_add(other.scale)?;
        if scale > 2 * MAX_SCALE {
            return None;
        }
        Some(CanonicalDecimal::new(mantissa, scale))
    }

    /// True for a whole number.
    pub fn is_integer(self) -> bool {
        self.scale == 0
    }

    /// The number of digits after the decimal point (0 for a whole number).
    pub fn scale(self) -> u32 {
        self.scale
    }

    /// The value as an integer, when it is one.
    pub fn to_integer(self) -> Option<i128> {
        self.is_integer().then_some(self.mantissa)
    }

    /// True when below zero.
    pub fn is_negative(self) -> bool {
        self.mantissa < 0
    }

    /// Rounds to `scale` fractional digits, half to even (banker's rounding, as money is
    /// rounded at conversion).
    pub fn round_half_even(self, scale: u32) -> CanonicalDecimal {
        if self.scale <= scale {
            return self;
        }
        let drop = self.scale - scale;
        let Some(divisor) = 10i128.checked_pow(drop) else {
            return CanonicalDecimal::ZERO;
        };
        let quotient = self.mantissa / divisor;
        let remainder = (self.mantissa % divisor).abs();
        let half = divisor / 2;
        let away = match remainder.cmp(&half) {
            Ordering::Greater => true,
            Ordering::Less => false,
            Ordering::Equal => quotient % 2 != 0,
        };
        let rounded = if away {
            quotient + self.mantissa.signum()
        } else {
            quotient
        };
        CanonicalDecimal::new(rounded, scale)
    }

    /// An approximation, for ratios in messages only; comparisons stay exact.
    pub fn to_f64(self) -> f64 {
        self.mantissa as f64 / 10f64.powi(self.scale as i32)
    }
}

impl fmt::Display for CanonicalDecimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = self.mantissa.unsigned_abs().to_string();
        let sign = if self.mantissa < 0 { "-" } else { "" };
        let scale = self.scale as usize;
        if scale == 0 {
            return write!(f, "{sign}{digits}");
        }
        if digits.len() > scale {
            let (int, frac) = digits.split_at(digits.len() - scale);
            write!(f, "{sign}{int}.{frac}")
        } else {
            write!(f, "{sign}0.{}{digits}", "0".repeat(scale - digits.len()))
        }
    }
}

/// Writes `value` with exactly `places` fractional digits (`15` with 2 places is `15.00`).
pub(crate) fn with_places(value: CanonicalDecimal, places: u32) -> String {
    let text = value.to_string();
    if places == 0 {
        return text;
    }
    let have = text.split_once('.').map_or(0, |(_, f)| f.len() as u32);
    if have >= places {
        return text;
    }
    let dot = if have == 0 { "." } else { "" };
    format!("{text}{dot}{}", "0".repeat((places - have) as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> CanonicalDecimal {
        CanonicalDecimal::parse(s).unwrap_or_else(|| panic!("{s}"))
    }

    #[test]
    fn parses_and_normalizes() {
        assert_eq!(d("15.00"), d("15"));
        assert_eq!(d("1500.0"), d("1500"));
        assert_eq!(d("1.5e3"), d("1500"));
        assert_eq!(d("-0.0"), CanonicalDecimal::ZERO);
        assert_eq!(d("0.000"), CanonicalDecimal::ZERO);
        assert_eq!(d("1e-3").to_string(), "0.001");
        assert_eq!(d("+7").to_string(), "7");
        assert_eq!(d("-12.340").to_string(), "-12.34");
        assert_eq!(d("100").to_string(), "100");
        for bad in [
            "", ".5", "5.", "1,5", "1 5", "e3", "1e", "--1", "0x10", "١٢",
        ] {
            assert_eq!(CanonicalDecimal::parse(bad), None, "{bad}");
        }
        assert_eq!(CanonicalDecimal::parse("1e300"), None);
    }

    #[test]
    fn reads_json_numbers_as_written() {
        let v: Value = serde_json::from_str("[1500, 1500.0, 0.1, 19.99, 1e21, -3]").unwrap();
        let got: Vec<String> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|n| CanonicalDecimal::from_value(n).unwrap().to_string())
            .collect();
        assert_eq!(
            got,
            [
                "1500",
                "1500",
                "0.1",
                "19.99",
                "1000000000000000000000",
                "-3"
            ]
        );
    }

    #[test]
    fn multiplies_and_rounds_exactly() {
        assert_eq!(d("1.5").checked_mul(d("3600")), Some(d("5400")));
        assert_eq!(d("0.1").checked_mul(d("3")), Some(d("0.3")));
        assert_eq!(d("2.5").round_half_even(0), d("2"));
        assert_eq!(d("3.5").round_half_even(0), d("4"));
        assert_eq!(d("-2.5").round_half_even(0), d("-2"));
        assert_eq!(d("1.005").round_half_even(2), d("1"));
        assert_eq!(d("1.0051").round_half_even(2), d("1.01"));
        assert_eq!(d("12").shift(2), Some(d("1200")));
        assert_eq!(d("12.345").shift(2), Some(d("1234.5")));
        assert_eq!(with_places(d("15"), 2), "15.00");
        assert_eq!(with_places(d("15.5"), 2), "15.50");
        assert_eq!(with_places(d("15"), 0), "15");
    }
}
