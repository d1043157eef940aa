//! The canonicalization and equivalence gates: every reading of the original value, the
//! canonical form of the corrected value, and a verdict per value, walking the tool's profile.
//!
//! This module holds what every step consults: the environment, the objects a value sits in,
//! the sibling fields that hold a currency or a unit, and the numbers a value can mean.

mod form;
mod leaf;
mod money;
mod quantity;
mod readings;
mod show;
mod walk;

use serde_json::{Map, Value};

use crate::currency::Rate;
use crate::decimal::CanonicalDecimal;
use crate::entity::Resolver;
use crate::numbers::number_readings;
use crate::profile::Meaning;
use crate::units::UnitFamily;
use toolargs_core::declare::{Kind, Source};

use show::shown;

pub(crate) use form::semantic_form;
pub(crate) use walk::compare_fields;

/// What the comparison can consult.
pub(crate) struct Env<'e> {
    pub rates: &'e [Rate],
    pub resolver: Option<&'e dyn Resolver>,
    pub families: &'e [UnitFamily],
    /// Paths of keys the original sent twice: its value there cannot be known.
    pub twice: &'e [String],
}

/// The two objects a value sits in, for currency and unit fields.
#[derive(Clone, Copy)]
struct Parents<'v> {
    original: Option<&'v Map<String, Value>>,
    corrected: Option<&'v Map<String, Value>>,
}

/// The sibling field that holds the currency or unit of a value with this meaning.
fn source_field(meaning: &Meaning) -> Option<&str> {
    match meaning {
        Meaning::Kind(Kind::Money {
            currency: Source::Field(name),
            ..
        })
        | Meaning::Kind(Kind::Quantity {
            unit: Source::Field(name),
            ..
        }) => Some(name),
        Meaning::List(inner) => source_field(inner),
        _ => None,
    }
}

/// A value that was sent: `null` counts as absent.
fn present(value: Option<&Value>) -> Option<&Value> {
    value.filter(|v| !v.is_null())
}

/// The numbers a value can mean: a JSON number exactly, or every reading of a numeric string.
fn number_values(value: &Value) -> Result<Vec<CanonicalDecimal>, String> {
    match value {
        Value::Number(n) => CanonicalDecimal::from_number(n)
            .map(|d| vec![d])
            .ok_or_else(|| format!("{n} is too large to compare exactly")),
        Value::String(s) => {
            let values: Vec<CanonicalDecimal> =
                number_readings(s).into_iter().map(|r| r.value).collect();
            if values.is_empty() {
                Err(format!("{} is not a number", shown(value)))
            } else {
                Ok(values)
            }
        }
        _ => Err(format!("{} is not a number", shown(value))),
    }
}
