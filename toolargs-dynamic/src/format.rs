//! The `format` values the gate asserts. JSON Schema 2020-12 makes `format` an annotation by
//! default; these are the ones tool authors mean as a promise about the value, each checked
//! by its RFC and rejected with a code of its own. Any other `format` loads with a warning.

use std::net::{Ipv4Addr, Ipv6Addr};

use toolargs_core::report::Code;

/// An asserted format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// RFC 3339 `full-date`, read by the date coercer (which may repair nothing, and rejects
    /// other layouts with `ambiguous_date`).
    Date,
    /// RFC 3339 `date-time` with an explicit offset, read by the date-time coercer.
    DateTime,
    /// RFC 3339 `full-time`: `hh:mm:ss[.frac](Z|±hh:mm)`.
    Time,
    /// RFC 5321 mailbox.
    Email,
    /// RFC 4122 hyphenated form.
    Uuid,
    /// RFC 3986 absolute URI.
    Uri,
    /// RFC 2673 dotted quad.
    Ipv4,
    /// RFC 4291 text form.
    Ipv6,
    /// RFC 1123 host name.
    Hostname,
}

impl Format {
    /// The asserted format of this name, if it is one.
    pub fn named(name: &str) -> Option<Format> {
        Some(match name {
            "date" => Format::Date,
            "date-time" => Format::DateTime,
            "time" => Format::Time,
            "email" => Format::Email,
            "uuid" => Format::Uuid,
            "uri" => Format::Uri,
            "ipv4" => Format::Ipv4,
            "ipv6" => Format::Ipv6,
            "hostname" => Format::Hostname,
            _ => return None,
        })
    }

    /// The names [`Format::named`] knows, for messages.
    pub const NAMES: &'static str = "date, date-time, time, email, uuid, uri, ipv4, ipv6, hostname";

    /// The code a string of the wrong format is rejected with, and what it should be.
    pub fn code(self) -> (Code, &'static str) {
        match self {
            Format::Date => (Code::InvalidDate, "a date written YYYY-MM-DD"),
            Format::DateTime => (Code::InvalidDatetime, "an RFC 3339 date-time"),
            Format::Time => (
                Code::InvalidTime,
                "an RFC 3339 time with an offset, such as 14:30:00Z",
            ),
            Format::Email => (Code::InvalidEmail, "an email address"),
            Format::Uuid => (
                Code::InvalidUuid,
                "a UUID such as 0b0f4a5e-2c1d-4e8f-9a3b-7c6d5e4f3a2b",
            ),
            Format::Uri => (
                Code::InvalidUri,
                "an absolute URI such as https://example.com/a",
            ),
            Format::Ipv4 => (Code::InvalidIpv4, "an IPv4 address such as 192.0.2.1"),
            Format::Ipv6 => (Code::InvalidIpv6, "an IPv6 address such as 2001:db8::1"),
            Format::Hostname => (Code::InvalidHostname, "a host name such as example.com"),
        }
    }

    /// Whether `s` is of this format. Dates and date-times are read by their coercers instead.
    pub fn accepts(self, s: &str) -> bool {
        match self {
            Format::Date | Format::DateTime => true,
            Format::Time => is_time(s),
            Format::Email => is_email(s),
            Format::Uuid => is_uuid(s),
            Format::Uri => is_uri(s),
            // The standard library's parser refuses leading zeros, which some readers take
            // as octal: one text, two addresses.
            Format::Ipv4 => s.parse::<Ipv4Addr>().is_ok(),
            Format::Ipv6 => is_ipv6(s),
            Format::Hostname => is_hostname(s),
        }
    }
}

fn digits(s: &str, at: usize, n: usize) -> Option<u32> {
    let part = s.get(at..at + n)?;
    if !part.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    part.parse().ok()
}

