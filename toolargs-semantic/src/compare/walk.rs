//! The walk over the tool's profile: a field or an item at a time, original against
//! corrected, one finding per value (a list sent as one string included).

use serde_json::{Map, Value};

use super::leaf::leaf;
use super::readings::corrected_form;
use super::show::shown;
use super::{present, source_field, Env, Parents};
use crate::decision::{Finding, Verdict};
use crate::profile::{FieldProfile, Meaning};
use toolargs_core::path::Path;

/// Compares the fields of an object.
pub(crate) fn compare_fields(
    fields: &[FieldProfile],
    original: Option<&Map<String, Value>>,
    corrected: Option<&Map<String, Value>>,
    path: &Path<'_>,
    env: &Env<'_>,
    out: &mut Vec<Finding>,
) {
    let parents = Parents {
        original,
        corrected,
    };
    // A field that holds the currency or unit of another is compared as part of it, and its
    // criticality carries over.
    let mut sources: Vec<(&str, bool)> = Vec::new();
    for f in fields {
        if let Some(name) = source_field(&f.meaning) {
            sources.push((name, f.critical));
        }
    }
    for field in fields {
        if sources.iter().any(|(name, _)| *name == field.name) {
            continue;
        }
        let source_critical = source_field(&field.meaning).is_some_and(|name| {
            fields
                .iter()
                .any(|sibling| sibling.name == name && sibling.critical)
        });
        let key_path = path.key(&field.name);
        let original_value = original.and_then(|m| m.get(&field.name));
        let corrected_value = corrected.and_then(|m| m.get(&field.name));
        let before = out.len();
        compare_value(
            &field.meaning,
            field.default.as_ref(),
            original_value,
            corrected_value,
            parents,
            &key_path,
            env,
            out,
        );
        for finding in &mut out[before..] {
            finding.critical |= field.critical || source_critical;
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn compare_value(
    meaning: &Meaning,
    default: Option<&Value>,
    original: Option<&Value>,
    corrected: Option<&Value>,
    parents: Parents<'_>,
    path: &Path<'_>,
    env: &Env<'_>,
    out: &mut Vec<Finding>,
) {
    let path_text = path.to_string();
    let base = Finding {
        path: path_text.clone(),
        meaning: meaning.name(),
        verdict: Verdict::Equivalent,
        critical: false,
        original: original.cloned(),
        corrected: corrected.cloned(),
        readings: Vec::new(),
        canonical: None,
        reason: String::new(),
    };
    if env.twice.contains(&path_text) {
        out.push(Finding {
            verdict: Verdict::Unverified,
            reason: "the original sent this key twice, so its value there is unknown".into(),
            ..base
        });
        return;
    }
    let (mut original, corrected) = (present(original), present(corrected));
    let mut note = None;
    if original.is_none() {
        if let Some(default) = default.filter(|_| corrected.is_some()) {
            original = Some(default);
            note = Some("the original left it out, which means the default");
        }
    }
    let (original, corrected) = match (original, corrected) {
        (None, None) => return,
        (None, Some(c)) => {
            let canonical = corrected_form(meaning, c, parents, env).ok();
            out.push(Finding {
                verdict: Verdict::Unverified,
                reason: format!(
                    "the original did not give it; the correction adds {}",
                    canonical
                        .as_ref()
                        .map_or_else(|| shown(c), ToString::to_string)
                ),
                canonical: canonical.map(|c| c.to_string()),
                ..base
            });
            return;
        }
        (Some(o), None) => {
            out.push(Finding {
                verdict: Verdict::Changed,
                reason: format!("the correction removes it (the original sent {})", shown(o)),
                ..base
            });
            return;
        }
        (Some(o), Some(c)) => (o, c),
    };
    match (meaning, original, corrected) {
        (Meaning::Object(fields), Value::Object(o), Value::Object(c)) => {
            compare_fields(fields, Some(o), Some(c), path, env, out);
        }
        (Meaning::List(item), Value::Array(o), Value::Array(c)) if o.len() == c.len() => {
            for (i, (o, c)) in o.iter().zip(c).enumerate() {
                let item_path = path.index(i);
                compare_value(item, None, Some(o), Some(c), parents, &item_path, env, out);
            }
        }
        (Meaning::List(_), Value::Array(o), Value::Array(c)) => out.push(Finding {
            verdict: Verdict::Changed,
            reason: format!(
                "the original had {} items, the correction has {}",
                o.len(),
                c.len()
            ),
            ..base
        }),
        (Meaning::List(item), Value::String(text), Value::Array(c)) => {
            out.push(list_from_text(item, text, c, parents, path, env, base));
        }
        _ => {
            let mut finding = leaf(meaning, original, corrected, parents, env, base);
            if let (Some(note), Verdict::Equivalent) = (note, finding.verdict) {
                finding.reason = if finding.reason.is_empty() {
                    note.to_owned()
                } else {
                    format!("{note}; {}", finding.reason)
                };
            }
            out.push(finding);
        }
    }
}

/// A list sent as one string: `"a"` is the list `["a"]`; `"a, b"` is that or `["a", "b"]`.
fn list_from_text(
    item: &Meaning,
    text: &str,
    corrected: &[Value],
    parents: Parents<'_>,
    path: &Path<'_>,
    env: &Env<'_>,
    base: Finding,
) -> Finding {
    let mut candidates: Vec<Vec<Value>> = vec![vec![Value::from(text)]];
    if text.contains([',', ';', '\n']) {
        let split: Vec<Value> = text
            .split([',', ';', '\n'])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(Value::from)
            .collect();
        candidates.push(split);
    }
    let matching = candidates
        .iter()
        .filter(|candidate| {
            candidate.len() == corrected.len() && {
                let mut found = Vec::new();
                for (i, (o, c)) in candidate.iter().zip(corrected).enumerate() {
                    compare_value(
                        item,
                        None,
                        Some(o),
                        Some(c),
                        parents,
                        &path.index(i),
                        env,
                        &mut found,
                    );
                }
                found.iter().all(|f| f.verdict == Verdict::Equivalent)
            }
        })
        .count();
    let (verdict, reason) = match (matching, candidates.len()) {
        (0, _) => (
            Verdict::Changed,
            format!(
                "the original {} does not read as the corrected list",
                shown(&Value::from(text))
            ),
        ),
        (_, 1) => (
            Verdict::Equivalent,
            "a single value for a one-item list".to_owned(),
        ),
        _ => (
            Verdict::Ambiguous,
            format!(
                "the original {} is one item or {} items; the correction picked one",
                shown(&Value::from(text)),
                candidates[1].len()
            ),
        ),
    };
    Finding {
        verdict,
        reason,
        ..base
    }
}
