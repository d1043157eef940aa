//! The canonicalization and equivalence gates: every reading of the original value, the
//! canonical form of the corrected value, and a verdict per value, walking the tool's profile.

use serde_json::{Map, Value};

use super::canonical::{json_form, Canonical, Match};
use super::currency::{currencies_named, markers, symbol_currencies, Currency, Rate};
use super::dates::{date_readings, moment_readings, timestamp_readings, Moment};
use super::decimal::CanonicalDecimal;
use super::decision::{Finding, Verdict};
use super::entity::{EntityId, Resolver};
use super::numbers::number_readings;
use super::profile::{FieldProfile, Meaning};
use super::units::{quantity_readings, UnitFamily};
use toolargs_core::__private::text::preview_str;
use toolargs_core::declare::{Kind, Source};
use toolargs_core::path::Path;

/// Readings listed in a reason before the rest are only counted.
const SHOWN_READINGS: usize = 4;

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

fn present(value: Option<&Value>) -> Option<&Value> {
    value.filter(|v| !v.is_null())
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

/// Compares one value that has readings.
fn leaf(
    meaning: &Meaning,
    original: &Value,
    corrected: &Value,
    parents: Parents<'_>,
    env: &Env<'_>,
    base: Finding,
) -> Finding {
    let canonical = match corrected_form(meaning, corrected, parents, env) {
        Ok(c) => c,
        Err(reason) => {
            return Finding {
                verdict: Verdict::Invalid,
                reason,
                ..base
            }
        }
    };
    let readings = match original_readings(meaning, original, parents, env) {
        Ok(r) if !r.is_empty() => r,
        Ok(_) => {
            return Finding {
                verdict: Verdict::Unverified,
                reason: format!("the original {} has no reading", shown(original)),
                canonical: Some(canonical.to_string()),
                ..base
            }
        }
        Err(reason) => {
            return Finding {
                verdict: Verdict::Unverified,
                reason,
                canonical: Some(canonical.to_string()),
                ..base
            }
        }
    };
    // Entities without a resolver compare as written: equal text is the same reference, but
    // different text proves nothing either way.
    if let (Meaning::Kind(Kind::Entity { kind, .. }), None) = (meaning, env.resolver) {
        let same = readings.iter().any(|r| r == &canonical);
        return Finding {
            verdict: if same {
                Verdict::Equivalent
            } else {
                Verdict::Unverified
            },
            reason: if same {
                String::new()
            } else {
                format!(
                    "no resolver for {kind}: {} and {} may or may not be the same",
                    shown(original),
                    shown(corrected)
                )
            },
            readings: readings.iter().map(ToString::to_string).collect(),
            canonical: Some(canonical.to_string()),
            ..base
        };
    }
    let matches: Vec<(&Canonical, Match)> = readings
        .iter()
        .filter_map(|r| r.matches(&canonical, env.rates).map(|m| (r, m)))
        .collect();
    let many = readings.len() > 1 || readings.iter().any(Canonical::is_many);
    let listed = list_readings(&readings);
    let (verdict, reason) = match matches.first() {
        None => (
            Verdict::Changed,
            changed_reason(meaning, original, &readings, &canonical, env),
        ),
        Some((_, m)) if !many => (
            Verdict::Equivalent,
            match m {
                Match::Exact => format!("both mean {canonical}"),
                Match::With(note) => format!("both mean {canonical}: {note}"),
            },
        ),
        Some((_, m)) => {
            let count = if readings.iter().any(Canonical::is_many) {
                "one reading per time zone".to_owned()
            } else {
                format!("{} readings ({listed})", readings.len())
            };
            let how = match m {
                Match::With(note) => format!(" ({note})"),
                Match::Exact => String::new(),
            };
            (
                Verdict::Ambiguous,
                format!(
                    "the original {} has {count}; the correction picked {canonical}{how}",
                    shown(original)
                ),
            )
        }
    };
    Finding {
        verdict,
        reason,
        readings: readings.iter().map(ToString::to_string).collect(),
        canonical: Some(canonical.to_string()),
        ..base
    }
}

fn list_readings(readings: &[Canonical]) -> String {
    let mut parts: Vec<String> = readings
        .iter()
        .take(SHOWN_READINGS)
        .map(ToString::to_string)
        .collect();
    if readings.len() > SHOWN_READINGS {
        parts.push(format!("and {} more", readings.len() - SHOWN_READINGS));
    }
    parts.join(", ")
}

fn changed_reason(
    meaning: &Meaning,
    original: &Value,
    readings: &[Canonical],
    canonical: &Canonical,
    env: &Env<'_>,
) -> String {
    let means = if readings.len() == 1 {
        format!("means {}", readings[0])
    } else {
        format!("reads as {}", list_readings(readings))
    };
    let mut reason = format!(
        "the original {} {means}; the correction means {canonical}",
        shown(original)
    );
    match (meaning, readings, canonical) {
        (
            Meaning::Kind(Kind::Money { .. }),
            [Canonical::Money { currency: from, .. }],
            Canonical::Money { currency: to, .. },
        ) if from != to => {
            match env.rates.iter().find(|r| r.from() == *from && r.to() == *to) {
                None => reason.push_str(&format!(
                    ": the currency changed from {from} to {to}, and no {from} to {to} rate is pinned"
                )),
                Some(rate) => {
                    let converted = match &readings[0] {
                        Canonical::Money { minor, .. } => rate.convert_minor(*minor),
                        _ => None,
                    };
                    if let Some(minor) = converted {
                        let at = Canonical::Money {
                            minor,
                            currency: *to,
                        };
                        reason.push_str(&format!(
                            ": {} is {at} at the pinned rate {}",
                            readings[0],
                            rate.rate()
                        ));
                    }
                }
            }
        }
        (
            Meaning::Kind(Kind::Quantity { family, .. }),
            [Canonical::Quantity { base: a, .. }],
            Canonical::Quantity { base: b, .. },
        ) => {
            if let Some(flip) = unit_flip(*a, *b, family, env) {
                reason.push_str(&flip);
            }
        }
        _ => {}
    }
    reason
}

/// When two quantities differ by exactly the ratio of two units of the family, the correction
/// probably read one unit as the other.
fn unit_flip(
    a: CanonicalDecimal,
    b: CanonicalDecimal,
    family: &str,
    env: &Env<'_>,
) -> Option<String> {
    let family = env.families.iter().find(|f| f.name() == family)?;
    let (a, b) = (a.to_f64(), b.to_f64());
    if a == 0.0 || b == 0.0 {
        return None;
    }
    let ratio = b / a;
    for big in family.units() {
        for small in family.units() {
            let r = big.factor().to_f64() / small.factor().to_f64();
            if r > 1.0 && ((ratio - r).abs() < 1e-9 * r || (1.0 / ratio - r).abs() < 1e-9 * r) {
                let (times, direction) = if ratio > 1.0 {
                    (ratio, "larger")
                } else {
                    (1.0 / ratio, "smaller")
                };
                return Some(format!(
                    ": {} times {direction}, exactly the ratio of {} to {}, a unit flip",
                    trim_float(times),
                    big.name(),
                    small.name()
                ));
            }
        }
    }
    None
}

fn trim_float(value: f64) -> String {
    let rounded = (value * 1e6).round() / 1e6;
    format!("{rounded}")
}

/// A value as it was sent, for reasons: JSON, shortened.
fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => preview_str(s),
        other => {
            let text = other.to_string();
            if text.chars().count() > 40 {
                format!("{}...", text.chars().take(40).collect::<String>())
            } else {
                text
            }
        }
    }
}

/// The canonical form of a corrected value: exactly one, or why there is none.
fn corrected_form(
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
fn original_readings(
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

fn money_readings(
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

fn quantity(
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
