//! Canonical forms: what a value means, independent of how it was written. Two values are
//! equivalent when their canonical forms match (money exactly, or at a pinned rate; dates to
//! the day unless a time was given; quantities exactly in base units; entities by id).

use std::fmt;

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, SecondsFormat, Utc};
use serde_json::{json, Value};

use super::currency::{Currency, Rate};
use super::decimal::CanonicalDecimal;
use super::entity::EntityId;
use super::fingerprint::canonical_json;

/// The canonical form of one value.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Canonical {
    /// A number, exactly.
    Number(CanonicalDecimal),
    /// A boolean.
    Boolean(bool),
    /// A string.
    Text(String),
    /// An enum value.
    Enum(String),
    /// A calendar day.
    Date(NaiveDate),
    /// An instant, with the offset it was written at (kept, but not compared).
    Instant(DateTime<FixedOffset>),
    /// A wall-clock time in a zone that was not stated: it stands for one instant per zone.
    Wall(NaiveDateTime),
    /// Money: an integer number of minor units of a currency.
    Money {
        /// Minor units (cents for USD, yen for JPY, fils for KWD).
        minor: i128,
        /// The currency.
        currency: Currency,
    },
    /// A quantity in the base unit of its family.
    Quantity {
        /// The amount in base units.
        base: CanonicalDecimal,
        /// The base unit's name (`s`, `m`, `kg`, `B`).
        unit: String,
        /// How it was written (`1.5 h`), for messages; not compared.
        written: String,
    },
    /// The id an entity reference resolves to.
    Entity(EntityId),
    /// Any other value, as canonical JSON text (sorted keys, normalized numbers).
    Json(String),
}

impl PartialEq for Canonical {
    fn eq(&self, other: &Canonical) -> bool {
        use Canonical as C;
        match (self, other) {
            (C::Number(a), C::Number(b)) => a == b,
            (C::Boolean(a), C::Boolean(b)) => a == b,
            (C::Text(a), C::Text(b)) | (C::Enum(a), C::Enum(b)) | (C::Json(a), C::Json(b)) => {
                a == b
            }
            (C::Date(a), C::Date(b)) => a == b,
            (C::Instant(a), C::Instant(b)) => a == b,
            (C::Wall(a), C::Wall(b)) => a == b,
            (
                C::Money {
                    minor: a,
                    currency: x,
                },
                C::Money {
                    minor: b,
                    currency: y,
                },
            ) => a == b && x == y,
            (
                C::Quantity {
                    base: a, unit: x, ..
                },
                C::Quantity {
                    base: b, unit: y, ..
                },
            ) => a == b && x == y,
            (C::Entity(a), C::Entity(b)) => a == b,
            _ => false,
        }
    }
}

/// How a reading matched the corrected value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Match {
    /// The same canonical value.
    Exact,
    /// The same, with a remark (converted at a pinned rate, compared to the day, ...).
    With(String),
}

impl Canonical {
    /// The JSON form used in fingerprints and audit records. Exact decimals are strings.
    pub fn to_json(&self) -> Value {
        match self {
            Canonical::Number(d) => Value::String(d.to_string()),
            Canonical::Boolean(b) => Value::Bool(*b),
            Canonical::Text(s) | Canonical::Enum(s) => Value::String(s.clone()),
            Canonical::Date(d) => Value::String(d.to_string()),
            Canonical::Instant(i) => Value::String(utc(i)),
            Canonical::Wall(w) => json!({"local": w.format("%Y-%m-%dT%H:%M:%S%.f").to_string()}),
            Canonical::Money { minor, currency } => {
                json!({"minor": minor.to_string(), "currency": currency.code()})
            }
            Canonical::Quantity { base, unit, .. } => {
                json!({"amount": base.to_string(), "unit": unit})
            }
            Canonical::Entity(id) => json!({"id": id.as_str()}),
            Canonical::Json(text) => serde_json::from_str(text).unwrap_or(Value::Null),
        }
    }

    /// True for a form that stands for several values at once (a wall-clock time).
    pub(crate) fn is_many(&self) -> bool {
        matches!(self, Canonical::Wall(_))
    }

