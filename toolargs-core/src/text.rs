//! How values are written into messages and JSON text: string literals escaped as
//! `serde_json` writes them, short previews of values, integers as JSON numbers. The bottom of
//! the crate: it depends on nothing else here.

use serde_json::Value;

/// Whether two strings are equal. The short ones (keys, `enum` values, tool names, up to 16
/// bytes) are compared in a few word loads without a call to `memcmp`, which is most of the
/// cost of comparing strings that short.
///
/// ```
/// use toolargs_core::internal::text::same_text;
///
/// assert!(same_text("amount_cents", "amount_cents"));
/// assert!(!same_text("amount_cents", "amount_centz"));
/// assert!(!same_text("tag", "tags"));
/// ```
#[inline(always)]
pub fn same_text(a: &str, b: &str) -> bool {
    same_bytes(a.as_bytes(), b.as_bytes())
}

/// [`same_text`] on bytes.
#[inline(always)]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    // Two overlapping words, the first and the last of the string, cover all of it.
    if let (Some(a8), Some(b8)) = (a.first_chunk::<8>(), b.first_chunk::<8>()) {
        if a.len() > 16 {
            return a == b;
        }
        let (a_end, b_end) = (a.last_chunk::<8>(), b.last_chunk::<8>());
        return a8 == b8 && a_end == b_end;
    }
    if let (Some(a4), Some(b4)) = (a.first_chunk::<4>(), b.first_chunk::<4>()) {
        return a4 == b4 && a.last_chunk::<4>() == b.last_chunk::<4>();
    }
    a.iter().zip(b).all(|(x, y)| x == y)
}

/// Longest preview of a value quoted in a message, in characters.
pub const PREVIEW_CHARS: usize = 40;

/// `bytes` as lower-case hex digits, two per byte (digests in logs and fingerprints).
///
/// ```
/// assert_eq!(toolargs_core::internal::text::lower_hex(&[0x0f, 0xa0]), "0fa0");
/// ```
pub fn lower_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut hex = String::with_capacity(2 * bytes.len());
    for byte in bytes {
        hex.push(char::from(DIGITS[usize::from(byte >> 4)]));
        hex.push(char::from(DIGITS[usize::from(byte & 0xf)]));
    }
    hex
}

/// Quotes a string as JSON, cut to [`PREVIEW_CHARS`] characters with an ellipsis.
pub fn preview_str(s: &str) -> String {
    let mut quoted = String::with_capacity(s.len().min(4 * PREVIEW_CHARS) + 5);
    push_preview(&mut quoted, s);
    quoted
}

/// Appends [`preview_str`] of `s` to `out`.
pub fn push_preview(out: &mut String, s: &str) {
    let (cut, suffix) = match s.char_indices().nth(PREVIEW_CHARS) {
        Some((at, _)) => (&s[..at], "…"),
        None => (s, ""),
    };
    out.push('"');
    push_escaped(out, cut);
    out.push_str(suffix);
    out.push('"');
}

/// Appends `s` as a JSON string literal, quotes included, escaped exactly as `serde_json`
/// writes it (so messages and reports read the same whichever wrote them).
pub fn push_json_str(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    // Most strings (keys, names, codes) have nothing to escape: one scan and one copy.
    let plain = scan_to_special(s.as_bytes(), 0);
    match plain == s.len() {
        true => out.push_str(s),
        false => push_escaped_from(out, s, plain),
    }
    out.push('"');
}

/// The body of a JSON string literal: `"` `\` and control characters escaped, the rest as is.
fn push_escaped(out: &mut String, s: &str) {
    push_escaped_from(out, s, 0);
}

/// [`push_escaped`] of `s`, whose first `start` bytes are known to need no escape.
fn push_escaped_from(out: &mut String, s: &str, mut start: usize) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = s.as_bytes();
    out.push_str(&s[..start]);
    loop {
        let at = scan_plain(bytes, start, usize::MAX);
        out.push_str(&s[start..at]);
        let Some(&b) = bytes.get(at) else {
            return;
        };
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            _ => {
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 0xf)]));
            }
        }
        start = at + 1;
    }
}

/// The position of the first `"`, `\` or control character at or after `pos`, looking at no
/// more than `max + 1` bytes (or to the end).
#[inline]
pub fn scan_plain(bytes: &[u8], pos: usize, max: usize) -> usize {
    let window = pos.saturating_add(max).saturating_add(1).min(bytes.len());
    scan_to_special(&bytes[..window], pos)
}

/// [`scan_plain`] without a window: to the first special byte or the end. Eight bytes at a
/// time: plain text is the common case and needs no per-byte branch.
#[inline(always)]
pub fn scan_to_special(bytes: &[u8], mut pos: usize) -> usize {
    while let Some(chunk) = bytes.get(pos..).and_then(<[u8]>::first_chunk::<8>) {
        let flagged = special_bytes(u64::from_le_bytes(*chunk));
        if flagged != 0 {
            return pos + (flagged.trailing_zeros() / 8) as usize;
        }
        pos += 8;
    }
    let rest = bytes.len().saturating_sub(pos);
    if rest == 0 {
        return pos;
    }
    // Fewer than eight bytes left: the last eight of the text, those before `pos` (perhaps
    // special ones, before a scan that started past them) made plain, so that no flag is set
    // at or above them but by the bytes left.
    if let Some(last) = bytes.last_chunk::<8>() {
        let seen = 8 - rest;
        let keep = u64::MAX << (8 * seen);
        let word = (u64::from_le_bytes(*last) & keep) | (PLAIN & !keep);
        let flagged = special_bytes(word);
        return match flagged {
            0 => bytes.len(),
            _ => pos + (flagged.trailing_zeros() / 8) as usize - seen,
        };
    }
    while let Some(&b) = bytes.get(pos) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            break;
        }
        pos += 1;
    }
    pos
}

