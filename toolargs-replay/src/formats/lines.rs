//! The replay's own format: one call per record, `{"tool": NAME, "arguments":
//! STRING_OR_OBJECT, ...}`, every other top-level field a grouping key.

use std::borrow::Cow;
use std::cell::Cell;

use serde_json::Value;
use toolargs_core::decode::{read_embedded, read_logged, LoggedPayload};
use toolargs_core::json::skim;
use toolargs_core::node::Node;
use toolargs_core::options::Limits;

use super::{Args, Call};
use crate::outcome::BadRecord;

/// Reads one record and hands its call (or why it is none) to `f`.
///
/// The usual record (arguments as JSON text or a JSON value, nothing unusual in it) is read by
/// [`Scan`], which finds the fields replay needs without building the others. Anything else is
/// read by toolargs' own reader, which borrows from the line; a line it refuses (a duplicate
/// key, say) is read again by serde_json, which keeps the last value as most loggers' readers
/// do.
pub(crate) fn read<R>(
    text: &str,
    by: &[String],
    limits: &Limits,
    f: impl FnOnce(Result<Call<'_>, BadRecord>) -> R,
) -> R {
    if let Some(record) = Scan::record(text, by, limits) {
        let result = f(Ok(Call {
            tool: record.tool.as_deref(),
            arguments: Some(match record.arguments {
                Found::Escaped(text, read) => Args::Escaped(text, read),
                Found::Logged(text, read) => Args::Logged(Cow::Borrowed(text), read),
            }),
            key: record.key,
        }));
        return result;
    }
    let fallback: Value;
    let node = match toolargs_core::decode::parse_document(text, Limits::DEFAULT.max_depth) {
        Ok(node) => node,
        Err(_) => match serde_json::from_str::<Value>(text) {
            Ok(value) => {
                fallback = value;
                match Node::from_value(&fallback, usize::MAX) {
                    Ok(node) => node,
                    Err(_) => return f(Err(BadRecord::NotJson)),
                }
            }
            Err(_) => return f(Err(BadRecord::NotJson)),
        },
    };
    let Node::Object(fields) = &node else {
        return f(Err(BadRecord::NotObject));
    };
    let field = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v);
    let key: Vec<Value> = by
        .iter()
        .map(|f| field(f).map_or(Value::Null, Node::to_value))
        .collect();
    let tool = match field("tool") {
        None | Some(Node::Null) => None,
        Some(Node::String(name)) => Some(name.as_ref()),
        Some(_) => Some(""),
    };
    let arguments = field("arguments").map(|arguments| match arguments {
        Node::String(text) => Args::Text(text.as_ref()),
        other => Args::Logged(Cow::Owned(other.to_json()), None),
    });
    f(Ok(Call {
        tool,
        arguments,
        key,
    }))
}

/// The fields of a usual record, as [`Scan::record`] finds them.
struct Usual<'a> {
    tool: Option<Cow<'a, str>>,
    arguments: Found<'a>,
    key: Vec<Value>,
}

/// The arguments of a usual record.
enum Found<'a> {
    /// A string of JSON text, as logged, and as read from there ([`Args::Escaped`]).
    Escaped(&'a str, Option<LoggedPayload<'a>>),
    /// Any other value: its text in the record, whose syntax the scan has checked, and the
    /// object as read from there ([`Args::Logged`]).
    Logged(&'a str, Option<LoggedPayload<'a>>),
}

/// Runs `f` on JSON text logged as a string ([`Args::Escaped`]), unescaped into this thread's
/// spare buffer, which is kept for the next one. `None` if the text is not one string's
/// content and closing quote, as the scan checked.
pub(crate) fn with_unescaped<R>(logged: &str, f: impl FnOnce(&str) -> R) -> Option<R> {
    let mut text = SPARE.take();
    text.clear();
    let read = skim::unescape_into(logged, 0, &mut text).filter(|&end| end == logged.len());
    let result = read.map(|_| f(&text));
    if text.capacity() <= SPARE_MAX {
        SPARE.set(text);
    }
    result
}

