//! Readings of dates and date-times as people and models write them. `2026-03-04` has one
//! reading; `04/03/2026` has two (4 March or 3 April); `2026-03-04T10:00:00` names a wall-clock
//! time in a zone it does not state, so it has one reading per zone.

use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone};

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

const WEEKDAYS: [&str; 7] = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

/// What a written date-time can mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Moment {
    /// An instant with the offset it was written in.
    Instant(DateTime<FixedOffset>),
    /// A wall-clock time with no zone: one reading per zone.
    Wall(NaiveDateTime),
    /// A calendar day, with no time of day.
    Day(NaiveDate),
}

/// Every calendar date `text` can be. `Err` says why it has none.
pub(crate) fn date_readings(text: &str) -> Result<Vec<NaiveDate>, String> {
    let mut days = Vec::new();
    for moment in moment_readings(text)? {
        let day = match moment {
            Moment::Day(d) => d,
            // A date-time given for a date: its day as written, in its own offset.
            Moment::Instant(i) => i.date_naive(),
            Moment::Wall(w) => w.date(),
        };
        if !days.contains(&day) {
            days.push(day);
        }
    }
    Ok(days)
}

/// Every moment `text` can be. `Err` says why it has none.
pub(crate) fn moment_readings(text: &str) -> Result<Vec<Moment>, String> {
    let text = text.trim();
    if let Ok(instant) = DateTime::parse_from_rfc3339(&text.replacen(' ', "T", 1)) {
        return Ok(vec![Moment::Instant(instant)]);
    }
    // A date, then a time of day with or without an offset.
    if let Some((date, time)) = split_time(text) {
        let days = day_readings(date)?;
        let (time, offset) =
            time_and_offset(time).ok_or_else(|| format!("{time:?} is not a time of day"))?;
        let mut out = Vec::new();
        for day in days {
            let wall = day.and_time(time);
            let moment = match offset {
                Some(offset) => match offset.from_local_datetime(&wall).single() {
                    Some(instant) => Moment::Instant(instant),
                    None => continue,
                },
                None => Moment::Wall(wall),
            };
            out.push(moment);
        }
        return Ok(out);
    }
    Ok(day_readings(text)?.into_iter().map(Moment::Day).collect())
}

/// Splits `2026-03-04T10:00`, `04/03/2026 10:00:00+01:00` into the date and the time.
fn split_time(text: &str) -> Option<(&str, &str)> {
    if let Some(at) = text.find(['T', 't']) {
        let (date, time) = (&text[..at], &text[at + 1..]);
        if date.len() == 10 && time.starts_with(|c: char| c.is_ascii_digit()) {
            return Some((date, time));
        }
    }
    let at = text.rfind(' ')?;
    let (date, time) = (text[..at].trim(), text[at + 1..].trim());
    (time.contains(':') && time.starts_with(|c: char| c.is_ascii_digit())).then_some((date, time))
}

fn time_and_offset(text: &str) -> Option<(NaiveTime, Option<FixedOffset>)> {
    let (time, offset) = if let Some(t) = text.strip_suffix(['Z', 'z']) {
        (t, FixedOffset::east_opt(0))
    } else if let Some(at) = text.rfind(['+', '-']) {
        let sign = if text.as_bytes()[at] == b'-' { -1 } else { 1 };
        let (h, m) = text[at + 1..].split_once(':')?;
        let seconds = h.parse::<i32>().ok()? * 3600 + m.parse::<i32>().ok()? * 60;
        (&text[..at], Some(FixedOffset::east_opt(sign * seconds)?))
    } else {
        (text, None)
    };
    let time = NaiveTime::parse_from_str(time, "%H:%M:%S%.f")
        .or_else(|_| NaiveTime::parse_from_str(time, "%H:%M"))
        .ok()?;
    Some((time, offset))
}

/// Dates without a time of day.
fn day_readings(text: &str) -> Result<Vec<NaiveDate>, String> {
    let lower = text.trim().to_lowercase();
    // A leading weekday must agree with the date it names.
    let (weekday, rest) = strip_weekday(&lower);
    let mut days = numeric_days(rest)
        .or_else(|| named_month(rest))
        .ok_or_else(|| {
            format!(
            "{text:?} is not a date in a recognised form (2026-03-04, 04/03/2026, 4 March 2026)"
        )
        })??;
    if let Some(weekday) = weekday {
        days.retain(|d| d.weekday().num_days_from_monday() as usize == weekday);
        if days.is_empty() {
            return Err(format!(
                "{text:?} names a weekday its date does not fall on"
            ));
        }
    }
    Ok(days)
}

fn strip_weekday(text: &str) -> (Option<usize>, &str) {
    for (i, day) in WEEKDAYS.iter().enumerate() {
        for name in [*day, &day[..3]] {
            if let Some(rest) = text.strip_prefix(name) {
                if let Some(rest) = rest.strip_prefix([',', ' ']) {
                    return (Some(i), rest.trim_start_matches([',', ' ']));
                }
            }
        }
    }
    (None, text)
}