    /// Whether this reading of the original means `corrected`.
    pub(crate) fn matches(&self, corrected: &Canonical, rates: &[Rate]) -> Option<Match> {
        use Canonical as C;
        match (self, corrected) {
            (
                C::Money {
                    minor: a,
                    currency: x,
                },
                C::Money {
                    minor: b,
                    currency: y,
                },
            ) if x != y => {
                let rate = rates.iter().find(|r| r.from() == *x && r.to() == *y)?;
                (rate.convert_minor(*a)? == *b).then(|| {
                    Match::With(format!(
                        "{} at the pinned rate 1 {x} = {} {y}",
                        self,
                        rate.rate()
                    ))
                })
            }
            (C::Instant(a), C::Instant(b)) => (a == b).then(|| {
                if a.offset() == b.offset() {
                    Match::Exact
                } else {
                    Match::With(format!(
                        "the same instant, written at {} and at {}",
                        a.offset(),
                        b.offset()
                    ))
                }
            }),
            (C::Date(day), C::Instant(b)) => (b.date_naive() == *day)
                .then(|| Match::With("compared to the day: the original gave no time".into())),
            (C::Wall(wall), C::Instant(b)) => {
                // The wall-clock time matches one zone: the one whose offset makes it `b`.
                let delta = (*wall - b.naive_utc()).num_seconds();
                let plausible = (-12 * 3600..=14 * 3600).contains(&delta) && delta % 900 == 0;
                plausible.then(|| {
                    let zone = FixedOffset::east_opt(delta as i32)
                        .map_or_else(String::new, |o| o.to_string());
                    Match::With(format!("if the original's unstated zone was {zone}"))
                })
            }
            (C::Text(a), C::Text(b)) if a != b => (a.trim() == b.trim())
                .then(|| Match::With("only surrounding whitespace differs".into())),
            (a, b) => (a == b).then_some(Match::Exact),
        }
    }
}

fn utc(instant: &DateTime<FixedOffset>) -> String {
    instant
        .with_timezone(&Utc)
        .to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

impl fmt::Display for Canonical {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Canonical::Number(d) => write!(f, "{d}"),
            Canonical::Boolean(b) => write!(f, "{b}"),
            Canonical::Text(s) | Canonical::Enum(s) => write!(f, "{}", Value::from(s.as_str())),
            Canonical::Date(d) => write!(f, "{d}"),
            Canonical::Instant(i) => {
                let offset = i.offset().local_minus_utc();
                if offset == 0 {
                    write!(f, "{}", utc(i))
                } else {
                    write!(f, "{} (written at {})", utc(i), i.offset())
                }
            }
            Canonical::Wall(w) => {
                write!(f, "{} in an unstated zone", w.format("%Y-%m-%dT%H:%M:%S"))
            }
            Canonical::Money { minor, currency } => {
                write!(f, "{} {currency}", major(*minor, currency.minor_units()))
            }
            Canonical::Quantity {
                base,
                unit,
                written,
            } => {
                let in_base = format!("{base} {unit}");
                if written.is_empty() || *written == in_base {
                    f.write_str(&in_base)
                } else {
                    write!(f, "{written} ({in_base})")
                }
            }
            Canonical::Entity(id) => write!(f, "{id}"),
            Canonical::Json(text) => f.write_str(text),
        }
    }
}

/// `minor` units written in major units with exactly `places` fractional digits (`1500` cents
/// is `15.00`), from its digits: any `i128` has a text.
fn major(minor: i128, places: u32) -> String {
    let places = places as usize;
    let digits = format!("{:0>width$}", minor.unsigned_abs(), width = places + 1);
    let (int, frac) = digits.split_at(digits.len() - places);
    let sign = if minor < 0 { "-" } else { "" };
    if frac.is_empty() {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac}")
    }
}

/// The canonical JSON form of an arbitrary value.
pub(crate) fn json_form(value: &Value) -> Canonical {
    Canonical::Json(canonical_json(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_is_written_with_its_minor_places() {
        assert_eq!(major(1500, 2), "15.00");
        assert_eq!(major(1550, 2), "15.50");
        assert_eq!(major(15, 0), "15");
        assert_eq!(major(5, 2), "0.05");
        assert_eq!(major(-5, 3), "-0.005");
        assert_eq!(major(0, 2), "0.00");
        assert_eq!(major(-1500, 0), "-1500");
        assert_eq!(
            major(i128::MIN, 4),
            "-17014118346046923173168730371588410.5728"
        );
        let usd = Currency::from_code("USD").unwrap();
        let money = Canonical::Money {
            minor: 1500,
            currency: usd,
        };
        assert_eq!(money.to_string(), "15.00 USD");
    }
}
