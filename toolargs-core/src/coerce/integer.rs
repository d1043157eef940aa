//! Integers: `"1999"` and `1999.0` are repaired; `"19.99"`, `"1,999"`, `" 1999"`, `19.99` and
//! `true` are rejected, because each has more than one reading. Every integer type's own range
//! is an implicit bound.

use serde_json::{json, Value};

use super::{put, type_error, ArgType, Capabilities};
use crate::cx::Cx;
use crate::node::described;
use crate::node::{IntegerReading, Node, Number};
use crate::path::Path;
use crate::report::{Code, Rule};
use crate::spec::{Bound, FieldSpec};
use crate::text::int_value;

/// Reads an integer within `type_range` and the field's bounds.
pub fn coerce_integer(
    node: &Node<'_>,
    spec: &FieldSpec<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
    type_range: (i128, i128),
) -> Option<i128> {
    let (value, rule) = match node {
        Node::Number(n) => match n.integer() {
            IntegerReading::Exact(v) => (Some(v), None),
            IntegerReading::Integral(v) => (Some(v), Some(Rule::IntegralFloatToInt)),
            IntegerReading::TooLarge => (None, None),
            IntegerReading::Fractional => {
                cx.error_with(path, Code::LossyNumber, || {
                    described(
                        &["expected an integer, got "],
                        node,
                        ", which has a fractional part",
                    )
                });
                return None;
            }
        },
        Node::String(s) => {
            if !is_plain_integer(s) {
                cx.error_with(path, Code::AmbiguousInteger, || {
                    described(
                        &["expected an integer, got "],
                        node,
                        ", which is not a plain base-10 integer; send a JSON number such as 1999",
                    )
                });
                return None;
            }
            // Plain digits that overflow i128 are certainly out of any supported range.
            (s.parse::<i128>().ok(), Some(Rule::NumericStringToInt))
        }
        other => {
            type_error(cx, path, "an integer", other);
            return None;
        }
    };
    let (low, high) = effective_range(spec, type_range);
    let Some(value) = value.filter(|v| (low..=high).contains(v)) else {
        cx.error_with(path, Code::OutOfRange, || {
            described(
                &[
                    "expected ",
                    &describe_range(low, high, type_range),
                    ", got ",
                ],
                node,
                "",
            )
        });
        return None;
    };
    match rule {
        Some(rule) => cx
            .repair(path, spec.strict, rule, node.to_value(), int_value(value))
            .then_some(value),
        None => Some(value),
    }
}

/// Whether a JSON number is an integer as sent: one [`coerce_integer`] reads with no repair,
/// written without a fraction or an exponent. `1999.0` and `1e3` are read as integers only as
/// a repair (`integral_float_to_int`).
#[inline]
pub fn is_integer_as_sent(n: &Number<'_>) -> bool {
    matches!(n.integer(), IntegerReading::Exact(_))
}

/// Whether a repair of `rule` hands over the number that was sent, only written as an integer
/// is: `integral_float_to_int` (`1999.0` as `1999`). JSON Schema counts `1999.0` an integer,
/// so a value with no other repair is, to a schema, the value as sent.
#[inline]
pub fn same_number(rule: Rule) -> bool {
    rule == Rule::IntegralFloatToInt
}

/// ASCII digits with an optional leading `-` and no leading zero: the only strings with one
/// integer reading.
pub(crate) fn is_plain_integer(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s).as_bytes();
    match digits {
        [] => false,
        [b'0'] => true,
        [b'0', ..] => false,
        _ => digits.iter().all(u8::is_ascii_digit),
    }
}

/// The tighter of the declared bounds and the Rust type's range.
fn effective_range(spec: &FieldSpec<'_>, (type_low, type_high): (i128, i128)) -> (i128, i128) {
    let low = match spec.min {
        Some(Bound::Int(v)) => v.max(type_low),
        Some(Bound::Float(v)) => float_bound(v.ceil(), type_low, type_high).max(type_low),
        None => type_low,
    };
    let high = match spec.max {
        Some(Bound::Int(v)) => v.min(type_high),
        Some(Bound::Float(v)) => float_bound(v.floor(), type_low, type_high).min(type_high),
        None => type_high,
    };
    (low, high)
}