/// `2026-03-04`, `2026/03/04`, `20260304`, `04/03/2026`, `4.3.2026`. `None` when the shape
/// is not numeric; `Some(Err)` when it is but names no day.
fn numeric_days(text: &str) -> Option<Result<Vec<NaiveDate>, String>> {
    let parts: Vec<&str> = text.split(['-', '/', '.']).collect();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !parts.iter().all(|p| digits(p)) {
        return None;
    }
    let n = |s: &str| s.parse::<u32>().unwrap_or(0);
    let candidates: Vec<(i32, u32, u32)> = match parts.as_slice() {
        [all] if all.len() == 8 => vec![(n(&all[..4]) as i32, n(&all[4..6]), n(&all[6..]))],
        [y, m, d] if y.len() == 4 && m.len() <= 2 && d.len() <= 2 => {
            vec![(n(y) as i32, n(m), n(d))]
        }
        [a, b, y] if y.len() == 4 && a.len() <= 2 && b.len() <= 2 => {
            // Day first (most of the world) and month first (the United States).
            vec![(n(y) as i32, n(b), n(a)), (n(y) as i32, n(a), n(b))]
        }
        [_, _, y] if y.len() == 2 => {
            return Some(Err(format!(
                "{text:?} has a two-digit year, which names no single century"
            )))
        }
        _ => return None,
    };
    let mut days = Vec::new();
    for (y, m, d) in candidates {
        if let Some(day) = NaiveDate::from_ymd_opt(y, m, d) {
            if !days.contains(&day) {
                days.push(day);
            }
        }
    }
    Some(if days.is_empty() {
        Err(format!("{text:?} is not a calendar date"))
    } else {
        Ok(days)
    })
}

/// `4 March 2026`, `March 4, 2026`, `Mar 4 2026`, `4-Mar-2026`, `2026 March 4`.
fn named_month(text: &str) -> Option<Result<Vec<NaiveDate>, String>> {
    let words: Vec<&str> = text
        .split([' ', ',', '-', '/'])
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() != 3 {
        return None;
    }
    let month_of = |w: &str| {
        let w = w.trim_end_matches('.');
        MONTHS
            .iter()
            .position(|m| *m == w || (w.len() >= 3 && m.starts_with(w) && w.len() <= m.len()))
            .map(|i| i as u32 + 1)
    };
    let day_of = |w: &str| {
        let w = w
            .trim_end_matches("st")
            .trim_end_matches("nd")
            .trim_end_matches("rd")
            .trim_end_matches("th");
        (w.len() <= 2 && w.bytes().all(|b| b.is_ascii_digit()))
            .then(|| w.parse::<u32>().ok())
            .flatten()
    };
    let year_of = |w: &str| {
        (w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()))
            .then(|| w.parse::<i32>().ok())
            .flatten()
    };
    let (y, m, d) = match (words[0], words[1], words[2]) {
        (a, b, c) if month_of(a).is_some() => (year_of(c)?, month_of(a)?, day_of(b)?),
        (a, b, c) if month_of(b).is_some() && year_of(a).is_some() => {
            (year_of(a)?, month_of(b)?, day_of(c)?)
        }
        (a, b, c) if month_of(b).is_some() => (year_of(c)?, month_of(b)?, day_of(a)?),
        _ => return None,
    };
    Some(
        NaiveDate::from_ymd_opt(y, m, d)
            .map(|day| vec![day])
            .ok_or_else(|| format!("{text:?} is not a calendar date")),
    )
}

/// Every instant a Unix timestamp can be: seconds or milliseconds since 1970.
pub(crate) fn timestamp_readings(value: i64) -> Vec<Moment> {
    let utc = FixedOffset::east_opt(0).expect("zero offset");
    let mut out = Vec::new();
    for instant in [
        DateTime::from_timestamp(value, 0),
        DateTime::from_timestamp_millis(value),
    ]
    .into_iter()
    .flatten()
    {
        let moment = Moment::Instant(instant.with_timezone(&utc));
        if !out.contains(&moment) {
            out.push(moment);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn days(text: &str) -> Vec<String> {
        date_readings(text)
            .unwrap_or_default()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn slashed_dates_read_both_ways() {
        assert_eq!(days("04/03/2026"), ["2026-03-04", "2026-04-03"]);
        assert_eq!(days("4.3.2026"), ["2026-03-04", "2026-04-03"]);
        assert_eq!(days("13/03/2026"), ["2026-03-13"]);
        assert_eq!(days("03/13/2026"), ["2026-03-13"]);
        assert_eq!(days("05/05/2026"), ["2026-05-05"]);
    }

    #[test]
    fn one_reading_forms() {
        for text in [
            "2026-03-04",
            "2026/03/04",
            "20260304",
            "4 March 2026",
            "March 4, 2026",
            "Mar 4 2026",
            "4-Mar-2026",
            "Wednesday, 4 March 2026",
            "March 4th, 2026",
            "2026-03-04T23:30:00-05:00",
        ] {
            assert_eq!(days(text), ["2026-03-04"], "{text}");
        }
    }

    #[test]
    fn no_reading() {
        for text in [
            "04/03/26",
            "2026-02-30",
            "tomorrow",
            "Tuesday, 4 March 2026",
            "",
        ] {
            assert!(date_readings(text).is_err(), "{text}: {:?}", days(text));
        }
    }

    #[test]
    fn moments() {
        let m = moment_readings("2026-03-04T10:00:00+01:00").unwrap();
        assert!(matches!(m.as_slice(), [Moment::Instant(_)]));
        let m = moment_readings("2026-03-04T10:00:00").unwrap();
        assert!(matches!(m.as_slice(), [Moment::Wall(_)]));
        let m = moment_readings("04/03/2026 10:00").unwrap();
        assert!(matches!(m.as_slice(), [Moment::Wall(_), Moment::Wall(_)]));
        let m = moment_readings("2026-03-04").unwrap();
        assert!(matches!(m.as_slice(), [Moment::Day(_)]));
        assert_eq!(timestamp_readings(1_772_618_400).len(), 2);
    }
}
