//! The semantic form of a call's arguments, which the fingerprint hashes: every declared
//! kind replaced by its canonical form.

use serde_json::{Map, Value};

use super::readings::corrected_form;
use super::{source_field, Env, Parents};
use crate::profile::{FieldProfile, Meaning};

/// The arguments with every declared kind replaced by its canonical form (a currency or unit
/// field folded into its amount), for the semantic fingerprint. A value without a single
/// canonical form is kept as sent.
pub(crate) fn semantic_form(
    fields: &[FieldProfile],
    args: &Map<String, Value>,
    env: &Env<'_>,
) -> Value {
    let parents = Parents {
        original: Some(args),
        corrected: Some(args),
    };
    let sources: Vec<&str> = fields
        .iter()
        .filter_map(|f| source_field(&f.meaning))
        .collect();
    let mut out = Map::new();
    for (key, value) in args {
        if sources.contains(&key.as_str()) {
            continue;
        }
        let form = match fields.iter().find(|f| &f.name == key) {
            Some(field) => semantic_value(&field.meaning, value, parents, env),
            None => value.clone(),
        };
        out.insert(key.clone(), form);
    }
    Value::Object(out)
}

fn semantic_value(meaning: &Meaning, value: &Value, parents: Parents<'_>, env: &Env<'_>) -> Value {
    match (meaning, value) {
        (Meaning::Object(fields), Value::Object(map)) => semantic_form(fields, map, env),
        (Meaning::List(item), Value::Array(items)) => Value::Array(
            items
                .iter()
                .map(|v| semantic_value(item, v, parents, env))
                .collect(),
        ),
        (Meaning::Kind(kind), v) if !v.is_null() => {
            match corrected_form(meaning, v, parents, env) {
                Ok(canonical) => {
                    let mut form = Map::new();
                    form.insert(kind.name().to_owned(), canonical.to_json());
                    Value::Object(form)
                }
                Err(_) => v.clone(),
            }
        }
        _ => value.clone(),
    }
}
