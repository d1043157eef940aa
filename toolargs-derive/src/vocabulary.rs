//! The names the derive checks at compile time, each kept in one table that is read both to
//! parse an attribute and to list the choices when it names none of them. The effect, policy,
//! currency and unit tables mirror the runtime's; the tests of this module compare them with
//! `toolargs-core` and `toolargs-semantic`, which are only dev-dependencies, so the macro is
//! not built with the runtime.

use crate::model::{BuiltinFamily, EffectAttr, SemanticAttr, UnknownAttr};

/// The spellings of an attribute's values, each mapped to its value.
pub struct Choices<T: 'static>(&'static [(&'static str, T)]);

impl<T: Copy + PartialEq> Choices<T> {
    /// The value spelled `name`, if any.
    pub fn get(&self, name: &str) -> Option<T> {
        self.0.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
    }

    /// The spelling of `value`.
    pub fn name(&self, value: T) -> &'static str {
        self.0
            .iter()
            .find(|(_, v)| *v == value)
            .map(|&(n, _)| n)
            .expect("every value has a spelling")
    }

    /// Every spelling, in table order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.0.iter().map(|&(n, _)| n)
    }

    /// The spellings joined by `, `, for messages.
    pub fn list(&self) -> String {
        self.names().collect::<Vec<_>>().join(", ")
    }
}

/// `#[toolargs(effect = ...)]`, spelled as `toolargs_core::Effect::as_str`.
pub const EFFECTS: Choices<EffectAttr> = Choices(&[
    ("read_only", EffectAttr::ReadOnly),
    ("additive", EffectAttr::Additive),
    ("destructive", EffectAttr::Destructive),
    ("external", EffectAttr::External),
]);

/// `#[toolargs(unknown = ...)]`, spelled as `toolargs_core::UnknownPolicy::as_str`.
pub const UNKNOWN_POLICIES: Choices<UnknownAttr> = Choices(&[
    ("reject", UnknownAttr::Reject),
    ("strip", UnknownAttr::Strip),
]);

/// `#[arg(semantic = ...)]`: the canonical kinds, then the built-in unit families (each a
/// quantity kind of its own).
pub const SEMANTIC_KINDS: Choices<SemanticAttr> = Choices(&[
    ("money", SemanticAttr::Money),
    ("date", SemanticAttr::Date),
    ("datetime", SemanticAttr::DateTime),
    ("entity", SemanticAttr::Entity),
    ("quantity", SemanticAttr::Quantity),
    ("duration", SemanticAttr::Family(BuiltinFamily::Duration)),
    ("length", SemanticAttr::Family(BuiltinFamily::Length)),
    ("mass", SemanticAttr::Family(BuiltinFamily::Mass)),
    ("data_size", SemanticAttr::Family(BuiltinFamily::DataSize)),
]);

/// The unit families every semantic gate knows, by name.
pub const FAMILIES: Choices<BuiltinFamily> = Choices(&[
    ("duration", BuiltinFamily::Duration),
    ("length", BuiltinFamily::Length),
    ("mass", BuiltinFamily::Mass),
    ("data_size", BuiltinFamily::DataSize),
]);

/// A unit and the other spellings that stand for it.
pub struct UnitNames {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
}

const fn unit(name: &'static str, aliases: &'static [&'static str]) -> UnitNames {
    UnitNames { name, aliases }
}

impl BuiltinFamily {
    pub fn name(self) -> &'static str {
        FAMILIES.name(self)
    }

    /// Every unit of the family, base unit first, as the runtime lists them.
    pub fn units(self) -> &'static [UnitNames] {
        match self {
            BuiltinFamily::Duration => DURATION,
            BuiltinFamily::Length => LENGTH,
            BuiltinFamily::Mass => MASS,
            BuiltinFamily::DataSize => DATA_SIZE,
        }
    }

    /// True when `text` names a unit of the family as the runtime reads it: trimmed, and
    /// equal to a spelling up to ASCII case.
    pub fn knows(self, text: &str) -> bool {
        let text = text.trim();
        self.units().iter().any(|u| {
            std::iter::once(&u.name)
                .chain(u.aliases)
                .any(|n| n.eq_ignore_ascii_case(text))
        })
    }
}

