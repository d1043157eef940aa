//! Unit families: each converts its units to one base unit with exact decimal factors, so
//! quantities compare exactly. Built in: `duration` (seconds), `length` (metres), `mass`
//! (kilograms) and `data_size` (bytes); add a family with [`UnitFamily::new`] and
//! [`SemanticGate::with_family`](super::SemanticGate::with_family).
//!
//! A unit name may stand for several units (`GB` is 10^9 bytes or 2^30; `ton` is short, long
//! or metric): such a name has one reading per unit.

use std::sync::OnceLock;

use super::decimal::CanonicalDecimal;
use super::numbers::number_readings;

/// One unit of a family: its name and how many base units it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    name: String,
    factor: CanonicalDecimal,
}

impl Unit {
    /// The unit's name (`h`, `km`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Base units in one of this unit.
    pub fn factor(&self) -> CanonicalDecimal {
        self.factor
    }
}

/// A family of units that measure the same thing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitFamily {
    name: String,
    units: Vec<Unit>,
    /// Spellings (case kept) and the indexes of the units each stands for.
    names: Vec<(String, Vec<usize>)>,
}

impl UnitFamily {
    /// A family whose base unit is `base` (factor 1).
    pub fn new(name: &str, base: &str) -> UnitFamily {
        UnitFamily {
            name: name.to_owned(),
            units: Vec::new(),
            names: Vec::new(),
        }
        .unit(base, "1")
    }

    /// Adds a unit worth `factor` base units, written as an exact decimal (`"0.0254"`).
    ///
    /// # Panics
    /// When `factor` is not a plain positive decimal: factors are written in code, like
    /// format strings, and a wrong one is a bug to fix, not input to handle.
    pub fn unit(mut self, name: &str, factor: &str) -> UnitFamily {
        let factor = CanonicalDecimal::parse(factor)
            .filter(|f| !f.is_negative() && *f != CanonicalDecimal::ZERO)
            .unwrap_or_else(|| {
                panic!("unit {name:?}: factor {factor:?} is not a positive decimal")
            });
        self.units.push(Unit {
            name: name.to_owned(),
            factor,
        });
        let index = self.units.len() - 1;
        self.add_name(name, index);
        self
    }

    /// Lets `alias` stand for the unit named `unit`. Giving one alias to several units makes
    /// it ambiguous: it then reads as each of them.
    ///
    /// # Panics
    /// When no unit is named `unit`.
    pub fn alias(mut self, alias: &str, unit: &str) -> UnitFamily {
        let index = self
            .units
            .iter()
            .position(|u| u.name == unit)
            .unwrap_or_else(|| panic!("alias {alias:?}: no unit {unit:?} in {}", self.name));
        self.add_name(alias, index);
        self
    }

    /// Several aliases of one unit.
    pub fn aliases(self, aliases: &[&str], unit: &str) -> UnitFamily {
        aliases.iter().fold(self, |family, a| family.alias(a, unit))
    }

    fn add_name(&mut self, name: &str, index: usize) {
        match self.names.iter_mut().find(|(n, _)| n == name) {
            Some((_, units)) if !units.contains(&index) => units.push(index),
            Some(_) => {}
            None => self.names.push((name.to_owned(), vec![index])),
        }
    }

    /// The family's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The base unit.
    pub fn base(&self) -> &Unit {
        &self.units[0]
    }

    /// Every unit, base first.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// Every spelling the family reads, unit names and aliases, in the order they were added.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(|(name, _)| name.as_str())
    }

    /// Every unit `text` names: an exact spelling first, otherwise every spelling equal up to
    /// ASCII case (`kb` is both `kB` and `KB`). Empty when it names none.
    pub fn units_named(&self, text: &str) -> Vec<&Unit> {
        let text = text.trim();
        let collect = |matching: &mut dyn Iterator<Item = &(String, Vec<usize>)>| {
            let mut out: Vec<&Unit> = Vec::new();
            for (_, indexes) in matching {
                for &i in indexes {
                    if !out.contains(&&self.units[i]) {
                        out.push(&self.units[i]);
                    }
                }
            }
            out
        };
        let exact = collect(&mut self.names.iter().filter(|(n, _)| n == text));
        if !exact.is_empty() {
            return exact;
        }
        collect(
            &mut self
                .names
                .iter()
                .filter(|(n, _)| n.eq_ignore_ascii_case(text)),
        )
    }
}

