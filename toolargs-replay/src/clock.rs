//! Times of recorded verdicts: RFC 3339 timestamps read into Unix seconds, and bucket starts
//! written back as RFC 3339, in UTC, without a calendar library (the proleptic Gregorian
//! calendar's day count is a few lines).

/// The latest time read: the end of year 9999, the last an RFC 3339 timestamp writes. Times
/// outside `0..LATEST` are not read, so that a stray value cannot stretch a timeline.
pub(crate) const LATEST: f64 = 253_402_300_800.0;

/// Seconds of an hour and of a day.
pub(crate) const HOUR: i64 = 3600;
pub(crate) const DAY: i64 = 86_400;

/// Unix seconds read from a number of seconds, when in range.
pub(crate) fn seconds(value: f64) -> Option<f64> {
    (value.is_finite() && (0.0..LATEST).contains(&value)).then_some(value)
}

/// Unix seconds of an RFC 3339 date-time (`2026-12-04T13:21:43.123456Z`, any fraction, `Z`
/// or a `+HH:MM` / `-HH:MM` offset, `T`, `t` or a space between date and time).
pub(crate) fn parse_rfc3339(text: &str) -> Option<f64> {
    let b = text.as_bytes();
    let digits = |from: usize, len: usize| -> Option<i64> {
        let part = b.get(from..from + len)?;
        part.iter().try_fold(0i64, |n, d| {
            d.is_ascii_digit().then(|| n * 10 + i64::from(d - b'0'))
        })
    };
    if b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || !matches!(b[10], b'T' | b't' | b' ')
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let (year, month, day) = (digits(0, 4)?, digits(5, 2)?, digits(8, 2)?);
    let (hour, minute, second) = (digits(11, 2)?, digits(14, 2)?, digits(17, 2)?);
    if !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    let mut at = 19;
    let mut fraction = 0.0;
    if b[at] == b'.' {
        let start = at + 1;
        at = start;
        while b.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        if at == start {
            return None;
        }
        fraction = text.get(start - 1..at)?.parse::<f64>().ok()?;
    }
    let offset = match b.get(at..)? {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), _, _, b':', _, _] => {
            let (h, m) = (digits(at + 1, 2)?, digits(at + 4, 2)?);
            if h > 23 || m > 59 {
                return None;
            }
            let minutes = h * 60 + m;
            if *sign == b'+' {
                minutes
            } else {
                -minutes
            }
        }
        _ => return None,
    };
    let local = days_from_civil(year, month, day) * DAY + hour * HOUR + minute * 60 + second;
    seconds((local - offset * 60) as f64 + fraction)
}

/// The RFC 3339 text of a whole number of Unix seconds, in UTC: `2026-12-04T13:00:00Z`.
pub(crate) fn format_utc(seconds: i64) -> String {
    let (days, rest) = (seconds.div_euclid(DAY), seconds.rem_euclid(DAY));
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / HOUR,
        rest % HOUR / 60,
        rest % 60
    )
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to a date (Howard Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_read_as_unix_seconds() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0.0));
        assert_eq!(
            parse_rfc3339("2026-12-04T13:21:43.5Z"),
            Some(1_796_390_503.5)
        );
        assert_eq!(
            parse_rfc3339("2026-12-04T15:21:43+02:00"),
            parse_rfc3339("2026-12-04T13:21:43Z")
        );
        assert_eq!(parse_rfc3339("2024-02-29 00:00:00z"), Some(1_709_164_800.0));
        for bad in [
            "",
            "2026-12-04",
            "2026-13-04T00:00:00Z",
            "2025-02-29T00:00:00Z",
            "2026-12-04T24:00:00Z",
            "2026-12-04T13:21:43",
            "2026-12-04T13:21:43.Z",
            "2026-12-04T13:21:43+0200",
            "1969-12-31T23:59:59Z",
            "2026-12-04T13:21:43Zjunk",
            "２026-12-04T13:21:43Z",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }

    #[test]
    fn bucket_starts_write_as_rfc3339() {
        assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_utc(1_796_389_200), "2026-12-04T13:00:00Z");
        assert_eq!(format_utc(1_709_164_800), "2024-02-29T00:00:00Z");
        for days in [-1, 0, 59, 365, 10_957, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }
}