const DURATION: &[UnitNames] = &[
    unit("s", &["sec", "secs", "second", "seconds"]),
    unit("ns", &["nanosecond", "nanoseconds"]),
    unit("us", &["µs", "μs", "microsecond", "microseconds"]),
    unit("ms", &["msec", "millisecond", "milliseconds"]),
    unit("min", &["mins", "minute", "minutes"]),
    unit("h", &["hr", "hrs", "hour", "hours"]),
    unit("d", &["day", "days"]),
    unit("w", &["wk", "wks", "week", "weeks"]),
];

const LENGTH: &[UnitNames] = &[
    unit("m", &["meter", "meters", "metre", "metres"]),
    unit(
        "mm",
        &["millimeter", "millimeters", "millimetre", "millimetres"],
    ),
    unit(
        "cm",
        &["centimeter", "centimeters", "centimetre", "centimetres"],
    ),
    unit(
        "km",
        &["kilometer", "kilometers", "kilometre", "kilometres"],
    ),
    unit("in", &["inch", "inches"]),
    unit("ft", &["foot", "feet"]),
    unit("yd", &["yard", "yards"]),
    unit("mi", &["mile", "miles"]),
    unit("nmi", &["nautical mile", "nautical miles"]),
];

/// `ton` is ambiguous: it stands for the metric, short and long ton alike.
const MASS: &[UnitNames] = &[
    unit("kg", &["kilogram", "kilograms", "kilo", "kilos"]),
    unit("mg", &["milligram", "milligrams"]),
    unit("g", &["gram", "grams", "gramme", "grammes"]),
    unit(
        "t",
        &[
            "tonne",
            "tonnes",
            "metric ton",
            "metric tons",
            "ton",
            "tons",
        ],
    ),
    unit("short_ton", &["ton", "tons"]),
    unit("long_ton", &["ton", "tons"]),
    unit("lb", &["lbs", "pound", "pounds"]),
    unit("oz", &["ounce", "ounces"]),
];

/// The upper-case SI spelling (`KB`) stands for both the SI and the binary unit.
const DATA_SIZE: &[UnitNames] = &[
    unit("B", &["byte", "bytes"]),
    unit("kB", &["KB"]),
    unit("KiB", &["KB"]),
    unit("MB", &[]),
    unit("MiB", &["MB"]),
    unit("GB", &[]),
    unit("GiB", &["GB"]),
    unit("TB", &[]),
    unit("TiB", &["TB"]),
];

/// True when `code` is an ISO 4217 code the runtime's currency table has, written as the
/// table writes it (upper case).
pub fn is_currency(code: &str) -> bool {
    CURRENCY_CODES.binary_search(&code).is_ok()
}

