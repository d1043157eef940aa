//! Exact decimal numbers: the arithmetic of canonical forms. Amounts, unit factors and rates
//! are decimals, so `0.1 + 0.2`-style drift never decides whether two values are the same.
//!
//! A value is an integer coefficient, held and computed by `rust_decimal`, times a power of ten
//! kept beside it. The coefficient's own scale stays 0: past 28 fractional digits rust_decimal
//! rounds a product rather than fail, and an integer cannot be rounded, so every operation here
//! is exact or has no result.

use std::fmt;

use rust_decimal::{Decimal, RoundingStrategy};
use serde_json::{Number, Value};

/// Most fractional digits kept; beyond this a value is not read (it is not an amount, a date
/// or a quantity anyone writes).
const MAX_SCALE: u32 = 36;

/// Most fractional digits of a product, before it is shifted back within [`MAX_SCALE`].
const MAX_PRODUCT_SCALE: u32 = 2 * MAX_SCALE;

/// An exact decimal, always normalized (`15.00` is `15`, `-0` is `0`), so equal values are
/// equal structurally.
///
/// What it holds, which includes every JSON number (at most 20 significant digits) within the
/// first two limits:
/// - at most 36 fractional digits (72 for a product, until it is shifted back);
/// - an integer part within `i128` (below 1.7 × 10^38);
/// - significant digits that fit rust_decimal's 96-bit coefficient: any 28 digits, and 29 up
///   to 79228162514264337593543950335.
///
/// Beyond these a number is not read ([`parse`](Self::parse) and
/// [`from_number`](Self::from_number) give `None`). Arithmetic is rust_decimal's on the
/// coefficients: a product, or a sum at the finer of its two scales, that passes 96 bits
/// before its trailing zeros are dropped has no result either.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CanonicalDecimal {
    /// An integer (scale 0) with no trailing zero, or zero.
    coefficient: Decimal,
    /// The power of ten the coefficient is multiplied by (0 for zero).
    exponent: i32,
}

impl CanonicalDecimal {
    /// Zero.
    pub const ZERO: CanonicalDecimal = CanonicalDecimal {
        coefficient: Decimal::ZERO,
        exponent: 0,
    };

    /// An integer.
    pub fn from_int(value: i64) -> CanonicalDecimal {
        // Always held: 19 digits at most.
        CanonicalDecimal::from_i128(value.into()).unwrap_or(CanonicalDecimal::ZERO)
    }

    /// An integer, when it is held (at most 29 significant digits).
    pub(crate) fn from_i128(value: i128) -> Option<CanonicalDecimal> {
        CanonicalDecimal::new(value, 0, MAX_SCALE)
    }

    /// `coefficient × 10^exponent`, normalized, or `None` beyond what is held with at most
    /// `max_scale` fractional digits.
    fn new(mut coefficient: i128, mut exponent: i64, max_scale: u32) -> Option<CanonicalDecimal> {
        if coefficient == 0 {
            return Some(CanonicalDecimal::ZERO);
        }
        while coefficient % 10 == 0 {
            coefficient /= 10;
            exponent = exponent.checked_add(1)?;
        }
        if exponent < -i64::from(max_scale)
            || (exponent > 0 && integer(coefficient, exponent).is_none())
        {
            return None;
        }
        Some(CanonicalDecimal {
            coefficient: Decimal::try_from_i128_with_scale(coefficient, 0).ok()?,
            exponent: i32::try_from(exponent).ok()?,
        })
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
        if significant.is_empty() {
            return Some(CanonicalDecimal::ZERO);
        }
        // The digits, read by rust_decimal, never through a float: more than its 96 bits hold
        // is an error, not a rounding.
        let mut coefficient = Decimal::from_str_exact(significant).ok()?.mantissa();
        if negative {
            coefficient = -coefficient;
        }
        let trailing = (all.len() - significant.len()) as i64;
        // value = significant × 10^(trailing - frac_len + exponent)
        CanonicalDecimal::new(
            coefficient,
            trailing - frac_part.len() as i64 + exponent,
            MAX_SCALE,
        )
    }

