//! Patterns of one fixed shape, matched without the regex engine.
//!
//! Most patterns on tool arguments describe identifiers and codes: `ord_[A-Za-z0-9]{8}`,
//! `[A-Z]{3}-[0-9]{4}`, `[A-Z]{2}`. Anchored at both ends, every match of such a pattern is a
//! fixed sequence of ASCII byte sets, one per position, and checking a string is one pass over
//! its bytes. The regex engine gives the same answer at several times the cost on strings this
//! short, and a call may check dozens of them. Anything else stays with the regex engine.

use regex_syntax::hir::{Class, Hir, HirKind, Look};

use crate::text::same_bytes;

/// Longest shape kept; a longer fixed-length pattern goes to the regex engine.
const MAX_POSITIONS: usize = 256;

/// One set of ASCII bytes, as a 128-bit mask.
type AsciiSet = u128;

/// A pattern anchored at both ends whose every match is one byte from each set, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FixedShape {
    /// The positions, in runs: literal bytes are compared at once, and a run of one set (the
    /// `[A-Za-z0-9]{8}` of an identifier) is tested with that set held throughout.
    runs: Vec<Run>,
    /// The length of every match, in bytes.
    len: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Run {
    /// Positions of one byte each.
    Literal(Vec<u8>),
    /// `count` positions of the same set, as a table of every byte value (1 when in the set,
    /// 0 for every other byte, every byte outside ASCII included): each position is one load,
    /// and a run is tested without a branch per byte.
    Class {
        set: AsciiSet,
        table: Box<[u8; 256]>,
        count: usize,
    },
}

/// The table of a [`Run::Class`].
fn table_of(set: AsciiSet) -> Box<[u8; 256]> {
    let mut table = Box::new([0; 256]);
    for (b, slot) in table.iter_mut().enumerate().take(128) {
        *slot = u8::from(set >> b & 1 != 0);
    }
    table
}

impl FixedShape {
    /// The shape of `regex` (the text given to the regex engine, with its default flags), when
    /// it has one: `^`, then literals, ASCII classes and exact repetitions of them, then `$`.
    pub(crate) fn of(regex: &str) -> Option<FixedShape> {
        let hir = regex_syntax::Parser::new().parse(regex).ok()?;
        let HirKind::Concat(parts) = hir.kind() else {
            return None;
        };
        let (first, rest) = parts.split_first()?;
        let (last, middle) = rest.split_last()?;
        if first.kind() != &HirKind::Look(Look::Start) || last.kind() != &HirKind::Look(Look::End) {
            return None;
        }
        let mut sets = Vec::new();
        for part in middle {
            push_sets(part, &mut sets)?;
        }
        let mut runs: Vec<Run> = Vec::new();
        for &set in &sets {
            match runs.last_mut() {
                // A set of one byte is that byte (every byte of a set is ASCII).
                Some(Run::Literal(bytes)) if set.count_ones() == 1 => {
                    bytes.push(set.trailing_zeros() as u8);
                }
                Some(Run::Class {
                    set: last, count, ..
                }) if *last == set => *count += 1,
                _ if set.count_ones() == 1 => {
                    runs.push(Run::Literal(vec![set.trailing_zeros() as u8]))
                }
                _ => runs.push(Run::Class {
                    set,
                    table: table_of(set),
                    count: 1,
                }),
            }
        }
        Some(FixedShape {
            runs,
            len: sets.len(),
        })
    }

    /// True when `text` is one byte of each set, in order. A byte outside ASCII is in no set,
    /// so counting bytes is counting characters for any string that can match.
    pub(crate) fn is_match(&self, text: &str) -> bool {
        let bytes = text.as_bytes();
        if bytes.len() != self.len {
            return false;
        }
        let mut rest = bytes;
        for run in &self.runs {
            let taken = match run {
                Run::Literal(literal) => literal.len(),
                Run::Class { count, .. } => *count,
            };
            let Some((here, after)) = rest.split_at_checked(taken) else {
                return false;
            };
            let matched = match run {
                Run::Literal(literal) => same_bytes(here, literal),
                // The run is short: all of it is read, without a branch per byte.
                Run::Class { table, .. } => {
                    here.iter().fold(1, |all, &b| all & table[b as usize]) != 0
                }
            };
            if !matched {
                return false;
            }
            rest = after;
        }
        true
    }
}