/// The families every gate knows.
pub fn builtin_families() -> Vec<UnitFamily> {
    vec![duration(), length(), mass(), data_size()]
}

/// The built-in families, made once: gates and declarations look them up per call, and
/// making them costs more than a comparison.
pub(crate) fn builtin() -> &'static [UnitFamily] {
    static BUILTIN: OnceLock<Vec<UnitFamily>> = OnceLock::new();
    BUILTIN.get_or_init(builtin_families)
}

/// The built-in family called `name`.
pub fn builtin_family(name: &str) -> Option<&'static UnitFamily> {
    builtin().iter().find(|f| f.name == name)
}

fn duration() -> UnitFamily {
    UnitFamily::new("duration", "s")
        .aliases(&["sec", "secs", "second", "seconds"], "s")
        .unit("ns", "0.000000001")
        .aliases(&["nanosecond", "nanoseconds"], "ns")
        .unit("us", "0.000001")
        .aliases(&["µs", "μs", "microsecond", "microseconds"], "us")
        .unit("ms", "0.001")
        .aliases(&["msec", "millisecond", "milliseconds"], "ms")
        .unit("min", "60")
        .aliases(&["mins", "minute", "minutes"], "min")
        .unit("h", "3600")
        .aliases(&["hr", "hrs", "hour", "hours"], "h")
        .unit("d", "86400")
        .aliases(&["day", "days"], "d")
        .unit("w", "604800")
        .aliases(&["wk", "wks", "week", "weeks"], "w")
}

fn length() -> UnitFamily {
    UnitFamily::new("length", "m")
        .aliases(&["meter", "meters", "metre", "metres"], "m")
        .unit("mm", "0.001")
        .aliases(
            &["millimeter", "millimeters", "millimetre", "millimetres"],
            "mm",
        )
        .unit("cm", "0.01")
        .aliases(
            &["centimeter", "centimeters", "centimetre", "centimetres"],
            "cm",
        )
        .unit("km", "1000")
        .aliases(
            &["kilometer", "kilometers", "kilometre", "kilometres"],
            "km",
        )
        .unit("in", "0.0254")
        .aliases(&["inch", "inches"], "in")
        .unit("ft", "0.3048")
        .aliases(&["foot", "feet"], "ft")
        .unit("yd", "0.9144")
        .aliases(&["yard", "yards"], "yd")
        .unit("mi", "1609.344")
        .aliases(&["mile", "miles"], "mi")
        .unit("nmi", "1852")
        .aliases(&["nautical mile", "nautical miles"], "nmi")
}

fn mass() -> UnitFamily {
    UnitFamily::new("mass", "kg")
        .aliases(&["kilogram", "kilograms", "kilo", "kilos"], "kg")
        .unit("mg", "0.000001")
        .aliases(&["milligram", "milligrams"], "mg")
        .unit("g", "0.001")
        .aliases(&["gram", "grams", "gramme", "grammes"], "g")
        .unit("t", "1000")
        .aliases(&["tonne", "tonnes", "metric ton", "metric tons"], "t")
        .unit("short_ton", "907.18474")
        .unit("long_ton", "1016.0469088")
        .aliases(&["ton", "tons"], "t")
        .aliases(&["ton", "tons"], "short_ton")
        .aliases(&["ton", "tons"], "long_ton")
        .unit("lb", "0.45359237")
        .aliases(&["lbs", "pound", "pounds"], "lb")
        .unit("oz", "0.028349523125")
        .aliases(&["ounce", "ounces"], "oz")
}

fn data_size() -> UnitFamily {
    let mut family = UnitFamily::new("data_size", "B").aliases(&["byte", "bytes"], "B");
    for (si, binary, power) in [
        ("kB", "KiB", 1),
        ("MB", "MiB", 2),
        ("GB", "GiB", 3),
        ("TB", "TiB", 4),
    ] {
        family = family
            .unit(si, &format!("1{}", "000".repeat(power)))
            .unit(binary, &(1u64 << (10 * power)).to_string());
        // The SI spelling is also used for the binary unit: it reads both ways.
        let upper = si.to_ascii_uppercase();
        family = family.alias(&upper, si).alias(&upper, binary);
    }
    family
}

