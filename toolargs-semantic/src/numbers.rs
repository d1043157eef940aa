//! Readings of numbers written as text. A dot is a decimal point, as in JSON (the parser repairs
//! `"19.99"` to 19.99 on the same ground); a lone comma followed by three digits can be a
//! thousands separator or a decimal comma, so `"1,500"` reads as both 1500 and 1.5.

use super::decimal::CanonicalDecimal;

/// One way to read a number: its value and how many fractional digits were written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NumberReading {
    pub value: CanonicalDecimal,
    /// Digits written after the decimal mark (`15.00` has 2), which money reads as a sign of
    /// an amount written in major units.
    pub fraction_digits: u32,
}

/// Every value `text` can be read as; empty when it is not a number.
pub(crate) fn number_readings(text: &str) -> Vec<NumberReading> {
    let text = text.trim();
    let (sign, body) = match text.as_bytes().first() {
        Some(b'-') => ("-", text[1..].trim_start()),
        Some(b'+') => ("", text[1..].trim_start()),
        _ => ("", text),
    };
    if body.is_empty() {
        return Vec::new();
    }
    // Plain JSON-style numbers, exponents included, have one reading.
    if let Some(value) = CanonicalDecimal::parse(&format!("{sign}{body}")) {
        let mantissa = body.split(['e', 'E']).next().unwrap_or(body);
        let fraction_digits = mantissa.split_once('.').map_or(0, |(_, f)| f.len() as u32);
        return vec![NumberReading {
            value,
            fraction_digits,
        }];
    }
    // Spaces, narrow spaces, apostrophes and underscores only ever group digits.
    let grouped: String = body
        .chars()
        .filter(|c| !matches!(c, ' ' | '\u{a0}' | '\u{202f}' | '\'' | '_'))
        .collect();
    if grouped.len() != body.len() && !groups_ok(&body.replace(['\u{a0}', '\u{202f}'], " ")) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let commas = grouped.matches(',').count();
    let dots = grouped.matches('.').count();
    let mut push = |int: &str, frac: &str| {
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if int.is_empty() || !digits(int) || !digits(frac) {
            return;
        }
        let joined = if frac.is_empty() {
            format!("{sign}{int}")
        } else {
            format!("{sign}{int}.{frac}")
        };
        if let Some(value) = CanonicalDecimal::parse(&joined) {
            let reading = NumberReading {
                value,
                fraction_digits: frac.len() as u32,
            };
            if !out.contains(&reading) {
                out.push(reading);
            }
        }
    };
    match (commas, dots) {
        (0, 0) => push(&grouped, ""),
        (0, 1) => {
            let (int, frac) = grouped.split_once('.').unwrap_or((&grouped, ""));
            push(int, frac);
        }
        (0, _) => {
            // Several dots can only be grouping: 1.500.000.
            if thousands(&grouped, '.') {
                push(&grouped.replace('.', ""), "");
            }
        }
        (_, 0) => {
            if commas > 1 {
                if thousands(&grouped, ',') {
                    push(&grouped.replace(',', ""), "");
                }
            } else {
                let (int, frac) = grouped.split_once(',').unwrap_or((&grouped, ""));
                if frac.len() == 3 && thousands(&grouped, ',') {
                    push(&format!("{int}{frac}"), "");
                }
                push(int, frac);
            }
        }
        _ => {
            // Both marks: the last one is the decimal mark, the other groups thousands.
            let decimal = if grouped.rfind(',') > grouped.rfind('.') {
                ','
            } else {
                '.'
            };
            let other = if decimal == ',' { '.' } else { ',' };
            let at = grouped.rfind(decimal).unwrap_or(0);
            let (int, frac) = (&grouped[..at], &grouped[at + 1..]);
            if grouped.matches(decimal).count() == 1 && thousands(int, other) {
                push(&int.replace(other, ""), frac);
            }
        }
    }
    out
}

/// True when `text` is grouped in threes by `mark` after a first group of one to three
/// digits without a leading zero: `1,500`, `12,345,678`.
fn thousands(text: &str, mark: char) -> bool {
    let mut groups = text.split(mark);
    let first = groups.next().unwrap_or("");
    (1..=3).contains(&first.len())
        && !first.starts_with('0')
        && first.bytes().all(|b| b.is_ascii_digit())
        && groups.all(|g| g.len() == 3 && g.bytes().all(|b| b.is_ascii_digit()))
}

/// Spaces, apostrophes and underscores are accepted only between groups of three digits.
fn groups_ok(text: &str) -> bool {
    let marks = [' ', '\'', '_'];
    let int_end = text.find([',', '.']).unwrap_or(text.len());
    let int = &text[..int_end];
    let mut groups = int.split(marks);
    let first = groups.next().unwrap_or("");
    (1..=3).contains(&first.len()) && groups.all(|g| g.len() == 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(text: &str) -> Vec<String> {
        number_readings(text)
            .into_iter()
            .map(|r| r.value.to_string())
            .collect()
    }

    #[test]
    fn one_reading_where_there_is_one() {
        assert_eq!(values("1500"), ["1500"]);
        assert_eq!(values(" 19.99 "), ["19.99"]);
        assert_eq!(values("1.500"), ["1.5"]);
        assert_eq!(values("1e3"), ["1000"]);
        assert_eq!(values("-5"), ["-5"]);
        assert_eq!(values("+5"), ["5"]);
        assert_eq!(values("1,50"), ["1.5"]);
        assert_eq!(values("1,500,000"), ["1500000"]);
        assert_eq!(values("1.500.000"), ["1500000"]);
        assert_eq!(values("1,500.25"), ["1500.25"]);
        assert_eq!(values("1.500,25"), ["1500.25"]);
        assert_eq!(values("1 500"), ["1500"]);
        assert_eq!(values("1'500.50"), ["1500.5"]);
        assert_eq!(values("0,500"), ["0.5"]);
    }

    #[test]
    fn a_thousands_comma_is_also_a_decimal_comma() {
        assert_eq!(values("1,500"), ["1500", "1.5"]);
        assert_eq!(values("-12,345"), ["-12345", "-12.345"]);
    }

    #[test]
    fn not_numbers() {
        for text in [
            "",
            "abc",
            "1,5,0",
            "1 50",
            "1.2.3",
            "1,500.2,5",
            "--1",
            "١٢",
            "½",
            "123456789012345678901234567891",
            "1,234,567,890,123,456,789,012,345,678,911",
        ] {
            assert!(values(text).is_empty(), "{text}: {:?}", values(text));
        }
    }

    #[test]
    fn fraction_digits_are_as_written() {
        let r = number_readings("15.00");
        assert_eq!(r[0].fraction_digits, 2);
        assert_eq!(r[0].value.to_string(), "15");
        assert_eq!(number_readings("1,500")[1].fraction_digits, 3);
    }
}
