//! ISO 4217 currencies and their minor units, currency symbols with every currency they can
//! stand for, and pinned exchange rates.
//!
//! The number of minor units comes from this table, never from the amount: `1500` yen is
//! ¥1500, `1500` fils is 1.500 Kuwaiti dinars, and a currency missing from the table is an
//! error, not a guess at two decimals.

use std::fmt;

use super::decimal::CanonicalDecimal;
use super::SemanticError;

/// An ISO 4217 currency with its number of minor units (decimal places).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Currency {
    code: &'static str,
    minor_units: u8,
}

/// Active ISO 4217 codes with their minor units. Funds codes that appear in payments (`BOV`,
/// `CLF`, `COU`, `MXV`, `USN`, `UYI`, `UYW`, `CHE`, `CHW`) are included; precious metals and
/// testing codes, which have no minor unit, are not.
const TABLE: &[(&str, u8)] = &[
    ("AED", 2),
    ("AFN", 2),
    ("ALL", 2),
    ("AMD", 2),
    ("ANG", 2),
    ("AOA", 2),
    ("ARS", 2),
    ("AUD", 2),
    ("AWG", 2),
    ("AZN", 2),
    ("BAM", 2),
    ("BBD", 2),
    ("BDT", 2),
    ("BGN", 2),
    ("BHD", 3),
    ("BIF", 0),
    ("BMD", 2),
    ("BND", 2),
    ("BOB", 2),
    ("BOV", 2),
    ("BRL", 2),
    ("BSD", 2),
    ("BTN", 2),
    ("BWP", 2),
    ("BYN", 2),
    ("BZD", 2),
    ("CAD", 2),
    ("CDF", 2),
    ("CHE", 2),
    ("CHF", 2),
    ("CHW", 2),
    ("CLF", 4),
    ("CLP", 0),
    ("CNY", 2),
    ("COP", 2),
    ("COU", 2),
    ("CRC", 2),
    ("CUP", 2),
    ("CVE", 2),
    ("CZK", 2),
    ("DJF", 0),
    ("DKK", 2),
    ("DOP", 2),
    ("DZD", 2),
    ("EGP", 2),
    ("ERN", 2),
    ("ETB", 2),
    ("EUR", 2),
    ("FJD", 2),
    ("FKP", 2),
    ("GBP", 2),
    ("GEL", 2),
    ("GHS", 2),
    ("GIP", 2),
    ("GMD", 2),
    ("GNF", 0),
    ("GTQ", 2),
    ("GYD", 2),
    ("HKD", 2),
    ("HNL", 2),
    ("HTG", 2),
    ("HUF", 2),
    ("IDR", 2),
    ("ILS", 2),
    ("INR", 2),
    ("IQD", 3),
    ("IRR", 2),
    ("ISK", 0),
    ("JMD", 2),
    ("JOD", 3),
    ("JPY", 0),
    ("KES", 2),
    ("KGS", 2),
    ("KHR", 2),
    ("KMF", 0),
    ("KPW", 2),
    ("KRW", 0),
    ("KWD", 3),
    ("KYD", 2),
    ("KZT", 2),
    ("LAK", 2),
    ("LBP", 2),
    ("LKR", 2),
    ("LRD", 2),
    ("LSL", 2),
    ("LYD", 3),
    ("MAD", 2),
    ("MDL", 2),
    ("MGA", 2),
    ("MKD", 2),
    ("MMK", 2),
    ("MNT", 2),
    ("MOP", 2),
    ("MRU", 2),
    ("MUR", 2),
    ("MVR", 2),
    ("MWK", 2),
    ("MXN", 2),
    ("MXV", 2),
    ("MYR", 2),
    ("MZN", 2),
    ("NAD", 2),
    ("NGN", 2),
    ("NIO", 2),
    ("NOK", 2),
    ("NPR", 2),
    ("NZD", 2),
    ("OMR", 3),
    ("PAB", 2),
    ("PEN", 2),
    ("PGK", 2),
    ("PHP", 2),
    ("PKR", 2),
    ("PLN", 2),
    ("PYG", 0),
    ("QAR", 2),
    ("RON", 2),
    ("RSD", 2),
    ("RUB", 2),
    ("RWF", 0),
    ("SAR", 2),
    ("SBD", 2),
    ("SCR", 2),
    ("SDG", 2),
    ("SEK", 2),
    ("SGD", 2),
    ("SHP", 2),
    ("SLE", 2),
    ("SOS", 2),
    ("SRD", 2),
    ("SSP", 2),
    ("STN", 2),
    ("SVC", 2),
    ("SYP", 2),
    ("SZL", 2),
    ("THB", 2),
    ("TJS", 2),
    ("TMT", 2),
    ("TND", 3),
    ("TOP", 2),
    ("TRY", 2),
    ("TTD", 2),
    ("TWD", 2),
    ("TZS", 2),
    ("UAH", 2),
    ("UGX", 0),
    ("USD", 2),
    ("USN", 2),
    ("UYI", 0),
    ("UYU", 2),
    ("UYW", 4),
    ("UZS", 2),
    ("VED", 2),
    ("VES", 2),
    ("VND", 0),
    ("VUV", 0),
    ("WST", 2),
    ("XAF", 0),
    ("XCD", 2),
    ("XCG", 2),
    ("XOF", 0),
    ("XPF", 0),
    ("YER", 2),
    ("ZAR", 2),
    ("ZMW", 2),
    ("ZWG", 2),
];

