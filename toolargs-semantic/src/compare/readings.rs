//! Every reading of a value under its meaning, and the single canonical form a corrected
//! value must have.

use serde_json::Value;

use super::money::money_readings;
use super::quantity::quantity;
use super::show::{list_readings, shown};
use super::{number_values, Env, Parents};
use crate::canonical::{json_form, Canonical};
use crate::dates::{date_readings, moment_readings, timestamp_readings, Moment};
use crate::entity::EntityId;
use crate::profile::Meaning;
use toolargs_core::declare::Kind;

/// The canonical form of a corrected value: exactly one, or why there is none.
pub(super) fn corrected_form(
    meaning: &Meaning,
    value: &Value,
    parents: Parents<'_>,
    env: &Env<'_>,
) -> Result<Canonical, String> {
    let swapped = Parents {
        original: parents.corrected,
        corrected: parents.corrected,
    };
    let readings = original_readings(meaning, value, swapped, env)
        .map_err(|reason| format!("the corrected value has no canonical form: {reason}"))?;
    match readings.as_slice() {
        [one] if !one.is_many() => Ok(one.clone()),
        [] => Err(format!(
            "the corrected value {} has no canonical form",
            shown(value)
        )),
        many => Err(format!(
            "the corrected value {} is itself ambiguous: {}",
            shown(value),
            list_readings(many)
        )),
    }
}

/// Every reading of a value under its meaning.
pub(super) fn original_readings(
    meaning: &Meaning,
    value: &Value,
    parents: Parents<'_>,
    env: &Env<'_>,
) -> Result<Vec<Canonical>, String> {
    match meaning {
        Meaning::Text => match value {
            Value::String(s) => Ok(vec![Canonical::Text(s.clone())]),
            Value::Number(_) | Value::Bool(_) => Ok(vec![Canonical::Text(value.to_string())]),
            _ => Err(format!("{} is not text", shown(value))),
        },
        Meaning::Number => {
            number_values(value).map(|values| values.into_iter().map(Canonical::Number).collect())
        }
        Meaning::Boolean => boolean(value)
            .map(|b| vec![Canonical::Boolean(b)])
            .ok_or_else(|| format!("{} is not a yes or no", shown(value))),
        Meaning::Enum { values, aliases } => enum_readings(value, values, aliases),
        Meaning::Kind(Kind::Date) => match value {
            Value::String(s) => Ok(date_readings(s)?.into_iter().map(Canonical::Date).collect()),
            _ => Err(format!("{} is not a date", shown(value))),
        },
        Meaning::Kind(Kind::DateTime) => {
            let moments = match value {
                Value::String(s) => moment_readings(s)?,
                Value::Number(n) => match n.as_i64() {
                    Some(t) => timestamp_readings(t),
                    None => return Err(format!("{} is not a timestamp", shown(value))),
                },
                _ => return Err(format!("{} is not a date-time", shown(value))),
            };
            Ok(moments
                .into_iter()
                .map(|m| match m {
                    Moment::Instant(i) => Canonical::Instant(i),
                    Moment::Wall(w) => Canonical::Wall(w),
                    Moment::Day(d) => Canonical::Date(d),
                })
                .collect())
        }
        Meaning::Kind(Kind::Money {
            currency,
            minor_units,
            ..
        }) => money_readings(value, currency, *minor_units, parents.original),
        Meaning::Kind(Kind::Quantity { family, unit, .. }) => {
            let family = env
                .families
                .iter()
                .find(|f| f.name() == family)
                .ok_or_else(|| {
                    format!("unknown unit family {family:?}; add it to the gate with_family")
                })?;
            quantity(value, family, unit, parents.original)
        }
        Meaning::Kind(Kind::Entity { kind, .. }) => {
            let reference = match value {
                Value::String(s) => s.trim().to_owned(),
                Value::Number(n) => n.to_string(),
                _ => return Err(format!("{} is not a reference", shown(value))),
            };
            match env.resolver {
                None => Ok(vec![Canonical::Entity(EntityId(reference))]),
                Some(resolver) => match resolver.resolve(kind, &reference) {
                    Ok(ids) if ids.is_empty() => {
                        Err(format!("{} resolves to no {kind}", shown(value)))
                    }
                    Ok(ids) => Ok(ids.into_iter().map(Canonical::Entity).collect()),
                    Err(e) => Err(format!("resolving {} failed: {e}", shown(value))),
                },
            }
        }
        Meaning::List(_) | Meaning::Object(_) | Meaning::Json => Ok(vec![json_form(value)]),
    }
}

fn boolean(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => match n.as_f64() {
            Some(1.0) => Some(true),
            Some(0.0) => Some(false),
            _ => None,
        },
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "y" | "on" | "1" => Some(true),
            "false" | "no" | "n" | "off" | "0" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

fn enum_readings(
    value: &Value,
    values: &[String],
    aliases: &[(String, String)],
) -> Result<Vec<Canonical>, String> {
    let Value::String(s) = value else {
        return Err(format!(
            "{} is not one of {}",
            shown(value),
            values.join(", ")
        ));
    };
    if values.iter().any(|v| v == s) {
        return Ok(vec![Canonical::Enum(s.clone())]);
    }
    let mut found: Vec<Canonical> = Vec::new();
    let add = |found: &mut Vec<Canonical>, v: &str| {
        let c = Canonical::Enum(v.to_owned());
        if !found.contains(&c) {
            found.push(c);
        }
    };
    for (alias, target) in aliases {
        if alias == s {
            add(&mut found, target);
        }
    }
    if found.is_empty() {
        for v in values.iter().filter(|v| v.eq_ignore_ascii_case(s)) {
            add(&mut found, v);
        }
        for (_, target) in aliases.iter().filter(|(a, _)| a.eq_ignore_ascii_case(s)) {
            add(&mut found, target);
        }
    }
    if found.is_empty() {
        Err(format!(
            "{} is not one of {} nor a declared alias",
            shown(value),
            values.join(", ")
        ))
    } else {
        Ok(found)
    }
}
