//! The in-string mode: JSON text read where a log holds it, inside a JSON string, without
//! unescaping it first. The reader runs with `ESCAPED`, where each quote of the document is
//! `\"`; everything else is read as in plain text.

use crate::options::Limits;

use super::{read_one, Document};

/// The bytes of a quote: `"`, or `\"` inside a JSON string.
pub(super) const fn quote_len(escaped: bool) -> usize {
    if escaped {
        2
    } else {
        1
    }
}

/// Whether a quote starts at `pos` in `bytes`: `"`, or `\"` inside a JSON string.
#[inline(always)]
pub(super) fn quote_at(bytes: &[u8], pos: usize, escaped: bool) -> bool {
    match escaped {
        false => bytes.get(pos) == Some(&b'"'),
        true => bytes.get(pos..pos + 2) == Some(b"\\\""),
    }
}

/// Reads JSON text as written inside a JSON string (a log's `"arguments": "{\"a\": 1}"`),
/// from the log's own text, without unescaping it first: `text` goes on right after the
/// string's opening quote, and each quote of the document is `\"` there. Everything else stands
/// as the document means it, and is read under the same grammar and [`Limits`] as
/// [`read_text`](super::read_text). Returns the document and the bytes read, up to and with the string's closing
/// quote; the text may go on past it.
///
/// `None` when the string holds any other escape (one of the document's own strings, or
/// whitespace written as `\n`), or anything [`read_text`](super::read_text) would refuse: the caller unescapes
/// the string and reads it as text, which says what is wrong.
pub(crate) fn read_logged<'a>(text: &'a str, limits: &Limits) -> Option<(Document<'a>, usize)> {
    let (document, mut reader) = read_one::<true>(text, limits)?;
    reader.skip_whitespace();
    (reader.peek() == Some(b'"')).then_some((document, reader.pos + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{read_leading, read_text};

    /// `text` as a log holds it in a JSON string, from after the opening quote on, with
    /// more of the record after the closing quote.
    fn escape(text: &str) -> String {
        let quoted = serde_json::to_string(text).unwrap();
        format!("{}, \"more\": 1}}", &quoted[1..])
    }

    /// [`read_logged`], checking that it read up to the closing quote.
    fn read_escaped<'a>(escaped: &'a str, limits: &Limits) -> Option<Document<'a>> {
        let (document, read) = read_logged(escaped, limits)?;
        assert_eq!(&escaped[read..], ", \"more\": 1}");
        Some(document)
    }

    #[test]
    fn reads_text_inside_a_string_as_the_text_itself() {
        let limits = Limits::DEFAULT;
        for doc in [
            r#"{"a": 1}"#,
            r#"{"a": [1, -2.5e3, true, null], "b": {"c": "plain"}, "d": [], "e": {}}"#,
            "{}",
            r#" { "k" : "v" } "#,
            r#"{"a": "é ✓", "b": [["x"], "y"]}"#,
        ] {
            let escaped = escape(doc);
            let read = read_escaped(&escaped, &limits).expect(doc);
            assert_eq!(read.root(), read_text(doc, &limits).unwrap().root());
        }
        // Left to the reading of the unescaped text, which says what is wrong if anything is.
        for doc in [
            r#"{"a": "say \"hi\""}"#,
            r#"{"a": "\u00e9"}"#,
            "{\n\"a\": 1}",
            r#"{"a": 1"#,
            r#"{"a": 1} x"#,
            r#"{"a": 1, "a": 2}"#,
            r#"{"a": NaN}"#,
            r#"{"a": "tab\there"}"#,
        ] {
            assert!(read_escaped(&escape(doc), &limits).is_none(), "{doc}");
        }
        let shallow = Limits {
            max_depth: 1,
            ..Limits::DEFAULT
        };
        assert!(read_escaped(&escape(r#"{"a": [1]}"#), &shallow).is_none());
        let short = Limits {
            max_string_bytes: 3,
            ..Limits::DEFAULT
        };
        assert!(read_escaped(&escape(r#"{"a": "four"}"#), &short).is_none());
        // Not a JSON string's content: a raw quote.
        assert!(read_logged(r#"{"a": 1}""#, &limits).is_none());
    }

    #[test]
    fn text_inside_a_string_or_before_more_text_reads_as_the_text_alone() {
        // Documents from a seed: strings with quotes, backslashes, non-ASCII and control
        // characters; whitespace of every kind; nesting.
        fn document(seed: &mut u64, depth: usize, out: &mut String) {
            let mut next = |n: u64| {
                *seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (*seed >> 33) % n
            };
            const SPACE: [&str; 5] = ["", " ", "  ", "\n", "\t"];
            const PIECES: [&str; 8] = ["a", "ord_1", "é", "\"", "\\", "\n", "✓", "x y"];
            let space = SPACE[next(5) as usize];
            out.push_str(space);
            match next(if depth > 3 { 4 } else { 6 }) {
                0 => out.push_str(["1", "-2.5e3", "0", "19.99"][next(4) as usize]),
                1 => out.push_str(["true", "false", "null"][next(3) as usize]),
                2 | 3 => {
                    let text: String = (0..next(4)).map(|_| PIECES[next(8) as usize]).collect();
                    out.push_str(&serde_json::to_string(&text).unwrap());
                }
                4 => {
                    out.push('[');
                    for i in 0..next(4) {
                        if i > 0 {
                            out.push(',');
                        }
                        document(seed, depth + 1, out);
                    }
                    out.push(']');
                }
                _ => {
                    out.push('{');
                    for i in 0..next(4) {
                        if i > 0 {
                            out.push(',');
                        }
                        out.push_str(&format!("\"k{i}\":"));
                        document(seed, depth + 1, out);
                    }
                    out.push('}');
                }
            }
            out.push_str(space);
        }
        let limits = Limits::DEFAULT;
        let (mut plain, mut read) = (0, 0);
        for mut seed in 0..20_000u64 {
            let mut doc = String::from("{\"root\":");
            document(&mut seed, 0, &mut doc);
            doc.push('}');
            let whole = read_text(&doc, &limits).expect("a generated document is JSON");
            let escaped = escape(&doc);
            if let Some(as_logged) = read_escaped(&escaped, &limits) {
                assert_eq!(as_logged.root(), whole.root(), "{doc}");
                read += 1;
            }
            // Without a backslash or a control character, nothing but quotes is escaped.
            if !doc.contains(['\\', '\n', '\t']) {
                plain += 1;
                assert!(read_escaped(&escaped, &limits).is_some(), "{doc}");
            }
            // The same document as a record's value, with the record going on after it: read
            // where it stands, up to its end, as the text alone.
            let record = format!("{doc}, \"id\": 7}}");
            let (leading, len) = read_leading(&record, &limits).expect("{record}");
            assert_eq!(leading.root(), whole.root(), "{record}");
            assert_eq!(len, doc.len(), "{record}");
        }
        assert!(plain > 2_000 && read >= plain, "{plain} plain, {read} read");
    }
}
