//! Decimals (feature `decimal`): `rust_decimal::Decimal`, read from the number's digits, never
//! through a float, so `0.1` is one tenth and `19.99` is 1999 hundredths.
//!
//! A JSON number is taken as it is (`19.99`, `1999`, `1.999e3`); a plain decimal string is
//! repaired like any number's (`numeric_string_to_number`). A value needs at most 15
//! significant digits: that is what a JSON number carries through every client (most read
//! numbers as IEEE doubles), and what lets the canonical form be a JSON number that reads back
//! as the same decimal. More digits are `lossy_number`, as a fraction is for an integer field.

use std::borrow::Cow;
use std::str::FromStr;

use rust_decimal::Decimal;
use serde_json::Value;

use super::number::{number_schema, number_source, range_error, NumberSource};
use super::{ArgType, Capabilities};
use crate::cx::Cx;
use crate::node::{Node, Number};
use crate::path::Path;
use crate::report::{Code, Rule};
use crate::spec::{Bound, FieldSpec};

/// Significant digits a JSON number carries exactly through an IEEE double.
const MAX_DIGITS: u32 = 15;

/// The decimal a number's text names, exactly; `None` when `rust_decimal` cannot hold it.
fn exact(text: &str) -> Option<Decimal> {
    if text.contains(['e', 'E']) {
        Decimal::from_scientific(text).ok()
    } else {
        Decimal::from_str_exact(text).ok()
    }
}

/// Significant digits of `d`, trailing zeros of the fraction left out.
fn significant_digits(d: Decimal) -> u32 {
    let mantissa = d.normalize().mantissa().unsigned_abs();
    if mantissa == 0 {
        1
    } else {
        mantissa.ilog10() + 1
    }
}

/// A bound as a decimal: an integer exactly, a float by its shortest text (`0.01`, not the
/// binary value nearest to it), which is how it was written in the attribute.
fn bound(b: Bound) -> Option<Decimal> {
    match b {
        Bound::Int(i) => Decimal::try_from_i128_with_scale(i, 0).ok(),
        Bound::Float(f) => Decimal::from_str(&f.to_string()).ok(),
    }
}

impl ArgType for Decimal {
    const HONOURS: Capabilities = Capabilities::NONE.with_bounds(true);

    fn coerce(node: &Node<'_>, spec: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Self> {
        let (text, repaired): (Cow<'_, str>, bool) = match number_source(node, path, cx)? {
            NumberSource::Number(Number::Literal(text)) => (Cow::Borrowed(*text), false),
            NumberSource::Number(n) => (Cow::Owned(n.to_value().to_string()), false),
            NumberSource::DecimalString(s) => (Cow::Borrowed(s), true),
        };
        let value = match exact(&text) {
            Some(value) if significant_digits(value) <= MAX_DIGITS => value,
            _ => {
                cx.error_with(path, Code::LossyNumber, || {
                    format!(
                        "expected a decimal of at most {MAX_DIGITS} significant digits, which a \
                         JSON number carries exactly, got {}",
                        node.describe()
                    )
                });
                return None;
            }
        };
        let below = spec.min.and_then(bound).is_some_and(|min| value < min);
        let above = spec.max.and_then(bound).is_some_and(|max| value > max);
        if below || above {
            range_error(node, spec, path, cx, f64::MAX);
            return None;
        }
        if repaired
            && !cx.repair(
                path,
                spec.strict,
                Rule::NumericStringToNumber,
                node.to_value(),
                value.canonical(),
            )
        {
            return None;
        }
        Some(value)
    }

    /// A JSON number. With at most 15 significant digits, the double nearest to the decimal
    /// prints as the decimal itself, so it reads back equal (`19.90` is written `19.9`).
    fn canonical(&self) -> Value {
        let normal = self.normalize();
        if normal.scale() == 0 {
            if let Ok(whole) = i64::try_from(normal.mantissa()) {
                return Value::from(whole);
            }
        }
        normal
            .to_string()
            .parse::<f64>()
            .map_or(Value::Null, Value::from)
    }

    fn schema(spec: &FieldSpec<'_>) -> Value {
        number_schema(spec, f64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_counted_without_trailing_zeros() {
        assert_eq!(significant_digits(Decimal::from_str("19.90").unwrap()), 3);
        assert_eq!(significant_digits(Decimal::from_str("0.001").unwrap()), 1);
        assert_eq!(significant_digits(Decimal::from_str("0").unwrap()), 1);
        assert_eq!(
            significant_digits(Decimal::from_str("123456789012345.6").unwrap()),
            16
        );
    }

    #[test]
    fn exact_reads_every_json_number_spelling() {
        assert_eq!(exact("1.999e3"), Decimal::from_str("1999").ok());
        assert_eq!(exact("-0.5E-1"), Decimal::from_str("-0.05").ok());
        assert_eq!(exact("0.1"), Decimal::from_str("0.1").ok());
        assert_eq!(exact("1e400"), None);
    }

    #[test]
    fn canonical_numbers_read_back_equal() {
        for text in [
            "19.99",
            "0.1",
            "-0.05",
            "123456789012345",
            "0.000000000000001",
            "1999",
        ] {
            let d = Decimal::from_str(text).unwrap();
            let json = d.canonical().to_string();
            assert_eq!(exact(&json), Some(d), "{text} -> {json}");
        }
    }
}
