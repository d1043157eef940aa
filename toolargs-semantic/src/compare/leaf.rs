//! The verdict on one value that has readings, and the reason given for it: what each side
//! means, and for a change, a currency without a pinned rate or a likely unit flip.

use serde_json::Value;

use super::readings::{corrected_form, original_readings};
use super::show::{list_readings, shown};
use super::{Env, Parents};
use crate::canonical::{Canonical, Match};
use crate::decimal::CanonicalDecimal;
use crate::decision::{Finding, Verdict};
use crate::profile::Meaning;
use toolargs_core::declare::Kind;

/// Compares one value that has readings.
pub(super) fn leaf(
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
