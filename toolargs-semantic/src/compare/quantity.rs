//! The readings of a quantity, in the base unit of its family: from a unit written in the
//! value, or from its number in the units its declaration or unit field allows.

use serde_json::{Map, Value};

use super::show::shown;
use super::{number_values, present};
use crate::canonical::Canonical;
use crate::decimal::CanonicalDecimal;
use crate::units::{quantity_readings, UnitFamily};
use toolargs_core::declare::Source;

pub(super) fn quantity(
    value: &Value,
    family: &UnitFamily,
    unit: &Source,
    parent: Option<&Map<String, Value>>,
) -> Result<Vec<Canonical>, String> {
    let base = family.base().name().to_owned();
    let in_base = |amounts: Vec<(CanonicalDecimal, String)>| -> Vec<Canonical> {
        let mut out = Vec::new();
        for (amount, written) in amounts {
            let c = Canonical::Quantity {
                base: amount,
                unit: base.clone(),
                written,
            };
            if !out.contains(&c) {
                out.push(c);
            }
        }
        out
    };
    // A unit written in the value itself (`"90 min"`) is the most specific.
    if let Value::String(s) = value {
        if let Some(amounts) = quantity_readings(s, family) {
            if amounts.is_empty() {
                return Err(format!(
                    "{} is not a {} in units the gate knows",
                    shown(value),
                    family.name()
                ));
            }
            let written = s.trim().to_owned();
            return Ok(in_base(
                amounts.into_iter().map(|a| (a, written.clone())).collect(),
            ));
        }
    }
    let numbers = number_values(value)?;
    let units = match unit {
        Source::Fixed(name) => family.units_named(name),
        Source::Field(field) => match present(parent.and_then(|p| p.get(field))) {
            // No unit at all: every unit of the family is a reading.
            None => family.units().iter().collect(),
            Some(Value::String(s)) => family.units_named(s),
            Some(other) => {
                return Err(format!("{} in {field} is not a unit", shown(other)));
            }
        },
    };
    if units.is_empty() {
        let name = match unit {
            Source::Fixed(n) => n.clone(),
            Source::Field(f) => parent
                .and_then(|p| p.get(f))
                .map_or_else(String::new, shown),
        };
        return Err(format!("{name} is not a unit of {}", family.name()));
    }
    let mut amounts = Vec::new();
    for number in &numbers {
        for unit in &units {
            if let Some(a) = number.checked_mul(unit.factor()) {
                amounts.push((a, format!("{number} {}", unit.name())));
            }
        }
    }
    Ok(in_base(amounts))
}