/// Eight plain bytes (`A`), read as a word.
const PLAIN: u64 = 0x4141_4141_4141_4141;

/// The high bit of each byte of `word` (read little-endian) that is a quote, a backslash or a
/// control character: the bytes that end a run of plain string content. Above the lowest one,
/// other bytes may be flagged too, so only the lowest is exact. A byte of 0x80 or more is never
/// flagged, so the three tests share the one for the high bit.
#[inline(always)]
pub fn special_bytes(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let quote = (word ^ (ONES * u64::from(b'"'))).wrapping_sub(ONES);
    let backslash = (word ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES);
    let control = word.wrapping_sub(ONES * 0x20);
    (quote | backslash | control) & !word & (ONES * 0x80)
}

/// An integer as a JSON number.
pub fn int_value(v: i128) -> Value {
    if let Ok(v) = i64::try_from(v) {
        Value::from(v)
    } else if let Ok(v) = u64::try_from(v) {
        Value::from(v)
    } else {
        Value::from(v as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_the_same_text_exactly_when_equal() {
        for len in 0..40 {
            let base: String = (0..len)
                .map(|i| char::from(b'a' + (i % 26) as u8))
                .collect();
            assert!(same_text(&base, &base.clone()));
            // A difference at any one position, and a string one byte longer or shorter.
            for at in 0..len {
                let mut other = base.clone().into_bytes();
                other[at] = b'-';
                let other = String::from_utf8(other).unwrap();
                assert!(!same_text(&base, &other), "{base} {other}");
            }
            assert!(!same_text(&base, &format!("{base}a")));
            assert!(!same_text(&format!("{base}a"), &base));
        }
        assert!(same_text("é✓", "é✓") && !same_text("é✓", "é✗"));
    }

    #[test]
    fn previews_are_bounded() {
        let long = "é".repeat(10_000);
        let p = preview_str(&long);
        assert!(p.chars().count() <= PREVIEW_CHARS + 3, "{p}");
        assert!(p.ends_with("…\""));
        assert_eq!(preview_str("a\"b"), r#""a\"b""#);
    }

    #[test]
    fn the_lowest_special_byte_of_a_word_is_found_exactly() {
        // Bytes next to the tested ones in value, and bytes of multi-byte characters.
        let bytes = [
            b'"', b'\\', 0x00, 0x1f, 0x20, 0x21, 0x23, 0x5b, 0x5d, b'a', 0x7f, 0x80, 0xa2, 0xc3,
            0xdc, 0xff,
        ];
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..200_000 {
            let word: [u8; 8] = std::array::from_fn(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                bytes[(state % bytes.len() as u64) as usize]
            });
            let first = word
                .iter()
                .position(|&b| matches!(b, b'"' | b'\\' | ..0x20))
                .unwrap_or(8);
            let found = match special_bytes(u64::from_le_bytes(word)) {
                0 => 8,
                s => (s.trailing_zeros() / 8) as usize,
            };
            assert_eq!(found, first, "{word:x?}");
        }
    }

    #[test]
    fn scan_plain_finds_the_first_special_byte() {
        let naive = |bytes: &[u8], pos: usize, max: usize| {
            let end = pos.saturating_add(max).saturating_add(1).min(bytes.len());
            (pos..end)
                .find(|&i| matches!(bytes[i], b'"' | b'\\') || bytes[i] < 0x20)
                .unwrap_or(end)
        };
        for len in 0..40 {
            for special in [None, Some(b'"'), Some(b'\\'), Some(0x01), Some(0x1f)] {
                for at in 0..len.max(1) {
                    let mut bytes: Vec<u8> = (0..len).map(|i| b"az \xc3\xa9~"[i % 6]).collect();
                    if let (Some(b), true) = (special, at < len) {
                        bytes[at] = b;
                        // A second one, before or after: one the scan starts past must not
                        // be taken for one after.
                        bytes[(at * 7 + 3) % len] = b;
                    }
                    for pos in 0..=len {
                        for max in [0, 1, 5, 8, 13, usize::MAX] {
                            assert_eq!(
                                scan_plain(&bytes, pos, max),
                                naive(&bytes, pos, max),
                                "{bytes:?} {pos} {max}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let every: String = (0u32..0x80)
            .chain([0xe9, 0x2028, 0x1F600])
            .filter_map(char::from_u32)
            .collect();
        for s in [every.as_str(), "", "plain", "a\"b\\c\u{7f}"] {
            let mut ours = String::new();
            push_json_str(&mut ours, s);
            assert_eq!(ours, Value::from(s).to_string());
        }
    }
}
