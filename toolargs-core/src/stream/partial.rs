//! The partial view of a stream: the members accepted so far, as the parser passes them on.
//!
//! A member keeps the span of its value in the text and the repairs recorded at its path or
//! below. The view reads each value back and applies those repairs, in the order they were
//! recorded (a value decoded from JSON text first, then what was repaired inside it).

use std::collections::BTreeMap;
use std::ops::Range;

use serde_json::{Map, Value};

use crate::json::read_text;
use crate::options::Limits;
use crate::path::{steps, OwnedStep};
use crate::report::{Repair, Rule};

use super::keys::Name;

/// A member complete and accepted.
#[derive(Debug)]
pub(super) struct Accepted {
    name: Name,
    /// Its value's text.
    value: Range<usize>,
    /// The repairs at its path or below.
    repairs: Vec<Repair>,
}

impl Accepted {
    pub(super) fn new(name: Name, value: Range<usize>, repairs: Vec<Repair>) -> Accepted {
        Accepted {
            name,
            value,
            repairs,
        }
    }
}

/// Gives each member the repairs of the whole call at its path or below, in one pass.
pub(super) fn share_repairs(text: &str, accepted: &mut [Accepted], repairs: &[Repair]) {
    for member in accepted.iter_mut() {
        member.repairs.clear();
    }
    if repairs.is_empty() {
        return;
    }
    let by_name: BTreeMap<&str, usize> = accepted
        .iter()
        .enumerate()
        .map(|(index, member)| (member.name.get(text), index))
        .collect();
    let owners: Vec<(usize, &Repair)> = repairs
        .iter()
        .filter_map(|repair| {
            let steps = steps(&repair.path)?;
            match steps.first() {
                Some(OwnedStep::Key(name)) => Some((*by_name.get(name.as_str())?, repair)),
                _ => None,
            }
        })
        .collect();
    drop(by_name);
    for (member, repair) in owners {
        accepted[member].repairs.push(repair.clone());
    }
}

/// The members as an object, each value read from `text` and repaired.
pub(super) fn view(text: &str, accepted: &[Accepted], limits: &Limits) -> Value {
    let mut object = Map::new();
    for member in accepted {
        let Some(sent) = text
            .get(member.value.clone())
            .and_then(|value| read_text(value, limits).ok())
        else {
            continue;
        };
        let mut value = Some(sent.root().to_value());
        for repair in &member.repairs {
            if let Some(steps) = steps(&repair.path) {
                apply(&mut value, &steps[1..], repair);
            }
        }
        if let Some(value) = value {
            object.insert(member.name.get(text).to_owned(), value);
        }
    }
    Value::Object(object)
}

/// Applies `repair` at `steps` below `value` (`None` once the value is absent).
fn apply(value: &mut Option<Value>, steps: &[OwnedStep], repair: &Repair) {
    let Some(current) = value else {
        return;
    };
    let Some((last, parents)) = steps.split_last() else {
        *value = repaired(repair);
        return;
    };
    let mut parent = current;
    for step in parents {
        let child = match (step, parent) {
            (OwnedStep::Key(key), Value::Object(map)) => map.get_mut(key),
            (OwnedStep::Index(index), Value::Array(items)) => items.get_mut(*index),
            _ => None,
        };
        let Some(child) = child else {
            return;
        };
        parent = child;
    }
    match (last, parent, repaired(repair)) {
        (OwnedStep::Key(key), Value::Object(map), Some(after)) => {
            map.insert(key.clone(), after);
        }
        (OwnedStep::Key(key), Value::Object(map), None) => {
            map.shift_remove(key);
        }
        (OwnedStep::Index(index), Value::Array(items), Some(after)) => {
            if let Some(item) = items.get_mut(*index) {
                *item = after;
            }
        }
        _ => {}
    }
}

/// The value a repair leaves, or `None` when it leaves the key out: a stripped key, or a
/// `null` read as absent with no default.
fn repaired(repair: &Repair) -> Option<Value> {
    match repair.rule {
        Rule::StripUnknownField => None,
        Rule::NullToAbsent if repair.after.is_null() => None,
        _ => Some(repair.after.clone()),
    }
}