/// Appends the sets `hir` matches, position by position; `None` when it is not of fixed shape.
fn push_sets(hir: &Hir, sets: &mut Vec<AsciiSet>) -> Option<()> {
    match hir.kind() {
        HirKind::Literal(literal) => {
            for &b in literal.0.iter() {
                if !b.is_ascii() {
                    return None;
                }
                sets.push(1 << b);
            }
        }
        HirKind::Class(class) => sets.push(ascii_set(class)?),
        HirKind::Repetition(rep) if Some(rep.min) == rep.max => {
            let mut once = Vec::new();
            push_sets(&rep.sub, &mut once)?;
            for _ in 0..rep.min {
                if sets.len() + once.len() > MAX_POSITIONS {
                    return None;
                }
                sets.extend_from_slice(&once);
            }
        }
        HirKind::Capture(capture) => push_sets(&capture.sub, sets)?,
        HirKind::Concat(parts) => {
            for part in parts {
                push_sets(part, sets)?;
            }
        }
        _ => return None,
    }
    (sets.len() <= MAX_POSITIONS).then_some(())
}

/// The class as a set of ASCII bytes; `None` when it holds anything beyond ASCII.
fn ascii_set(class: &Class) -> Option<AsciiSet> {
    let ranges: Vec<(u32, u32)> = match class {
        Class::Unicode(c) => c
            .ranges()
            .iter()
            .map(|r| (u32::from(r.start()), u32::from(r.end())))
            .collect(),
        Class::Bytes(c) => c
            .ranges()
            .iter()
            .map(|r| (u32::from(r.start()), u32::from(r.end())))
            .collect(),
    };
    let mut set: AsciiSet = 0;
    for (start, end) in ranges {
        if end >= 128 {
            return None;
        }
        for b in start..=end {
            set |= 1 << b;
        }
    }
    Some(set)
}

#[cfg(test)]
mod tests {
    use super::FixedShape;
    use regex::Regex;

    /// Patterns as the parser compiles them (`^(?:…)$`), those with a fixed shape first.
    const FIXED: &[&str] = &[
        r"ord_[A-Za-z0-9]{8}",
        r"[A-Z]{3}-[0-9]{4}",
        r"[A-Z]{2}",
        r"cus_[A-Za-z0-9]{6}",
        r"[0-9]{4}-[0-9]{2}-[0-9]{2}",
        r"(?:ab){2}c",
        r"(x)[-_.]y",
        r"a|b",
        r"",
        r"(?-u:[a-f\d]){4}",
    ];
    const NOT_FIXED: &[&str] = &[
        r"[A-Z]{2,3}",
        r"a+",
        r"ab|cd",
        r"\w{3}",
        r"\d{4}",
        r"(?i)k{2}",
        r"é{2}",
        r".{3}",
        r"[^a]{2}",
        r"a{300}",
        r"\bab",
    ];

    fn texts() -> Vec<String> {
        let mut texts: Vec<String> = [
            "",
            "ord_A1b2C3d4",
            "ord_A1b2C3d",
            "ord_A1b2C3d45",
            "ABC-1234",
            "abc-1234",
            "US",
            "USA",
            "U",
            "cus_Ab12Cd",
            "2026-11-30",
            "2026-1-30",
            "ababc",
            "abab",
            "x-y",
            "x_y",
            "x.y",
            "xzy",
            "ab12",
            "AB12",
            "ag12",
            "kk",
            "KK",
            "\u{212a}\u{212a}",
            "éé",
            "aaa",
            "a",
            "b",
            "ab",
            "ba",
            "ord_A1b2C3dé",
            "ÅB",
            "\nUS",
            "US\n",
        ]
        .map(String::from)
        .to_vec();
        texts.push("a".repeat(300));
        // Every string of length 0 to 3 over a few bytes, including one outside ASCII.
        let alphabet = ['a', 'b', 'c', 'x', 'y', '-', '_', '.', 'A', '1', 'é'];
        let mut level = vec![String::new()];
        for _ in 0..3 {
            level = level
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            texts.extend(level.iter().cloned());
        }
        texts
    }

    #[test]
    fn fixed_shapes_match_exactly_what_the_regex_matches() {
        let texts = texts();
        for pattern in FIXED.iter().chain(NOT_FIXED) {
            let source = format!("^(?:{pattern})$");
            let regex = Regex::new(&source).unwrap();
            let Some(shape) = FixedShape::of(&source) else {
                assert!(
                    !FIXED.contains(pattern),
                    "{pattern} should have a fixed shape"
                );
                continue;
            };
            assert!(!NOT_FIXED.contains(pattern), "{pattern} has no fixed shape");
            for text in &texts {
                assert_eq!(
                    shape.is_match(text),
                    regex.is_match(text),
                    "{pattern} on {text:?}"
                );
            }
        }
    }

    #[test]
    fn only_patterns_anchored_at_both_ends_have_a_shape() {
        assert!(FixedShape::of("ord_[0-9]{2}").is_none());
        assert!(FixedShape::of("^ord_[0-9]{2}").is_none());
        assert!(FixedShape::of("ord_[0-9]{2}$").is_none());
        assert!(FixedShape::of("^ord_[0-9]{2}$").is_some());
        assert!(FixedShape::of("(?m)^ord$").is_none());
        assert!(FixedShape::of("^[").is_none());
    }
}