/// Active ISO 4217 codes, sorted; funds codes used in payments included, precious metals and
/// testing codes left out (they have no minor unit).
pub const CURRENCY_CODES: &[&str] = &[
    "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT",
    "BGN", "BHD", "BIF", "BMD", "BND", "BOB", "BOV", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD",
    "CAD", "CDF", "CHE", "CHF", "CHW", "CLF", "CLP", "CNY", "COP", "COU", "CRC", "CUP", "CVE",
    "CZK", "DJF", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL",
    "GHS", "GIP", "GMD", "GNF", "GTQ", "GYD", "HKD", "HNL", "HTG", "HUF", "IDR", "ILS", "INR",
    "IQD", "IRR", "ISK", "JMD", "JOD", "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD",
    "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL", "LYD", "MAD", "MDL", "MGA", "MKD", "MMK",
    "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXN", "MXV", "MYR", "MZN", "NAD", "NGN", "NIO",
    "NOK", "NPR", "NZD", "OMR", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR", "RON",
    "RSD", "RUB", "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SOS", "SRD",
    "SSP", "STN", "SVC", "SYP", "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TWD",
    "TZS", "UAH", "UGX", "USD", "USN", "UYI", "UYU", "UYW", "UZS", "VED", "VES", "VND", "VUV",
    "WST", "XAF", "XCD", "XCG", "XOF", "XPF", "YER", "ZAR", "ZMW", "ZWG",
];

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use toolargs_core::{Effect, UnknownPolicy};
    use toolargs_semantic::units::builtin_family;
    use toolargs_semantic::Currency;

    use super::{is_currency, BuiltinFamily, CURRENCY_CODES, EFFECTS, FAMILIES, UNKNOWN_POLICIES};
    use crate::check::UNDECLARED_EFFECT;
    use crate::model::{EffectAttr, UnknownAttr};

    /// Every effect of the runtime. The match has no wildcard, so a new variant in
    /// `toolargs-core` stops this test from compiling until the macro learns it.
    fn runtime_effects() -> Vec<Effect> {
        let all = [
            Effect::ReadOnly,
            Effect::Additive,
            Effect::Destructive,
            Effect::External,
        ];
        for effect in all {
            match effect {
                Effect::ReadOnly | Effect::Additive | Effect::Destructive | Effect::External => {}
            }
        }
        all.to_vec()
    }

    #[test]
    fn effect_names_are_the_runtimes() {
        let ours: Vec<&str> = EFFECTS.names().collect();
        let theirs: Vec<&str> = runtime_effects().into_iter().map(Effect::as_str).collect();
        assert_eq!(ours, theirs);
        // The same name means the same variant: the expander writes `Effect::<variant>`.
        for effect in runtime_effects() {
            let ours: EffectAttr = EFFECTS.get(effect.as_str()).unwrap();
            assert_eq!(format!("{ours:?}"), format!("{effect:?}"));
            assert_eq!(Effect::from_name(EFFECTS.name(ours)), Some(effect));
        }
        assert_eq!(
            format!("{UNDECLARED_EFFECT:?}"),
            format!("{:?}", Effect::default())
        );
    }

    #[test]
    fn unknown_policy_names_are_the_runtimes() {
        for policy in [UnknownPolicy::Reject, UnknownPolicy::Strip] {
            match policy {
                UnknownPolicy::Reject | UnknownPolicy::Strip => {}
            }
            let ours: UnknownAttr = UNKNOWN_POLICIES.get(policy.as_str()).unwrap();
            assert_eq!(format!("{ours:?}"), format!("{policy:?}"));
        }
        assert_eq!(UNKNOWN_POLICIES.names().count(), 2);
    }

    #[test]
    fn currency_codes_are_the_runtimes() {
        let ours: BTreeSet<&str> = CURRENCY_CODES.iter().copied().collect();
        let theirs: BTreeSet<&str> = Currency::all().map(Currency::code).collect();
        assert_eq!(ours, theirs);
        // Sorted, as the binary search needs; and read the way `Currency::from_code` reads.
        assert!(CURRENCY_CODES.windows(2).all(|w| w[0] < w[1]));
        for code in ["USD", "JPY", "usd", "Usd", "US", "USDT", "XAU", ""] {
            assert_eq!(
                is_currency(code),
                Currency::from_code(code).is_some(),
                "{code}"
            );
        }
    }

    #[test]
    fn unit_names_are_the_runtimes() {
        let families: Vec<BuiltinFamily> =
            FAMILIES.names().map(|n| FAMILIES.get(n).unwrap()).collect();
        let runtime: Vec<String> = toolargs_semantic::units::builtin_families()
            .iter()
            .map(|f| f.name().to_owned())
            .collect();
        assert_eq!(FAMILIES.names().collect::<Vec<_>>(), runtime);
        for family in families {
            let theirs = builtin_family(family.name()).unwrap();
            // The units, in the runtime's order (error messages list them).
            let units: Vec<&str> = family.units().iter().map(|u| u.name).collect();
            let runtime_units: Vec<&str> = theirs.units().iter().map(|u| u.name()).collect();
            assert_eq!(units, runtime_units, "{}", family.name());
            // Every spelling, both ways.
            let ours: BTreeSet<&str> = family
                .units()
                .iter()
                .flat_map(|u| std::iter::once(u.name).chain(u.aliases.iter().copied()))
                .collect();
            let spellings: BTreeSet<&str> = theirs.names().collect();
            assert_eq!(ours, spellings, "{}", family.name());
            // Each alias stands for the unit it is listed under.
            for unit in family.units() {
                for alias in unit.aliases {
                    assert!(
                        theirs
                            .units_named(alias)
                            .iter()
                            .any(|u| u.name() == unit.name),
                        "{alias} -> {}",
                        unit.name
                    );
                }
            }
            // What the macro accepts as a fixed unit is what the runtime reads.
            let probes = spellings
                .iter()
                .flat_map(|s| [s.to_string(), s.to_uppercase(), format!(" {s} ")])
                .chain(["hourz", "", "kib", "KIB", "nautical"].map(String::from));
            for probe in probes {
                assert_eq!(
                    family.knows(&probe),
                    !theirs.units_named(&probe).is_empty(),
                    "{probe:?} in {}",
                    family.name()
                );
            }
        }
    }
}