/// Every reading of `text` as a quantity of `family`, in base units: `"90 min"`, `"1.5 h"`,
/// `"1h30m"`, `"2 days 3 hours"`; for durations also ISO 8601 (`PT1H30M`) and clock forms
/// (`1:30:00`; `1:30` is an hour and a half or a minute and a half). `None` when the text holds
/// no unit (a bare number), so the caller applies the declared unit; an empty list when it
/// cannot be read.
pub(crate) fn quantity_readings(text: &str, family: &UnitFamily) -> Option<Vec<CanonicalDecimal>> {
    let text = text.trim();
    if !number_readings(text).is_empty() {
        return None;
    }
    if family.name == "duration" {
        if let Some(readings) = iso_duration(text).or_else(|| clock(text)) {
            return Some(readings);
        }
    }
    Some(compound(text, family).unwrap_or_default())
}

/// `2 days 3 hours`, `1h30m`, `1.5 hours`: numbers each followed by a unit.
fn compound(text: &str, family: &UnitFamily) -> Option<Vec<CanonicalDecimal>> {
    let mut totals = vec![CanonicalDecimal::ZERO];
    let mut rest = text.trim();
    let mut previous: Option<&str> = None;
    while !rest.is_empty() {
        let number_end = rest
            .char_indices()
            .find(|(_, c)| !(c.is_ascii_digit() || matches!(c, '.' | ',' | '-' | '+')))
            .map_or(rest.len(), |(i, _)| i);
        let (number, after) = rest.split_at(number_end);
        let after = after.trim_start();
        let unit_end = after
            .char_indices()
            .find(|(_, c)| c.is_ascii_digit())
            .map_or(after.len(), |(i, _)| i);
        let (unit, next) = after.split_at(unit_end);
        let unit = unit.trim().trim_end_matches([',', ';']).trim();
        let unit = unit.strip_suffix(" and").unwrap_or(unit).trim();
        let values = number_readings(number);
        // `m` alone could be minutes or months, but after hours (`1h30m`) it is minutes.
        let unit = match (unit, previous) {
            ("m" | "M", Some("h")) if family.name == "duration" => "min",
            _ => unit,
        };
        let units = family.units_named(unit);
        previous = units.first().map(|u| u.name.as_str());
        if values.is_empty() || units.is_empty() {
            return None;
        }
        let mut next_totals = Vec::new();
        for total in &totals {
            for value in &values {
                for unit in &units {
                    let sum = value
                        .value
                        .checked_mul(unit.factor)
                        .and_then(|part| total.checked_add(part))?;
                    if !next_totals.contains(&sum) {
                        next_totals.push(sum);
                    }
                }
            }
        }
        totals = next_totals;
        rest = next.trim_start();
    }
    Some(totals)
}

/// ISO 8601 durations with fixed-length parts: `P1W`, `P2D`, `PT1H30M`, `P1DT2H`, `PT0.5S`.
/// Years and months have no fixed length, so a duration holding them has no reading.
fn iso_duration(text: &str) -> Option<Vec<CanonicalDecimal>> {
    let body = text.strip_prefix(['P', 'p'])?;
    if body.is_empty() {
        return Some(Vec::new());
    }
    let mut total = CanonicalDecimal::ZERO;
    let mut in_time = false;
    let mut number = String::new();
    for c in body.chars() {
        match c.to_ascii_uppercase() {
            'T' if !in_time && number.is_empty() => in_time = true,
            d if d.is_ascii_digit() || d == '.' || d == ',' => {
                number.push(if d == ',' { '.' } else { d })
            }
            unit => {
                let seconds = match (unit, in_time) {
                    ('W', false) => 604_800,
                    ('D', false) => 86_400,
                    ('H', true) => 3_600,
                    ('M', true) => 60,
                    ('S', true) => 1,
                    _ => return Some(Vec::new()),
                };
                let value = CanonicalDecimal::parse(&number)?;
                let part = value.checked_mul(CanonicalDecimal::from_int(seconds))?;
                total = total.checked_add(part)?;
                number.clear();
            }
        }
    }
    Some(if number.is_empty() {
        vec![total]
    } else {
        Vec::new()
    })
}

