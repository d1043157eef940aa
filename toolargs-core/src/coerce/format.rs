//! The `format` values the gate asserts, one check each, shared by both front doors: a loaded
//! schema's `format` keyword and the derive's types of that format (`uuid::Uuid`, `url::Url`,
//! `std::net::Ipv4Addr`, `std::net::Ipv6Addr`, the `chrono` dates) call the same function, so
//! a string has one verdict whichever door it comes through.
//!
//! JSON Schema 2020-12 makes `format` an annotation by default; these are the formats tool
//! authors mean as a promise about the value, each checked by its RFC and rejected with a code
//! of its own. Dates and date-times are read by their coercers ([`super::date`],
//! [`super::datetime`]), which also repair what has one meaning.
//!
//! ```
//! use toolargs_core::coerce::format::Format;
//!
//! let uri = Format::named("uri").unwrap();
//! assert!(uri.accepts("https://example.com/a?b#c"));
//! assert!(!uri.accepts("//example.com/a"), "a reference, not a URI: it has no scheme");
//! assert!(!uri.accepts("http://087.10.0.1/"), "octal to some readers, decimal to others");
//! ```

use std::borrow::Cow;
use std::net::{Ipv4Addr, Ipv6Addr};

use chrono::{DateTime, FixedOffset, NaiveDate};

use super::ArgType;
use crate::cx::Cx;
use crate::node::Node;
use crate::path::Path;
use crate::report::Code;
use crate::spec::{FieldSpec, UnknownPolicy};

/// An asserted format.
///
/// Marked `#[non_exhaustive]`: a format may be added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
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
    /// RFC 3986 absolute URI; under the schemes of the URL standard (`http`, `https`, `ws`,
    /// `wss`, `ftp`, `file`), with a host that every URL reader reads the same way.
    Uri,
    /// RFC 2673 dotted quad.
    Ipv4,
    /// RFC 4291 text form.
    Ipv6,
    /// RFC 1123 host name.
    Hostname,
}

impl Format {
    /// Every format, in the order of [`Format::NAMES`].
    pub const ALL: [Format; 9] = [
        Format::Date,
        Format::DateTime,
        Format::Time,
        Format::Email,
        Format::Uuid,
        Format::Uri,
        Format::Ipv4,
        Format::Ipv6,
        Format::Hostname,
    ];

    /// The asserted format of this name, if it is one.
    pub fn named(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|format| format.name() == name)
    }

    /// The format's name in JSON Schema, the inverse of [`Format::named`].
    pub const fn name(self) -> &'static str {
        match self {
            Format::Date => "date",
            Format::DateTime => "date-time",
            Format::Time => "time",
            Format::Email => "email",
            Format::Uuid => "uuid",
            Format::Uri => "uri",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Hostname => "hostname",
        }
    }

    /// The names [`Format::named`] knows, for messages.
    pub const NAMES: &'static str = "date, date-time, time, email, uuid, uri, ipv4, ipv6, hostname";

    /// The code a string of the wrong format is rejected with, and what it should be.
    fn expected(self) -> (Code, &'static str) {
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
                "a UUID written 8-4-4-4-12 hexadecimal digits, such as \
                 123e4567-e89b-12d3-a456-426614174000",
            ),
            Format::Uri => (
                Code::InvalidUri,
                "an absolute URI such as https://example.com/a, with any space or non-ASCII \
                 character percent-encoded",
            ),
            Format::Ipv4 => (Code::InvalidIpv4, "an IPv4 address such as 192.0.2.1"),
            Format::Ipv6 => (Code::InvalidIpv6, "an IPv6 address such as 2001:db8::1"),
            Format::Hostname => (Code::InvalidHostname, "a host name such as example.com"),
        }
    }

    /// Whether `s` is of this format as sent: [`Format::check`] accepts it and repairs
    /// nothing.
    pub fn accepts(self, s: &str) -> bool {
        match self {
            Format::Date | Format::DateTime => {
                let mut cx = Cx::new(UnknownPolicy::Reject);
                cx.set_omit_messages(true);
                let node = Node::String(Cow::Borrowed(s));
                self.check(s, &node, &Path::ROOT, &mut cx) && cx.repairs().is_empty()
            }
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

    /// Checks the string `s` (the payload's `node`) at `path`, recording an error of the
    /// format's code in `cx` when it fails. Dates and date-times go through their coercers,
    /// which may record a repair; the other formats repair nothing.
    pub fn check(self, s: &str, node: &Node<'_>, path: &Path<'_>, cx: &mut Cx) -> bool {
        match self {
            Format::Date => NaiveDate::coerce(node, &FieldSpec::new(), path, cx).is_some(),
            Format::DateTime => {
                DateTime::<FixedOffset>::coerce(node, &FieldSpec::new(), path, cx).is_some()
            }
            _ if self.accepts(s) => true,
            _ => {
                let (code, expected) = self.expected();
                cx.error_with(path, code, || {
                    format!("expected {expected}, got {}", node.describe())
                });
                false
            }
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
    let Ok(uri) = fluent_uri::Uri::parse(s) else {
        return false;
    };
    let scheme = uri.scheme().as_str();
    let special = ["http", "https", "ws", "wss", "ftp", "file"]
        .iter()
        .any(|name| scheme.eq_ignore_ascii_case(name));
    !special || one_reading(scheme.eq_ignore_ascii_case("file"), uri.authority())
}

/// Under the URL standard's schemes, readers that follow the standard (browsers, the `url`
/// crate) and readers that follow RFC 3986 read some authorities two ways, or the standard
/// cannot read them. Those are refused; the rest are read alike:
/// - a host that ends in a number is an IPv4 address to the standard, which also reads
///   `1.2.3`, `0x7f.1` and the octal `087.10.0.1`; only the dotted quad has one reading;
/// - no host (`http:x`, `http:///x`) makes, to the standard, a host of the first path segment;
/// - a percent-encoded host, an `[IPvFuture]` literal or a port beyond 65535 is not a host or
///   a port to it at all.
fn one_reading(file: bool, authority: Option<fluent_uri::component::Authority<'_>>) -> bool {
    let Some(authority) = authority else {
        return file;
    };
    if authority.port_to_u16().is_err() {
        return false;
    }
    let host = authority.host();
    if let Some(literal) = host.strip_prefix('[') {
        return !literal.starts_with(['v', 'V']);
    }
    if host.is_empty() {
        return file;
    }
    if host.contains('%') {
        return false;
    }
    let last = host
        .strip_suffix('.')
        .unwrap_or(host)
        .rsplit('.')
        .next()
        .unwrap_or("");
    let hex = last
        .get(..2)
        .is_some_and(|prefix| prefix.eq_ignore_ascii_case("0x"))
        && last[2..].bytes().all(|b| b.is_ascii_hexdigit());
    let numeric = !last.is_empty() && (last.bytes().all(|b| b.is_ascii_digit()) || hex);
    !numeric || host.parse::<Ipv4Addr>().is_ok()
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