    /// The decimal a JSON number was written as. Integers are exact; a float is read from
    /// its shortest round-trip text, which is what was written unless it had superfluous
    /// digits (`15.00` reads as `15`).
    pub fn from_number(number: &Number) -> Option<CanonicalDecimal> {
        if let Some(i) = number.as_i64() {
            return CanonicalDecimal::from_i128(i.into());
        }
        if let Some(u) = number.as_u64() {
            return CanonicalDecimal::from_i128(u.into());
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
        if self == CanonicalDecimal::ZERO {
            return Some(self);
        }
        // Fractional digits are counted before an integer's zeros are dropped: `1200` shifted
        // by -37 has 37, too many.
        if i64::from(self.scale()).checked_sub(power)? > i64::from(MAX_SCALE) {
            return None;
        }
        let exponent = i64::from(self.exponent).checked_add(power)?;
        CanonicalDecimal::new(self.coefficient.mantissa(), exponent, MAX_SCALE)
    }

    /// `self × other`, exactly, or `None` on overflow.
    pub fn checked_mul(self, other: CanonicalDecimal) -> Option<CanonicalDecimal> {
        if self.scale() + other.scale() > MAX_PRODUCT_SCALE {
            return None;
        }
        let coefficient = self.coefficient.checked_mul(other.coefficient)?.mantissa();
        // Both numbers without their decimal points, integer zeros included, multiply within
        // i128: `1e30 × 0.5` is held, `1e30 × 0.1234567891` is not.
        let zeros = self.exponent.max(0) + other.exponent.max(0);
        integer(coefficient, zeros.into())?;
        let exponent = i64::from(self.exponent) + i64::from(other.exponent);
        CanonicalDecimal::new(coefficient, exponent, MAX_PRODUCT_SCALE)
    }

    /// `self + other`, exactly, or `None` on overflow.
    pub(crate) fn checked_add(self, other: CanonicalDecimal) -> Option<CanonicalDecimal> {
        if self.scale().max(other.scale()) > MAX_SCALE {
            return None;
        }
        // Zero's exponent is 0, which would align `1e30` to 31 digits.
        if other == CanonicalDecimal::ZERO {
            return Some(self);
        }
        if self == CanonicalDecimal::ZERO {
            return Some(other);
        }
        // Both coefficients at the smaller exponent, where each is an integer.
        let exponent = self.exponent.min(other.exponent);
        let aligned = |d: CanonicalDecimal| {
            let up = u32::try_from(d.exponent - exponent).ok()?;
            let factor = Decimal::try_from_i128_with_scale(10i128.checked_pow(up)?, 0).ok()?;
            d.coefficient.checked_mul(factor)
        };
        let sum = aligned(self)?.checked_add(aligned(other)?)?;
        CanonicalDecimal::new(sum.mantissa(), exponent.into(), MAX_SCALE)
    }

    /// True for a whole number.
    pub fn is_integer(self) -> bool {
        self.exponent >= 0
    }

    /// The number of digits after the decimal point (0 for a whole number).
    pub fn scale(self) -> u32 {
        self.exponent.min(0).unsigned_abs()
    }

    /// The value as an integer, when it is one.
    pub fn to_integer(self) -> Option<i128> {
        integer(self.coefficient.mantissa(), self.exponent.into())
    }

    /// True when below zero.
    pub fn is_negative(self) -> bool {
        self.coefficient.is_sign_negative()
    }

    /// Rounds to `scale` fractional digits, half to even (banker's rounding, as money is
    /// rounded at conversion).
    pub fn round_half_even(self, scale: u32) -> CanonicalDecimal {
        let kept = -i64::from(scale);
        let dropped = match u32::try_from(kept - i64::from(self.exponent)) {
            Ok(dropped) if dropped > 0 => dropped,
            _ => return self,
        };
        let coefficient = self.coefficient.mantissa();
        let rounded = match Decimal::try_from_i128_with_scale(coefficient, dropped) {
            Ok(fraction) => {
                let r = fraction.round_dp_with_strategy(0, RoundingStrategy::MidpointNearestEven);
                r.mantissa()
            }
            // Past rust_decimal's 28 digits the coefficient (below 2^96, about 7.9 × 10^28) is
            // under 0.8 of a unit of the last place kept: one unit when over half, else none.
            Err(_) if dropped == 29 && coefficient.abs() > 5 * 10i128.pow(28) => {
                coefficient.signum()
            }
            Err(_) => 0,
        };
        // Fewer digits than `self` had: always held.
        CanonicalDecimal::new(rounded, kept, MAX_PRODUCT_SCALE).unwrap_or(CanonicalDecimal::ZERO)
    }

    /// An approximation, for ratios in messages only; comparisons stay exact.
    pub fn to_f64(self) -> f64 {
        let (mantissa, scale) = self.mantissa_scale();
        mantissa as f64 / 10f64.powi(scale as i32)
    }

    /// The value as `mantissa × 10^-scale`, an i128 mantissa with no trailing zero in a
    /// fraction: every value held has one (its integer part is within i128).
    fn mantissa_scale(self) -> (i128, u32) {
        match self.to_integer() {
            Some(integer) => (integer, 0),
            None => (self.coefficient.mantissa(), self.scale()),
        }
    }
}

/// `coefficient × 10^exponent`, when it is an integer within i128.
fn integer(coefficient: i128, exponent: i64) -> Option<i128> {
    10i128
        .checked_pow(u32::try_from(exponent).ok()?)?
        .checked_mul(coefficient)
}

impl fmt::Display for CanonicalDecimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mantissa, scale) = self.mantissa_scale();
        let digits = mantissa.unsigned_abs().to_string();
        let sign = if mantissa < 0 { "-" } else { "" };
        let scale = scale as usize;
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