/// `H:MM:SS` has one reading; `A:BB` is hours and minutes or minutes and seconds.
fn clock(text: &str) -> Option<Vec<CanonicalDecimal>> {
    let parts: Vec<&str> = text.split(':').collect();
    let number = |s: &str| -> Option<i64> {
        (!s.is_empty() && s.len() <= 6 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())?
    };
    let sixty = |s: &str| s.len() == 2 && number(s).is_some_and(|v| v < 60);
    match parts.as_slice() {
        [h, m, s] if sixty(m) && sixty(s) => Some(vec![CanonicalDecimal::from_int(
            number(h)? * 3600 + number(m)? * 60 + number(s)?,
        )]),
        [a, b] if sixty(b) => {
            let (a, b) = (number(a)?, number(b)?);
            Some(vec![
                CanonicalDecimal::from_int(a * 3600 + b * 60),
                CanonicalDecimal::from_int(a * 60 + b),
            ])
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seconds(text: &str) -> Option<Vec<String>> {
        quantity_readings(text, &duration()).map(|r| r.into_iter().map(|d| d.to_string()).collect())
    }

    #[test]
    fn durations_in_many_spellings() {
        assert_eq!(seconds("1.5 hours"), Some(vec!["5400".into()]));
        assert_eq!(seconds("90 min"), Some(vec!["5400".into()]));
        assert_eq!(seconds("1h30m"), Some(vec!["5400".into()]));
        assert_eq!(seconds("30m"), Some(vec![]), "minutes or months");
        assert_eq!(seconds("1h30min"), Some(vec!["5400".into()]));
        assert_eq!(seconds("1 hour 30 minutes"), Some(vec!["5400".into()]));
        assert_eq!(seconds("2 days, 3 hours"), Some(vec!["183600".into()]));
        assert_eq!(seconds("PT1H30M"), Some(vec!["5400".into()]));
        assert_eq!(seconds("P1DT0.5S"), Some(vec!["86400.5".into()]));
        assert_eq!(seconds("P1M"), Some(vec![]), "months have no fixed length");
        assert_eq!(seconds("1:30:00"), Some(vec!["5400".into()]));
        assert_eq!(seconds("1:30"), Some(vec!["5400".into(), "90".into()]));
        assert_eq!(seconds("1,5 h"), Some(vec!["5400".into()]));
        assert_eq!(seconds("soon"), Some(vec![]));
        assert_eq!(seconds("0.1 s 0.2 s"), Some(vec!["0.3".into()]), "exactly");
        assert_eq!(
            seconds("PT0.000000000000000000000000000001S"),
            Some(vec!["0.000000000000000000000000000001".into()])
        );
        assert_eq!(
            seconds("P1DT0.000000000000000000001S"),
            Some(vec!["86400.000000000000000000001".into()])
        );
        // 38 significant digits: past the 96 bits a sum is computed in.
        assert_eq!(
            seconds("P1DT0.000000000000000000000000000001S"),
            Some(vec![])
        );
        assert_eq!(
            seconds("3 ns 0.000000000000000000000000003 s"),
            Some(vec!["0.000000003000000000000000003".into()])
        );
        assert_eq!(
            seconds("1.5"),
            None,
            "a bare number takes the declared unit"
        );
    }

    #[test]
    fn ambiguous_unit_names_read_every_way() {
        let data = data_size();
        let gb: Vec<String> = data
            .units_named("GB")
            .iter()
            .map(|u| u.factor().to_string())
            .collect();
        assert_eq!(gb, ["1000000000", "1073741824"]);
        assert_eq!(data.units_named("kB").len(), 1);
        assert_eq!(data.units_named("kb").len(), 2);
        assert_eq!(mass().units_named("ton").len(), 3);
        assert_eq!(length().units_named("ft")[0].factor().to_string(), "0.3048");
    }

    #[test]
    fn custom_families() {
        let volume = UnitFamily::new("volume", "ml")
            .unit("l", "1000")
            .aliases(&["liter", "litre"], "l");
        let got = quantity_readings("1.5 litre", &volume).unwrap();
        assert_eq!(got, vec![CanonicalDecimal::from_int(1500)]);
    }
}