/// A grouping field's value, as the full reader reads it from its text.
fn value_of(text: &str) -> Option<Value> {
    toolargs_core::decode::parse_document(text, Limits::DEFAULT.max_depth)
        .ok()
        .map(|node| node.to_value())
}

thread_local! {
    /// The buffer of the last arguments [`with_unescaped`] wrote, for the next record's: most
    /// records have their arguments as escaped text, and the buffer needs no allocation.
    static SPARE: Cell<String> = const { Cell::new(String::new()) };
}

/// The largest buffer kept in [`SPARE`], so that one long line does not hold its memory.
const SPARE_MAX: usize = 1 << 16;

/// How deep [`Scan`] follows nested values before leaving the record to the full reader, well
/// within the full reader's own limit.
const SCAN_DEPTH: usize = 32;

/// A reader of the usual record `{"tool": "NAME", "arguments": "JSON TEXT", ...}`: it reads the
/// tool's name and the arguments (the text of those logged as a value, its syntax checked),
/// reads the grouping fields (with the full reader when they are not strings), and checks the
/// syntax of every other value without building it ([`skim`]). It gives up (`None`) on
/// anything it is not sure to read exactly as the full reader does: a repeated record key whose
/// value it reads, a nested object with a repeated key, deep nesting, arguments logged as a
/// value the full reader refuses, or invalid JSON; the full reader then decides.
struct Scan<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Scan<'a> {
    fn record(text: &'a str, by: &[String], limits: &Limits) -> Option<Usual<'a>> {
        // Without grouping fields, the usual case, the scan is built without their code.
        match by {
            [] => Self::record_grouped::<false>(text, by, limits),
            _ => Self::record_grouped::<true>(text, by, limits),
        }
    }

    fn record_grouped<const GROUPED: bool>(
        text: &'a str,
        by: &[String],
        limits: &Limits,
    ) -> Option<Usual<'a>> {
        let mut scan = Scan { text, at: 0 };
        scan.space();
        scan.eat(b'{')?;
        let mut tool = None;
        let mut arguments = None;
        // Built only when grouping: `vec!` calls out even for no element.
        let mut key: Vec<Value> = match GROUPED {
            false => Vec::new(),
            true => vec![Value::Null; by.len()],
        };
        // Only a repeated key whose value is used (the tool, the arguments, a grouping field)
        // sends the record to the full reader, which keeps the last value. Any other key may
        // repeat: the values replay reads are the same whichever copy is kept.
        let mut tool_seen = false;
        let mut grouped_seen = 0u64;
        scan.space();
        if scan.peek() == Some(b'}') {
            return None;
        }
        loop {
            scan.space();
            let name = scan.string()?;
            let name: &str = &name;
            scan.colon()?;
            let start = scan.at;
            let field = match GROUPED {
                false => None,
                true => by.iter().position(|f| f == name),
            };
            if let Some(i) = field {
                // Past 64 grouping fields, every record goes to the full reader.
                let bit = 1u64.checked_shl(i as u32)?;
                if grouped_seen & bit != 0 {
                    return None;
                }
                grouped_seen |= bit;
            }
            match name {
                "tool" => {
                    if std::mem::replace(&mut tool_seen, true) {
                        return None;
                    }
                    match scan.peek()? {
                        b'"' => tool = Some(scan.string()?),
                        b'n' => scan.skip()?,
                        // A name that is not a string: the full reader says so.
                        _ => return None,
                    }
                }
                "arguments" => {
                    // Once tested, the assignment below has no earlier value to drop.
                    if arguments.is_some() {
                        return None;
                    }
                    arguments = Some(match scan.peek()? {
                        // Arguments logged as text: read as they stand where they can be,
                        // else their escapes checked, not undone.
                        b'"' => match read_logged(&text[start + 1..], limits) {
                            Some((payload, read)) => {
                                scan.at = start + 1 + read;
                                Found::Escaped(&text[start + 1..scan.at], Some(payload))
                            }
                            None => {
                                scan.at = skim::skip_string(text, start)?;
                                Found::Escaped(&text[start + 1..scan.at], None)
                            }
                        },
                        // Arguments logged as a value: an object read where it stands, else
                        // its syntax checked and its text left to the tool's judge.
                        _ => match read_embedded(&text[start..], limits) {
                            Some((payload, read)) => {
                                scan.at = start + read;
                                Found::Logged(&text[start..scan.at], Some(payload))
                            }
                            None => {
                                scan.skip()?;
                                Found::Logged(&text[start..scan.at], None)
                            }
                        },
                    });
                }
                _ => match (field, scan.peek()?) {
                    (Some(i), _) => key[i] = scan.grouped()?,
                    // The usual other fields (an id, a model's name) without the call.
                    (None, b'"') => scan.at = skim::skip_string(text, scan.at)?,
                    (None, b'-' | b'0'..=b'9') => scan.at += skim::number(text, scan.at)?.len(),
                    (None, _) => scan.skip()?,
                },
            }
            if let Some(i) = field {
                // A grouping field named `tool` or `arguments`, read above as the call's.
                if let "tool" | "arguments" = name {
                    key[i] = value_of(&text[start..scan.at])?;
                }
                // A grouping field named twice holds the same value twice.
                for j in i + 1..by.len() {
                    if by[j] == name {
                        key[j] = key[i].clone();
                    }
                }
            }
            if scan.comma() {
                continue;
            }
            scan.space();
            match scan.next()? {
                b',' => continue,
                b'}' => break,
                _ => return None,
            }
        }
        scan.space();
        if scan.at != text.len() {
            return None;
        }
        Some(Usual {
            tool,
            arguments: arguments?,
            key,
        })
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.at += 1;
        Some(b)
    }

    fn eat(&mut self, want: u8) -> Option<()> {
        (self.next()? == want).then_some(())
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// The colon after a key, with the space around it: most often `: ` exactly, taken at
    /// once.
    #[inline(always)]
    fn colon(&mut self) -> Option<()> {
        if self.text.as_bytes().get(self.at..self.at + 2) == Some(b": ") {
            self.at += 2;
        } else {
            self.space();
            self.eat(b':')?;
        }
        self.space();
        Some(())
    }

    /// Moves past the usual `, ` between members, if it is at the cursor; any other
    /// spacing is left to the general steps.
    #[inline(always)]
    fn comma(&mut self) -> bool {
        let usual = self.text.as_bytes().get(self.at..self.at + 2) == Some(b", ");
        if usual {
            self.at += 2;
        }
        usual
    }

    /// The string at the cursor, borrowed when it has no escape.
    #[inline(always)]
    fn string(&mut self) -> Option<Cow<'a, str>> {
        let (string, end) = skim::string(self.text, self.at)?;
        self.at = end;
        Some(string)
    }

    /// The value of a grouping field at the cursor: a string as the scan reads it (as the full
    /// reader does), anything else with the full reader.
    #[inline(never)]
    fn grouped(&mut self) -> Option<Value> {
        if self.peek()? == b'"' {
            return Some(Value::String(self.string()?.into_owned()));
        }
        let start = self.at;
        self.skip()?;
        value_of(&self.text[start..self.at])
    }

    /// Checks the value at the cursor as the full reader would read it (its syntax, no
    /// repeated key, no deep nesting) and moves past it: a record the full reader refuses is
    /// read again by serde_json, whose values replay must then see too.
    fn skip(&mut self) -> Option<()> {
        self.at = skim::skip_strict(self.text, self.at, SCAN_DEPTH)?.end;
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call as plain values: tool, arguments (`text:`, `logged:` or `value:`), grouping key.
    type Found = (Option<String>, Option<String>, Vec<Value>);

    /// The call `read` finds, as plain values.
    fn call_of(text: &str, by: &[String]) -> Result<Found, BadRecord> {
        read(text, by, &Limits::DEFAULT, |call| {
            call.map(|c| {
                // Logged text as the full reader writes it back, whatever its spacing.
                let args = c.arguments.map(|a| match a {
                    Args::Text(t) => format!("text:{t}"),
                    Args::Escaped(t, read) => with_unescaped(t, |t| {
                        // Arguments the scan read as they stand are what the text holds.
                        if let Some(payload) = read {
                            let whole = toolargs_core::decode::parse_document(t, 128)
                                .expect("arguments the scan read are JSON");
                            assert_eq!(format!("{payload:?}"), format!("LoggedPayload({whole:?})"));
                        }
                        format!("text:{t}")
                    })
                    .unwrap_or_else(|| format!("unreadable {t}")),
                    Args::Logged(t, read) => {
                        let whole = toolargs_core::decode::parse_document(&t, 64);
                        // An object the scan read where it stands is what its text holds.
                        if let Some(payload) = read {
                            let whole = whole.as_ref().expect("arguments the scan read are JSON");
                            assert_eq!(format!("{payload:?}"), format!("LoggedPayload({whole:?})"));
                        }
                        format!(
                            "logged:{}",
                            whole.map_or_else(|_| format!("unreadable {t}"), |n| n.to_json())
                        )
                    }
                    Args::Value(v) => format!("value:{v}"),
                });
                (c.tool.map(str::to_owned), args, c.key)
            })
        })
    }

    /// The full reader's answer, without the scan.
    fn full(text: &str, by: &[String]) -> Result<Found, BadRecord> {
        let node = match toolargs_core::decode::parse_document(text, 64) {
            Ok(node) => node,
            Err(_) => match serde_json::from_str::<Value>(text) {
                Ok(v) => return call_of(&v.to_string(), by).map_err(|_| BadRecord::NotJson),
                Err(_) => return Err(BadRecord::NotJson),
            },
        };
        let Node::Object(fields) = &node else {
            return Err(BadRecord::NotObject);
        };
        let field = |n: &str| fields.iter().find(|(k, _)| k == n).map(|(_, v)| v);
        let tool = match field("tool") {
            None | Some(Node::Null) => None,
            Some(Node::String(s)) => Some(s.to_string()),
            Some(_) => Some(String::new()),
        };
        let args = field("arguments").map(|a| match a {
            Node::String(t) => format!("text:{t}"),
            other => format!("logged:{}", other.to_json()),
        });
        let key = by
            .iter()
            .map(|f| field(f).map_or(Value::Null, Node::to_value))
            .collect();
        Ok((tool, args, key))
    }

    #[test]
    fn the_scan_reads_records_as_the_full_reader_does() {
        let by = vec!["model".to_owned(), "n".to_owned()];
        let records = [
            r#"{"tool":"a","arguments":"{\"x\":1}","model":"m","n":[1,{"k":-2.5}]}"#,
            r#" { "arguments" : "{\"x\":\"a\\nb\\\\\"}" , "tool" : null , "id" : 12 } "#,
            r#"{"tool":"a","arguments":"```json\n{}\n```","model":{"name":"m","v":[true,false,null]}}"#,
            r#"{"tool":"t\u00e9","arguments":"{}"}"#,
            r#"{"tool":"a","arguments":"{}","id":1e400}"#,
            r#"{"tool":"a","arguments":"{}","id":01}"#,
            r#"{"tool":"a","arguments":"{}","id":1.}"#,
            r#"{"tool":"a","arguments":"{}","tool":"b"}"#,
            r#"{"tool":"a","arguments":"{}","x":{"k":1,"k":2}}"#,
            r#"{"tool":"a","arguments":{"x":1}}"#,
            r#"{"tool":"a","arguments":"{}",}"#,
            r#"{"tool":"a","arguments":"{}"} x"#,
            r#"{"tool":"a","arguments":"tab	in"}"#,
            r#"{"tool":"a","arguments":"{}","n":12345678901234567890}"#,
            r#"{"tool":"a","arguments":"{}","n":-123456789.012345,"id":0.5}"#,
            r#"{"tool":"a","arguments":"{}","n":-1234567890.123456}"#,
            r#"{"tool":"a","arguments":"{}","model":"m\"1\\/\n","n":"x"}"#,
            r#"{"tool":"a","arguments":"{}","model":"m\u00e9"}"#,
            r#"{"tool":"a","arguments":"{}","model":null,"n":""}"#,
            r#"{"tool":7,"arguments":"{}"}"#,
            r#"{"tool":"a"}"#,
            r#"{}"#,
            r#"[1]"#,
            r#"{"tool":"a","arguments":"{}","x":[1,2,]}"#,
            r#"{"tool":"a","arguments":"{}","x":tru}"#,
            r#"{"id":1,"tool":"a","arguments":"{}","id":2,"x":[1],"x":{}}"#,
            r#"{"tool":"a","model":"m","arguments":"{}","model":"n"}"#,
            r#"{"tool":"a","arguments":"{\"x\":1}","arguments":"{}"}"#,
            r#"{"tool":null,"arguments":"{}","tool":"a"}"#,
        ];
        for record in records {
            assert_eq!(call_of(record, &by), full(record, &by), "{record}");
        }
        assert!(Scan::record(records[0], &by, &Limits::DEFAULT).is_some());
        assert!(Scan::record(records[1], &by, &Limits::DEFAULT).is_some());
        // Escapes of every kind and numbers of any length are the scan's too.
        for read in [3, 4, 13, 14, 15, 17] {
            assert!(Scan::record(records[read], &by, &Limits::DEFAULT).is_some());
        }
        // No JSON: left to the full reader, which says so.
        for refused in [5, 6, 10, 11, 12, 23, 24] {
            assert!(Scan::record(records[refused], &by, &Limits::DEFAULT).is_none());
        }
        // A repeated key is the scan's own only when replay does not read its value.
        assert!(Scan::record(records[25], &by, &Limits::DEFAULT).is_some());
        for repeated in &records[26..] {
            assert!(
                Scan::record(repeated, &by, &Limits::DEFAULT).is_none(),
                "{repeated}"
            );
        }
    }

    #[test]
    fn the_scan_reads_arguments_logged_as_a_value_as_the_full_reader_does() {
        let by = ["model", "tool", "arguments"].map(str::to_owned);
        let long = format!(
            r#"{{"model":"{}","tool":"a","arguments":{{"x":1}}}}"#,
            "m".repeat(20_000)
        );
        // Read by the scan, which hands over the value's text as logged.
        let scanned = [
            r#"{"tool":"a","model":"m","arguments":{"x":1,"y":[true,null,"\"q\""],"z":{"k":-0.5}}}"#,
            r#" { "tool" : "a" , "arguments" : [ 1 , {"x":{}} ] } "#,
            r#"{"tool":"a","arguments":null}"#,
            r#"{"tool":"a","arguments":12}"#,
            r#"{"arguments":{"x":1}}"#,
            r#"{"tool":"a","arguments":{"x":1},"model":"m"}"#,
            &long,
            // An object is read where it stands by toolargs' own reader, which keeps every
            // number's digits and reads every escape.
            r#"{"tool":"a","arguments":{"x":1e400,"y":123456789012345678901234567890}}"#,
            r#"{"tool":"a","arguments":{"t\u00e9":"\u00e9"}}"#,
        ];
        // Left to the full reader.
        let full_only = [
            r#"{"tool":"a","arguments":{"x":1,"x":2}}"#,
            r#"{"tool":"a","arguments":{"x":1}}}"#,
            r#"{"tool":"a","arguments":{"x":1}"#,
            r#"{"tool":"a","arguments":{"x":1}]"#,
            r#"{"tool":"a","arguments":{"x":1} x}"#,
            r#"{"tool":"a","arguments":}"#,
            r#"{"tool":"a","arguments":{"x":1},}"#,
            "{\"tool\":\"a\",\"arguments\":{\"x\":1}}\u{a0}",
        ];
        for record in scanned.iter().chain(&full_only) {
            assert_eq!(call_of(record, &by), full(record, &by), "{record}");
        }
        for record in scanned {
            assert!(
                Scan::record(record, &by, &Limits::DEFAULT).is_some(),
                "{record}"
            );
        }
        for record in full_only {
            assert!(
                Scan::record(record, &by, &Limits::DEFAULT).is_none(),
                "{record}"
            );
        }
        let exact = call_of(scanned[7], &by).unwrap().1.unwrap();
        assert_eq!(
            exact,
            r#"logged:{"x":1e400,"y":123456789012345678901234567890}"#
        );
        // A grouping field named twice holds its value twice, as in the full reader.
        let twice = ["model", "model"].map(str::to_owned);
        for record in [scanned[0], scanned[5]] {
            assert!(Scan::record(record, &twice, &Limits::DEFAULT).is_some());
            assert_eq!(call_of(record, &twice), full(record, &twice));
        }
    }

    #[test]
    fn deep_values_are_read_as_the_full_reader_reads_them() {
        let by = ["n".to_owned()];
        for levels in 28..36 {
            let value = format!("{}1{}", "[".repeat(levels), "]".repeat(levels));
            let record = format!(r#"{{"tool":"a","arguments":{{"x":{value}}},"n":{value}}}"#);
            assert_eq!(call_of(&record, &by), full(&record, &by), "{levels}");
            assert_eq!(call_of(&record, &[]), full(&record, &[]), "{levels}");
        }
    }

    #[test]
    fn records_cut_anywhere_are_read_as_the_full_reader_reads_them() {
        let by = ["model".to_owned()];
        let records = [
            r#"{"id": 0, "model": "model-b", "tool": "issue_refund", "arguments": "{\"order_id\": \"ord_A4E1g0Fg\", \"tags\": [\"gift\", \"fragile\"], \"note\": \"caf\\u00e9 \\\"\\u20ac\\\"\"}"}"#,
            r#"{"id": 1.5, "model": "m\"é", "tool": "t", "arguments": {"order_id": "ord_\"x", "amount": -12, "ok": [true, false, null, {}], "z": {"k": "v"}}}"#,
        ];
        for record in records {
            for (cut, _) in record.char_indices() {
                let text = &record[..cut];
                assert_eq!(call_of(text, &by), full(text, &by), "{text}");
                assert_eq!(call_of(text, &[]), full(text, &[]), "{text}");
            }
            assert!(
                Scan::record(record, &by, &Limits::DEFAULT).is_some(),
                "{record}"
            );
        }
    }

    /// A small deterministic generator of JSON-ish text, for the test below: mostly what the
    /// scan reads, now and then what it leaves to the full reader or what is no JSON.
    struct Gen(u64);

    impl Gen {
        fn below(&mut self, n: usize) -> usize {
            // xorshift64*: enough spread for choosing among a few pieces.
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
        }

        fn pick<'p>(&mut self, pieces: &[&'p str]) -> &'p str {
            pieces[self.below(pieces.len())]
        }

        /// Usually one of `usual`, one time in `odds` one of `rare`.
        fn mostly<'p>(&mut self, usual: &[&'p str], rare: &[&'p str], odds: usize) -> &'p str {
            match self.below(odds) {
                0 => self.pick(rare),
                _ => self.pick(usual),
            }
        }

        fn space(&mut self) -> &'static str {
            self.mostly(&["", "", " "], &["\t", "  ", "\r"], 8)
        }

        fn string(&mut self) -> String {
            let usual = [
                "a", "é", "€", "𝄞", "\\\"", "\\\\", "\\n", "\\/", "\\t", "x y", "", "12345678",
            ];
            let rare = ["\\u00e9", "\\x", "\u{1}"];
            let body: String = (0..self.below(5))
                .map(|_| self.mostly(&usual, &rare, 30))
                .collect();
            format!("\"{body}\"")
        }

        fn value(&mut self, depth: usize) -> String {
            let numbers = [
                "0",
                "-0",
                "12",
                "-3.25",
                "123456789012345",
                "1.23456789012345",
                "0.000001",
                "42",
            ];
            let odd_numbers = [
                "1e3",
                "1.5E-2",
                "12345678901234567",
                "-12345678901234567890",
                "01",
                "1.",
            ];
            match self.below(if depth > 3 { 6 } else { 8 }) {
                0 | 1 => self.string(),
                2 | 4 => self.mostly(&numbers, &odd_numbers, 10).to_owned(),
                3 | 5 => self
                    .mostly(&["true", "false", "null"], &["nul", "tru"], 30)
                    .to_owned(),
                6 => {
                    let items: Vec<String> = (0..self.below(4))
                        .map(|_| {
                            format!("{}{}{}", self.space(), self.value(depth + 1), self.space())
                        })
                        .collect();
                    format!("[{}]", items.join(","))
                }
                _ => self.object(depth + 1),
            }
        }

        /// An object of distinct keys, now and then one repeated or escaped.
        fn object(&mut self, depth: usize) -> String {
            let mut keys = vec!["k", "x", "y", "tool", "arguments"];
            let members: Vec<String> = (0..self.below(5))
                .map(|_| {
                    let key = match self.below(20) {
                        0 => "t\\u00e9",
                        1 => "k",
                        _ => keys.remove(self.below(keys.len())),
                    };
                    let (a, b, c) = (self.space(), self.space(), self.space());
                    format!("{a}\"{key}\"{b}:{c}{}", self.value(depth))
                })
                .collect();
            format!("{{{}}}", members.join(","))
        }

        /// A record: the usual fields in any order, the arguments as JSON text or as a value,
        /// now and then a field repeated or something broken.
        fn record(&mut self) -> String {
            // Arguments nearly always, somewhere among the other fields.
            let mut keys = vec!["tool", "model", "n", "id"];
            let mut members = Vec::new();
            let count = 1 + self.below(5);
            let arguments_at = match self.below(20) {
                0 => usize::MAX,
                _ => self.below(count),
            };
            for at in 0..count {
                if at == arguments_at {
                    keys.push("arguments");
                }
                let key = match (at == arguments_at, self.below(30)) {
                    (true, _) => keys.pop().unwrap_or("arguments"),
                    (false, 0) => "arguments",
                    (false, _) => keys.remove(self.below(keys.len())),
                };
                let value = match key {
                    "tool" => self
                        .mostly(&["\"a\"", "\"a\"", "null"], &["7", "\"b\\u0041\""], 20)
                        .to_owned(),
                    "arguments" if self.below(3) > 0 => {
                        let inner = self.object(1);
                        serde_json::to_string(&inner).unwrap_or_default()
                    }
                    _ => self.value(1),
                };
                let (a, b, c) = (self.space(), self.space(), self.space());
                members.push(format!("{a}\"{key}\"{b}:{c}{value}{}", self.space()));
                if keys.is_empty() {
                    break;
                }
            }
            let mut record = format!("{}{{{}}}{}", self.space(), members.join(","), self.space());
            match self.below(40) {
                0 => record.push(','),
                1 => {
                    record.pop();
                }
                2 => record.insert(1, ','),
                _ => {}
            }
            record
        }
    }

    #[test]
    fn generated_records_are_read_as_the_full_reader_reads_them() {
        let mut gen = Gen(0x9e37_79b9_7f4a_7c15);
        let groupings = [
            vec![],
            vec!["model".to_owned(), "n".to_owned()],
            ["model", "model", "tool", "arguments"]
                .map(str::to_owned)
                .to_vec(),
        ];
        let mut scanned = 0;
        let total = 20_000;
        for i in 0..total {
            let record = gen.record();
            let by = &groupings[i % groupings.len()];
            assert_eq!(call_of(&record, by), full(&record, by), "{record}");
            scanned += usize::from(Scan::record(&record, by, &Limits::DEFAULT).is_some());
        }
        // Most records take the scan, so that the comparison says something about it.
        assert!(scanned > total / 2, "{scanned} of {total} scanned");
    }
}
