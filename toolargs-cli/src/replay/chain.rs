//! The hash chain of the verdict logs replayed: each input that is a gate's log with `prev` on
//! its lines is read again and checked with `toolargs_gate::verify_chain`. A log without
//! `prev` has no chain to check, and is no error.

use std::io::{self, BufRead};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use toolargs_replay::inputs::Input;
use toolargs_replay::{ChainCheck, InputFormat};

/// The chain of every input of `format` that is a gate's verdict log whose lines carry
/// `prev`. Standard input, read once by the replay, is not checked (a copy of it is).
pub fn check(inputs: &[Input], format: InputFormat) -> Result<Vec<ChainCheck>, String> {
    let mut out = Vec::new();
    for input in inputs {
        let named = |e: io::Error| format!("{}: {e}", input.name());
        let gate_log = match format {
            _ if *input == Input::Stdin => false,
            InputFormat::Gate => true,
            InputFormat::Auto => InputFormat::of_input(input).map_err(named)? == InputFormat::Gate,
            _ => false,
        };
        if gate_log {
            let reader = input.open(Arc::new(AtomicU64::new(0))).map_err(named)?;
            if let Some(check) = check_one(&input.name(), reader).map_err(named)? {
                out.push(check);
            }
        }
    }
    Ok(out)
}

/// True when a line has a `prev` key (as the gate writes it; an escaped `\"prev\":` inside the
/// arguments' text is not one).
fn has_prev(line: &[u8]) -> bool {
    line.windows(7).any(|w| w == b"\"prev\":")
}

/// The chain of one log; `None` when no line carries `prev`.
fn check_one(name: &str, reader: impl BufRead) -> io::Result<Option<ChainCheck>> {
    let mut failed = None;
    let mut lines = 0u64;
    let mut chained = false;
    // The file's lines without their newline (nor a `\r` before it, as `str::lines` gives
    // them); a read error ends them, and is the answer.
    let mut split = reader.split(b'\n').map_while(|line| match line {
        Ok(mut line) => {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            lines += 1;
            chained |= has_prev(&line);
            Some(line)
        }
        Err(e) => {
            failed = Some(e);
            None
        }
    });
    let verdict = toolargs_gate::verify_chain(split.by_ref());
    // The rest of the file still tells whether it is chained at all, and its length.
    split.for_each(drop);
    if let Some(e) = failed {
        return Err(e);
    }
    if !chained {
        return Ok(None);
    }
    let broken = verdict.err().map(|b| {
        let why = match &b.found {
            Some(found) => format!("prev is {found}, expected {}", b.expected),
            None => format!("no prev, expected {}", b.expected),
        };
        (b.line as u64, why)
    });
    Ok(Some(ChainCheck::new(name, lines, broken)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolargs_gate::line_hash;

    fn chained(tools: &[&str]) -> Vec<String> {
        let mut prev = "0".repeat(64);
        tools
            .iter()
            .map(|tool| {
                let line = format!(r#"{{"tool":"{tool}","outcome":"clean","codes":[],"rules":[],"latency_us":1,"prev":"{prev}"}}"#);
                prev = line_hash(line.as_bytes());
                line
            })
            .collect()
    }

    fn check_text(text: &str) -> Option<ChainCheck> {
        check_one("gate.jsonl", text.as_bytes()).unwrap()
    }

    #[test]
    fn a_chain_holds_or_breaks_where_a_line_was_edited() {
        let lines = chained(&["a", "b", "c", "d"]);
        let text = lines.join("\n") + "\n";
        assert_eq!(
            check_text(&text),
            Some(ChainCheck::new("gate.jsonl", 4, None))
        );
        // CRLF line ends are the lines' ends, as `str::lines` reads them.
        assert_eq!(
            check_text(&lines.join("\r\n")),
            Some(ChainCheck::new("gate.jsonl", 4, None))
        );
        let edited = text.replace(r#""tool":"b""#, r#""tool":"x""#);
        let check = check_text(&edited).unwrap();
        assert_eq!(check.lines, 4);
        let (line, why) = check.broken.unwrap();
        assert_eq!(line, 3);
        assert!(why.starts_with("prev is "), "{why}");
    }

    #[test]
    fn a_log_without_prev_has_no_chain() {
        let text = "{\"tool\":\"a\",\"outcome\":\"clean\",\"codes\":[],\"latency_us\":1,\"arguments\":\"{\\\"prev\\\":1}\"}\n";
        assert_eq!(check_text(text), None);
        assert_eq!(check_text(""), None);
        // A chain that starts after lines without `prev` does not cover them: it breaks at
        // the first line.
        let lines = chained(&["a"]);
        let text = format!("{{\"tool\":\"old\"}}\n{}\n", lines[0]);
        let check = check_text(&text).unwrap();
        assert_eq!(check.broken.map(|(line, _)| line), Some(1));
        assert_eq!(check.lines, 2);
    }
}