/// `hh:mm:ss[.frac]` then `Z` or `±hh:mm`. A leap second is valid only where it falls on
/// 23:59:60 UTC.
fn is_time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(h), Some(m), Some(sec)) = (digits(s, 0, 2), digits(s, 3, 2), digits(s, 6, 2)) else {
        return false;
    };
    let mut at = 8;
    if b.get(at) == Some(&b'.') {
        let frac = b[at + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if frac == 0 {
            return false;
        }
        at += 1 + frac;
    }
    let (offset_minutes, rest) = match b.get(at) {
        Some(b'Z' | b'z') => (0i64, at + 1),
        Some(sign @ (b'+' | b'-')) => {
            if b.get(at + 3) != Some(&b':') {
                return false;
            }
            let (Some(oh), Some(om)) = (digits(s, at + 1, 2), digits(s, at + 4, 2)) else {
                return false;
            };
            if oh > 23 || om > 59 {
                return false;
            }
            let minutes = i64::from(oh * 60 + om);
            (if *sign == b'+' { minutes } else { -minutes }, at + 6)
        }
        _ => return false,
    };
    if rest != b.len() || h > 23 || m > 59 || sec > 60 {
        return false;
    }
    if sec == 60 {
        let utc = (i64::from(h * 60 + m) - offset_minutes).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

fn is_uri(s: &str) -> bool {
    // `Uri` is RFC 3986's `URI`, which has a scheme; relative references are `UriRef`.
    fluent_uri::Uri::parse(s).is_ok()
}

/// RFC 5321: `email_address` reads the local part and the form; the domain must then be a
/// host name or an address literal that is a real address (`[127.0.0.1]`, `[IPv6:::1]`).
fn is_email(s: &str) -> bool {
    if email_address::EmailAddress::parse_with_options(s, email_address::Options::default())
        .is_err()
    {
        return false;
    }
    let Some((_, domain)) = s.rsplit_once('@') else {
        return false;
    };
    match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(literal) => match literal.strip_prefix("IPv6:") {
            Some(v6) => is_ipv6(v6),
            None => literal.parse::<Ipv4Addr>().is_ok(),
        },
        None => is_hostname(domain),
    }
}

fn is_ipv6(s: &str) -> bool {
    // Zone indices (`%eth0`) are not part of the address form JSON Schema names.
    !s.contains('%') && s.parse::<Ipv6Addr>().is_ok()
}

/// RFC 1123: dot-separated labels of letters, digits and inner hyphens, each 1 to 63
/// characters, 253 in all. A trailing dot is not part of the form. An `xn--` label is checked
/// for this form only: it is not decoded and held to IDNA2008's rules.
fn is_hostname(s: &str) -> bool {
    if s.is_empty() || s.len() > 253 {
        return false;
    }
    s.split('.').all(|label| {
        let b = label.as_bytes();
        !b.is_empty()
            && b.len() <= 63
            && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
            && b[0] != b'-'
            && b[b.len() - 1] != b'-'
            // `xn--` labels are punycode; two hyphens in third and fourth place are reserved
            // for it.
            && !(b.len() >= 4 && b[2] == b'-' && b[3] == b'-' && !label.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("xn")))
    })
}

#[cfg(test)]
mod tests {
    use super::Format;

    #[test]
    fn each_format_accepts_its_form_and_refuses_a_near_miss() {
        for (format, good, bad) in [
            (Format::Time, "08:30:06Z", "8:30:06Z"),
            (Format::Time, "23:59:60Z", "22:59:60Z"),
            (Format::Time, "15:59:60-08:00", "08:30:06"),
            (Format::Email, "joe.bloggs@example.com", "2962"),
            (
                Format::Email,
                "joe.bloggs@[127.0.0.1]",
                "joe.bloggs@[127.0.0.300]",
            ),
            (
                Format::Email,
                "joe.bloggs@[IPv6:::1]",
                "joe.bloggs@invalid=domain.com",
            ),
            (
                Format::Uuid,
                "2eb8aa08-aa98-11ea-b4aa-73b441d16380",
                "2eb8aa08-aa98-11ea-b4aa-73b441d1638",
            ),
            (Format::Uri, "http://example.com/a?b#c", "//example.com/a"),
            (Format::Ipv4, "192.168.0.1", "087.10.0.1"),
            (Format::Ipv6, "::1", "12345::"),
            (
                Format::Hostname,
                "www.example.com",
                "-a-host-name-that-starts-with--",
            ),
        ] {
            assert!(format.accepts(good), "{format:?} {good}");
            assert!(!format.accepts(bad), "{format:?} {bad}");
        }
    }
}
