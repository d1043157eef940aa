//! Reading in blocks: every line whole whatever the block size, and a replay that does not
//! depend on it nor on the number of workers.

use std::io::{self, BufRead};

use super::blocks::{read_blocks, BLOCK_BYTES};
use super::{LogSource, Replayer, ToolSet};
use crate::formats::InputFormat;
use crate::outcome::BadRecord;
use crate::tally::Report;

/// A reader that hands out at most three bytes per read, behind a buffer that passes large
/// reads straight through, as a decompressor or a pipe may.
struct Trickle<'a>(&'a [u8]);

impl io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(3).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// A log with every kind of line end: CRLF, blank lines, a line much longer than the small
/// blocks, a line that is not UTF-8, and a last line without a newline.
fn awkward_log() -> Vec<u8> {
    let mut log = Vec::new();
    for i in 0..40 {
        let line = match i % 8 {
            0 => format!(r#"{{"tool":"t","arguments":"{{\"n\":{i}}}","model":"a"}}"#),
            1 => format!(r#"{{"tool":"t","arguments":"{{\"n\":\"{i}\"}}","model":"b"}}"#),
            2 => r#"{"tool":"t","arguments":{"n":"x"},"model":"a"}"#.to_owned(),
            3 => String::new(),
            4 => format!(
                r#"{{"tool":"t","arguments":"{{\"n\":1,\"s\":\"{}\"}}"}}"#,
                "é".repeat(300)
            ),
            5 => "not json".to_owned(),
            6 => "  ".to_owned(),
            _ => r#"{"tool":"u","arguments":{}}"#.to_owned(),
        };
        log.extend_from_slice(line.as_bytes());
        if i == 13 {
            log.extend_from_slice(b"\xff");
        }
        log.extend_from_slice(if i % 3 == 0 { b"\r\n" } else { b"\n" });
    }
    log.extend_from_slice(br#"{"tool":"t","arguments":"{\"n\":7}"}"#);
    log
}

#[test]
fn blocks_hold_whole_lines_whatever_their_size() {
    let log = awkward_log();
    for block_bytes in [1, 2, 3, 7, 64, 1000, BLOCK_BYTES] {
        for trickle in [false, true] {
            let mut input: Box<dyn BufRead> = match trickle {
                true => Box::new(io::BufReader::with_capacity(5, Trickle(&log))),
                false => Box::new(&log[..]),
            };
            let mut lines = Vec::new();
            let mut last_read = 0;
            read_blocks(
                &mut input,
                block_bytes,
                || None,
                |first, block, len, read| {
                    assert_eq!(first, lines.len() as u64 + 1);
                    lines.extend(block[..len].split(|b| *b == b'\n').map(<[u8]>::to_vec));
                    assert!(read > last_read);
                    last_read = read;
                    true
                },
            )
            .unwrap();
            let expected: Vec<Vec<u8>> = log.split(|b| *b == b'\n').map(<[u8]>::to_vec).collect();
            assert_eq!(lines, expected, "blocks of {block_bytes}");
            assert_eq!(last_read, log.len() as u64);
        }
    }
}

#[test]
fn a_replay_does_not_depend_on_the_block_size() {
    let tools = ToolSet::from_json(
        r#"[{"name": "t", "input_schema": {"type": "object",
            "properties": {"n": {"type": "integer"}, "s": {"type": "string", "maxLength": 10}},
            "required": ["n"], "additionalProperties": false}}]"#,
    )
    .unwrap();
    let log = awkward_log();
    let mut first: Option<(Report, Vec<u8>)> = None;
    for block_bytes in [1, 2, 3, 7, 64, 1000, BLOCK_BYTES] {
        for workers in [1, 3] {
            let mut replayer = Replayer::new(&tools, vec!["model".to_owned()]).with_verdicts(true);
            replayer.block_bytes = block_bytes;
            let mut verdicts = Vec::new();
            let sources = [log.clone(), log.clone()].map(|log| {
                Ok(LogSource {
                    name: "log".to_owned(),
                    format: InputFormat::Auto,
                    reader: Box::new(io::Cursor::new(log)),
                })
            });
            let report = replayer
                .run_sources(sources, workers, |_| {}, Some(&mut verdicts))
                .unwrap();
            match &first {
                None => first = Some((report, verdicts)),
                Some((report_1, verdicts_1)) => {
                    assert_eq!(
                        &report, report_1,
                        "blocks of {block_bytes}, {workers} workers"
                    );
                    assert_eq!(
                        &verdicts, verdicts_1,
                        "blocks of {block_bytes}, {workers} workers"
                    );
                }
            }
        }
    }
    let (report, _) = first.unwrap();
    // Per source: 31 records (10 blank lines skipped), the line that is not UTF-8 one of
    // the 5 that are not JSON, and the last line, without a newline, one of the 6 clean.
    assert_eq!(report.overall.total, 2 * 31);
    assert_eq!(report.overall.bad_records[&BadRecord::NotJson], 2 * 5);
    assert_eq!(
        report.overall.bad_lines[&BadRecord::NotJson],
        [6, 14, 22, 30, 38]
    );
    assert_eq!(report.overall.ok_clean, 2 * 6);
}