/// Symbols and prefixed symbols with every currency each is written for. A symbol shared by
/// several currencies has several readings; the gate never picks one.
const SYMBOLS: &[(&str, &[&str])] = &[
    ("US$", &["USD"]),
    ("CA$", &["CAD"]),
    ("C$", &["CAD", "NIO"]),
    ("AU$", &["AUD"]),
    ("A$", &["AUD"]),
    ("NZ$", &["NZD"]),
    ("HK$", &["HKD"]),
    ("S$", &["SGD"]),
    ("MX$", &["MXN"]),
    ("NT$", &["TWD"]),
    ("R$", &["BRL"]),
    (
        "$",
        &[
            "USD", "CAD", "AUD", "NZD", "SGD", "HKD", "MXN", "ARS", "CLP", "COP",
        ],
    ),
    ("€", &["EUR"]),
    ("£", &["GBP", "EGP", "FKP", "GIP", "SHP", "SSP"]),
    ("¥", &["JPY", "CNY"]),
    ("￥", &["JPY", "CNY"]),
    ("元", &["CNY"]),
    ("₹", &["INR"]),
    ("₩", &["KRW"]),
    ("₽", &["RUB"]),
    ("₺", &["TRY"]),
    ("₪", &["ILS"]),
    ("₫", &["VND"]),
    ("₱", &["PHP"]),
    ("฿", &["THB"]),
    ("₴", &["UAH"]),
    ("₦", &["NGN"]),
    ("zł", &["PLN"]),
    ("Kč", &["CZK"]),
    ("kr", &["SEK", "NOK", "DKK", "ISK"]),
];

impl Currency {
    /// The currency with this ISO 4217 code, written in upper case (`"USD"`), or `None` when
    /// the table does not have it.
    pub fn from_code(code: &str) -> Option<Currency> {
        TABLE
            .binary_search_by(|(c, _)| (*c).cmp(code))
            .ok()
            .map(|i| Currency {
                code: TABLE[i].0,
                minor_units: TABLE[i].1,
            })
    }

    /// Every currency in the table, by code.
    pub fn all() -> impl Iterator<Item = Currency> {
        TABLE
            .iter()
            .map(|&(code, minor_units)| Currency { code, minor_units })
    }

    /// The ISO 4217 code.
    pub fn code(self) -> &'static str {
        self.code
    }

    /// Decimal places of the minor unit: 2 for USD, 0 for JPY, 3 for KWD and BHD.
    pub fn minor_units(self) -> u32 {
        u32::from(self.minor_units)
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code)
    }
}

/// Every currency `text` can name: an ISO code in any ASCII case (`usd`), or a symbol (`$`
/// names ten). Empty for text that names none.
pub fn currencies_named(text: &str) -> Vec<Currency> {
    let text = text.trim();
    if text.len() == 3 && text.is_ascii() {
        if let Some(c) = Currency::from_code(&text.to_ascii_uppercase()) {
            return vec![c];
        }
    }
    symbol_currencies(text).unwrap_or_default()
}

/// The currencies of a symbol, when `text` is one.
pub(crate) fn symbol_currencies(text: &str) -> Option<Vec<Currency>> {
    SYMBOLS.iter().find(|(s, _)| *s == text).map(|(_, codes)| {
        codes
            .iter()
            .filter_map(|c| Currency::from_code(c))
            .collect()
    })
}

/// Symbols and codes that may stand before or after an amount in text, longest first, so
/// `US$` is tried before `$`.
pub(crate) fn markers() -> impl Iterator<Item = &'static str> {
    SYMBOLS.iter().map(|(s, _)| *s)
}

