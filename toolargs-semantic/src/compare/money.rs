//! The readings of an amount of money: the currencies it can be in (declared, in its
//! currency field, or marked in the text) and the amounts in minor units.

use serde_json::{Map, Value};

use super::present;
use super::show::shown;
use crate::canonical::Canonical;
use crate::currency::{currencies_named, markers, symbol_currencies, Currency};
use crate::decimal::CanonicalDecimal;
use crate::numbers::number_readings;
use toolargs_core::declare::Source;

/// The currencies a money value can be in: from the declaration or the currency field.
/// `None` when the original gave no currency at all (every currency is then a reading).
fn currency_readings(
    currency: &Source,
    parent: Option<&Map<String, Value>>,
) -> Result<Option<Vec<Currency>>, String> {
    match currency {
        Source::Fixed(code) => Currency::from_code(code)
            .map(|c| Some(vec![c]))
            .ok_or_else(|| format!("{code:?} is not an ISO 4217 currency")),
        Source::Field(name) => match present(parent.and_then(|p| p.get(name))) {
            None => Ok(None),
            Some(Value::String(s)) => {
                let found = currencies_named(s);
                if found.is_empty() {
                    Err(format!(
                        "unknown currency {} in {name}: not an ISO 4217 code",
                        shown(&Value::from(s.as_str()))
                    ))
                } else {
                    Ok(Some(found))
                }
            }
            Some(other) => Err(format!("{} in {name} is not a currency", shown(other))),
        },
    }
}

/// Splits a currency marker off an amount: `$15.00`, `15.00 USD`, `USD 15`, `€15,00`.
fn strip_marker(text: &str) -> (Option<Vec<Currency>>, &str) {
    let text = text.trim();
    let mut all: Vec<&str> = markers().collect();
    all.sort_by_key(|m| std::cmp::Reverse(m.len()));
    for marker in &all {
        if let Some(rest) = text
            .strip_prefix(marker)
            .or_else(|| text.strip_suffix(marker))
        {
            return (symbol_currencies(marker), rest.trim());
        }
    }
    let code = |word: &str| {
        (word.len() == 3 && word.chars().all(|c| c.is_ascii_alphabetic()))
            .then(|| Currency::from_code(&word.to_ascii_uppercase()))
            .flatten()
    };
    if let Some((first, rest)) = text.split_once(' ') {
        if let Some(c) = code(first) {
            return (Some(vec![c]), rest.trim());
        }
    }
    if let Some((rest, last)) = text.rsplit_once(' ') {
        if let Some(c) = code(last) {
            return (Some(vec![c]), rest.trim());
        }
    }
    (None, text)
}

pub(super) fn money_readings(
    value: &Value,
    currency: &Source,
    minor_units: bool,
    parent: Option<&Map<String, Value>>,
) -> Result<Vec<Canonical>, String> {
    let declared = currency_readings(currency, parent)?;
    // Each number with the fraction digits written (`None` when unknown), and the currencies
    // a marker in the text names.
    let numbers: Vec<(CanonicalDecimal, Option<u32>)>;
    let marker: Option<Vec<Currency>>;
    (numbers, marker) = match value {
        Value::Number(n) => {
            let d = CanonicalDecimal::from_number(n)
                .ok_or_else(|| format!("{n} is too large to compare exactly"))?;
            let digits = if n.is_f64() { None } else { Some(0) };
            (vec![(d, digits)], None)
        }
        Value::String(s) => {
            let (marker, rest) = strip_marker(s);
            let numbers = number_readings(rest)
                .into_iter()
                .map(|r| (r.value, Some(r.fraction_digits)))
                .collect();
            (numbers, marker)
        }
        _ => return Err(format!("{} is not an amount", shown(value))),
    };
    if numbers.is_empty() {
        return Err(format!("{} is not an amount", shown(value)));
    }
    let currencies: Vec<Currency> = match (declared, marker.clone()) {
        (Some(d), None) => d,
        (None, Some(m)) => m,
        (None, None) => Currency::all().collect(),
        (Some(d), Some(m)) => {
            let both: Vec<Currency> = d.iter().copied().filter(|c| m.contains(c)).collect();
            if both.is_empty() {
                // The amount and the currency field disagree: both are readings.
                let mut union = d;
                union.extend(m);
                union
            } else {
                both
            }
        }
    };
    let mut out = Vec::new();
    for currency in currencies {
        let e = currency.minor_units();
        for &(number, digits) in &numbers {
            let major = number
                .shift(i64::from(e))
                .and_then(CanonicalDecimal::to_integer);
            let minor = number.to_integer();
            let candidates: Vec<Option<i128>> = if !minor_units {
                vec![major]
            } else if marker.is_some() || (digits == Some(e) && e > 0) {
                // `$15`, `15.00` in a cents field: written as major units.
                vec![major]
            } else if digits == Some(0) {
                vec![minor]
            } else if minor.is_some() {
                // `15.0` for cents: 15 cents, or 15 dollars written with a decimal point.
                vec![minor, major]
            } else {
                vec![major]
            };
            for amount in candidates.into_iter().flatten() {
                let reading = Canonical::Money {
                    minor: amount,
                    currency,
                };
                if !out.contains(&reading) {
                    out.push(reading);
                }
            }
        }
    }
    if out.is_empty() {
        Err(format!(
            "{} has more decimals than its currency's minor unit",
            shown(value)
        ))
    } else {
        Ok(out)
    }
}