/// As `mantissa × 10^-scale`.
impl fmt::Debug for CanonicalDecimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mantissa, scale) = self.mantissa_scale();
        f.debug_struct("CanonicalDecimal")
            .field("mantissa", &mantissa)
            .field("scale", &scale)
            .finish()
    }
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
    }

    #[test]
    fn what_is_held_at_the_edges() {
        // Exponents of six digits at most; values within i128 and 36 fractional digits.
        assert_eq!(CanonicalDecimal::parse("1e1000000"), None);
        assert_eq!(CanonicalDecimal::parse("1e999999"), None);
        assert_eq!(
            CanonicalDecimal::parse("0e999999"),
            Some(CanonicalDecimal::ZERO)
        );
        assert_eq!(CanonicalDecimal::parse("0e1000000"), None);
        assert_eq!(d("1e38").to_string(), format!("1{}", "0".repeat(38)));
        assert_eq!(d("-1.7e38").to_integer(), Some(-17 * 10i128.pow(37)));
        assert_eq!(CanonicalDecimal::parse("1.8e38"), None);
        assert_eq!(d("1e-36").to_string(), format!("0.{}1", "0".repeat(35)));
        assert_eq!(CanonicalDecimal::parse("1e-37"), None);
        assert_eq!(
            CanonicalDecimal::parse("0.0000000000000000000000000000000000001"),
            None
        );
        // Past the 28 fractional digits and the 7.9 × 10^28 of rust_decimal's own scale.
        assert_eq!(d("1e-30").scale(), 30);
        assert_eq!(d("1e-30").to_string(), "0.000000000000000000000000000001");
        assert_eq!(d("1e30").to_string(), "1000000000000000000000000000000");
        assert!(d("1e30").is_integer());
        assert_eq!(
            d("1e-30").to_f64(),
            9.999999999999999e-31,
            "as approximate as ever"
        );
        // Negative zero is zero.
        for zero in ["-0", "-0.0", "-0e5", "+0.000", "0e-999999", "-000.000e-3"] {
            assert_eq!(d(zero), CanonicalDecimal::ZERO, "{zero}");
            assert!(!d(zero).is_negative(), "{zero}");
            assert_eq!(d(zero).to_string(), "0", "{zero}");
        }
        // 28 and 29 significant digits.
        for digits in [
            "0.1234567890123456789012345678",
            "79228162514264337593543950335",
            "-7.9228162514264337593543950335",
        ] {
            assert_eq!(d(digits).to_string(), digits);
        }
        assert_eq!(
            d("1234567890123456789012345678e-28").to_string(),
            "0.1234567890123456789012345678"
        );
        assert_eq!(CanonicalDecimal::parse(&"9".repeat(39)), None);
    }

    #[test]
    fn past_96_bits_of_significant_digits_nothing_is_read() {
        for text in [
            "79228162514264337593543950336",
            "7.9228162514264337593543950336",
            "-123456789012345678901234567891",
            "9234567890123456789012345678.9e5",
            "12345678901234567890123456789012345678",
        ] {
            assert_eq!(CanonicalDecimal::parse(text), None, "{text}");
        }
        // Zeros are not significant: 38 digits, 29 of them significant.
        let long = "79228162514264337593543950335000000000";
        assert_eq!(d(long).to_string(), long);
        assert_eq!(CanonicalDecimal::from_i128(10i128.pow(37)), Some(d("1e37")));
        assert_eq!(CanonicalDecimal::from_i128(10i128.pow(37) + 1), None);
        assert_eq!(
            CanonicalDecimal::from_int(i64::MIN).to_string(),
            "-9223372036854775808"
        );
        // Arithmetic past 96 bits has no result.
        let (a, b) = (d("9999999999999999"), d("99999999999999"));
        assert_eq!(a.checked_mul(b), None);
        assert_eq!(d("86400").checked_add(d("1e-36")), None);
        assert_eq!(
            d("86400").checked_add(d("1e-20")),
            Some(d("86400.00000000000000000001"))
        );
        assert_eq!(d("0.1").checked_add(d("0.2")), Some(d("0.3")));
        assert_eq!(
            d("1e30").checked_add(CanonicalDecimal::ZERO),
            Some(d("1e30"))
        );
        assert_eq!(d("1e30").checked_mul(d("0.5")), Some(d("5e29")));
        assert_eq!(d("1e30").checked_mul(d("0.1234567891")), None);
        assert_eq!(d("5").shift(i64::MIN), None);
        assert_eq!(d("1200").shift(-37), None);
    }

    #[test]
    fn json_numbers_past_28_digits_of_scale() {
        let v: Value = serde_json::from_str(
            "[1e-30, 1e30, 2.5e-35, 2.5e-36, 1.7e38, 1.8e38, 1e-37, -0.0, 18446744073709551615, \
             -9223372036854775808, 1.7976931348623157e308, 5e-324, 0.1, 123456789.123456789]",
        )
        .unwrap();
        let got: Vec<Option<String>> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|n| CanonicalDecimal::from_value(n).map(|d| d.to_string()))
            .collect();
        let want = [
            Some("0.000000000000000000000000000001".to_owned()),
            Some(format!("1{}", "0".repeat(30))),
            Some(format!("0.{}25", "0".repeat(34))),
            None,
            Some(format!("17{}", "0".repeat(37))),
            None,
            None,
            Some("0".to_owned()),
            Some("18446744073709551615".to_owned()),
            Some("-9223372036854775808".to_owned()),
            None,
            None,
            Some("0.1".to_owned()),
            Some("123456789.12345679".to_owned()),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn products_and_rounding_stay_exact_past_28_digits() {
        let tiny = d("1e-18");
        assert_eq!(tiny.checked_mul(tiny), Some(d("1e-36")));
        let smallest = d("1e-36");
        let square = smallest.checked_mul(smallest);
        assert_eq!(square.map(CanonicalDecimal::scale), Some(72));
        assert_eq!(square.and_then(|p| p.checked_mul(d("0.1"))), None);
        assert_eq!(
            square.and_then(|p| p.shift(0)),
            None,
            "36 fractional digits past a product"
        );
        assert_eq!(square.and_then(|p| p.shift(36)), Some(smallest));
        assert_eq!(d("1e20").checked_mul(d("1e20")), None, "beyond i128");
        assert_eq!(d("1e19").checked_mul(d("1e19")), Some(d("1e38")));
        assert_eq!(d("1e-30").checked_mul(d("1e30")), Some(d("1")));
        assert_eq!(d("-0.5").checked_mul(d("0.2")), Some(d("-0.1")));
        assert_eq!(d("0").checked_mul(d("1e-36")), Some(CanonicalDecimal::ZERO));
        assert_eq!(d("1e-30").shift(-6), Some(d("1e-36")));
        assert_eq!(d("1e-30").shift(-7), None);
        assert_eq!(d("1").shift(38), Some(d("1e38")));
        assert_eq!(d("2").shift(38), None);
        assert_eq!(d("1").shift(i64::MAX), None);
        // Half to even, whatever the number of digits dropped.
        assert_eq!(d("0.5").round_half_even(0), CanonicalDecimal::ZERO);
        assert_eq!(d("1.5").round_half_even(0), d("2"));
        assert_eq!(
            d("0.50000000000000000000000000001").round_half_even(0),
            d("1")
        );
        assert_eq!(
            d("-0.50000000000000000000000000001").round_half_even(0),
            d("-1")
        );
        assert_eq!(
            d("0.79228162514264337593543950335").round_half_even(0),
            d("1")
        );
        assert_eq!(
            d("0.49999999999999999999999999999").round_half_even(0),
            CanonicalDecimal::ZERO
        );
        assert_eq!(d("5e-29").round_half_even(0), CanonicalDecimal::ZERO);
        assert_eq!(d("9e-36").round_half_even(0), CanonicalDecimal::ZERO);
        assert_eq!(d("9e-36").round_half_even(35), d("1e-35"));
        assert_eq!(d("2.5e-30").round_half_even(30), d("2e-30"));
        assert_eq!(d("3.5e-30").round_half_even(30), d("4e-30"));
        assert_eq!(d("1e30").round_half_even(0), d("1e30"));
        assert_eq!(d("-1.25").round_half_even(1), d("-1.2"));
    }
}