/// A caller-supplied exchange rate, pinned for the comparison: one unit of `from` is `rate`
/// units of `to`. Rates are never looked up; without one, amounts in different currencies are
/// not equivalent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    from: Currency,
    to: Currency,
    rate: CanonicalDecimal,
}

impl Rate {
    /// A rate from `from` into `to`, as a plain decimal (`Rate::new("USD", "CAD", "1.37")`).
    /// An unknown code or a rate that is not a positive decimal is an error.
    pub fn new(from: &str, to: &str, rate: &str) -> Result<Rate, SemanticError> {
        let currency = |code: &str| {
            Currency::from_code(code).ok_or_else(|| {
                SemanticError::new(format!("unknown ISO 4217 currency code {code:?}"))
            })
        };
        let value = CanonicalDecimal::parse(rate)
            .filter(|r| !r.is_negative() && *r != CanonicalDecimal::ZERO)
            .ok_or_else(|| {
                SemanticError::new(format!("rate {rate:?} is not a positive decimal"))
            })?;
        Ok(Rate {
            from: currency(from)?,
            to: currency(to)?,
            rate: value,
        })
    }

    /// The currency converted from.
    pub fn from(&self) -> Currency {
        self.from
    }

    /// The currency converted into.
    pub fn to(&self) -> Currency {
        self.to
    }

    /// Units of `to` for one unit of `from`.
    pub fn rate(&self) -> CanonicalDecimal {
        self.rate
    }

    /// Converts an amount in minor units of `from` into minor units of `to`, rounded half to
    /// even.
    pub fn convert_minor(&self, minor: i128) -> Option<i128> {
        let major = CanonicalDecimal::from_i128(minor)?.shift(-i64::from(self.from.minor_units))?;
        let converted = major.checked_mul(self.rate)?;
        converted
            .shift(i64::from(self.to.minor_units))?
            .round_half_even(0)
            .to_integer()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_has_the_odd_exponents() {
        assert!(TABLE.windows(2).all(|w| w[0].0 < w[1].0), "sorted");
        let units = |c: &str| Currency::from_code(c).map(|c| c.minor_units());
        assert_eq!(units("USD"), Some(2));
        assert_eq!(units("JPY"), Some(0));
        assert_eq!(units("KRW"), Some(0));
        assert_eq!(units("KWD"), Some(3));
        assert_eq!(units("BHD"), Some(3));
        assert_eq!(units("CLF"), Some(4));
        assert_eq!(units("usd"), None, "codes are upper case");
        assert_eq!(units("XAU"), None, "gold has no minor unit");
        assert_eq!(units("ABC"), None);
        for (_, codes) in SYMBOLS {
            for code in *codes {
                assert!(Currency::from_code(code).is_some(), "{code}");
            }
        }
    }

    #[test]
    fn names_read_as_every_currency_they_can_mean() {
        let codes = |t: &str| -> Vec<&str> {
            currencies_named(t)
                .into_iter()
                .map(Currency::code)
                .collect()
        };
        assert_eq!(codes("usd"), ["USD"]);
        assert_eq!(codes(" CAD "), ["CAD"]);
        assert_eq!(codes("¥"), ["JPY", "CNY"]);
        assert!(codes("$").len() > 5);
        assert_eq!(codes("US$"), ["USD"]);
        assert!(codes("dollars").is_empty());
        assert!(codes("XYZ").is_empty());
    }

    #[test]
    fn rates_convert_in_minor_units() {
        let rate = Rate::new("USD", "CAD", "1.37").unwrap();
        assert_eq!(rate.convert_minor(10_000), Some(13_700));
        let yen = Rate::new("USD", "JPY", "151.237").unwrap();
        assert_eq!(yen.convert_minor(100), Some(151));
        let kwd = Rate::new("USD", "KWD", "0.3075").unwrap();
        assert_eq!(kwd.convert_minor(10_000), Some(30_750));
        assert!(Rate::new("USD", "XYZ", "1").is_err());
        assert!(Rate::new("USD", "CAD", "-1").is_err());
        assert!(Rate::new("USD", "CAD", "1,3").is_err());
        assert!(Rate::new("USD", "CAD", "1.37000000000000000000000000001").is_err());
        let fine = Rate::new("USD", "CAD", "1.3700000000000000000000000001").unwrap();
        assert_eq!(fine.convert_minor(10_000), Some(13_700));
    }
}