fn float_bound(v: f64, low: i128, high: i128) -> i128 {
    if v.is_nan() || v <= low as f64 {
        low
    } else if v >= high as f64 {
        high
    } else {
        v as i128
    }
}

fn describe_range(low: i128, high: i128, (type_low, type_high): (i128, i128)) -> String {
    match (low > type_low, high < type_high) {
        (_, _) if low > high => "no integer (the bounds exclude every value)".to_owned(),
        (true, true) | (false, false) => format!("an integer from {low} to {high}"),
        (true, false) => format!("an integer of at least {low}"),
        (false, true) => format!("an integer of at most {high}"),
    }
}

/// The JSON Schema of an integer field; the type's range is stated when narrower than 64 bits.
pub fn integer_schema(spec: &FieldSpec<'_>, type_range: (i128, i128)) -> Value {
    let (low, high) = effective_range(spec, type_range);
    let mut schema = json!({"type": "integer"});
    let states_low = spec.min.is_some() || low > i128::from(i64::MIN);
    let states_high = spec.max.is_some() || high < i128::from(i64::MAX);
    put(&mut schema, "minimum", states_low.then(|| int_value(low)));
    put(&mut schema, "maximum", states_high.then(|| int_value(high)));
    schema
}

macro_rules! integer_types {
    ($($t:ty),*) => {$(
        impl ArgType for $t {
            const HONOURS: Capabilities = Capabilities::NONE.with_bounds(true);
            fn coerce(node: &Node<'_>, spec: &FieldSpec<'_>, path: &Path<'_>, cx: &mut Cx) -> Option<Self> {
                let value = coerce_integer(node, spec, path, cx, (<$t>::MIN as i128, <$t>::MAX as i128))?;
                // In range by construction; the fallback keeps this panic-free regardless.
                <$t>::try_from(value).ok()
            }

            fn canonical(&self) -> Value {
                Value::from(*self)
            }

            fn schema(spec: &FieldSpec<'_>) -> Value {
                integer_schema(spec, (<$t>::MIN as i128, <$t>::MAX as i128))
            }
        }
    )*};
}

integer_types!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

#[cfg(test)]
mod tests {
    use super::{coerce_integer, is_integer_as_sent, is_plain_integer, same_number};
    use crate::cx::Cx;
    use crate::node::{Node, Number};
    use crate::path::Path;
    use crate::spec::{FieldSpec, UnknownPolicy};

    #[test]
    fn an_integer_as_sent_is_one_the_coercer_reads_without_a_repair() {
        for text in [
            "1999",
            "-0",
            "0",
            "1999.0",
            "1e3",
            "1.999e3",
            "19.99",
            "1e400",
            "-1.5e1",
            "123456789012345678901234567890",
        ] {
            let node = Node::Number(Number::Literal(text));
            let mut cx = Cx::new(UnknownPolicy::Reject);
            let read = coerce_integer(
                &node,
                &FieldSpec::new(),
                &Path::ROOT,
                &mut cx,
                (i128::MIN, i128::MAX),
            );
            let clean = read.is_some() && cx.repairs().is_empty() && !cx.has_errors();
            assert_eq!(is_integer_as_sent(&Number::Literal(text)), clean, "{text}");
            // Whatever repair reads a number as an integer keeps the number.
            assert!(cx.repairs().iter().all(|r| same_number(r.rule)), "{text}");
        }
    }

    #[test]
    fn plain_integers_have_one_shape() {
        for ok in ["0", "-0", "1999", "-5", "18446744073709551616"] {
            assert!(is_plain_integer(ok), "{ok}");
        }
        for bad in [
            "", "-", "01999", "+1999", " 1999", "1999 ", "1,999", "1_999", "1e3", "19.99", "١٢٣",
            "--1", "-01",
        ] {
            assert!(!is_plain_integer(bad), "{bad}");
        }
    }
}
