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

/// A gate's verdict log: verdicts with and without arguments, an outcome no gate writes
/// today, a line without a time, one that is not JSON.
fn verdict_log() -> Vec<u8> {
    let mut log = String::new();
    for i in 0..30u32 {
        let time = 1_796_389_200 + i * 700;
        let line = match i % 6 {
            0 => format!(
                r#"{{"time":{time}.5,"session":"s{}","tool":"t","outcome":"clean","codes":[],"rules":[],"paths":[],"latency_us":9,"arguments":"{{\"n\":1}}"}}"#,
                i % 2
            ),
            1 => format!(
                r#"{{"time":{time},"session":null,"tool":"t","outcome":"clean","codes":[],"rules":[],"paths":[],"latency_us":9,"arguments":"{{\"n\":\"x\"}}"}}"#
            ),
            2 => format!(
                r#"{{"time":{time},"session":"s1","tool":"t","outcome":"rejected","codes":["type","type"],"rules":[],"paths":["$.n","$.m"],"latency_us":9}}"#
            ),
            3 => format!(
                r#"{{"time":{time},"session":"s1","tool":"u","outcome":"tools_unavailable","codes":[],"rules":[],"paths":[],"latency_us":9,"arguments":"{{}}"}}"#
            ),
            4 => r#"{"session":"s1","tool":"t","outcome":"repaired","codes":[],"rules":["numeric_string_to_int"],"paths":["$.n"],"latency_us":9,"arguments":"{\"n\":\"2\"}"}"#.to_owned(),
            _ => "{not json".to_owned(),
        };
        log.push_str(&line);
        log.push('\n');
    }
    log.into_bytes()
}

#[test]
fn a_verdict_log_counts_its_verdicts_and_judges_again_those_it_can() {
    let tools = ToolSet::from_json(
        r#"[{"name": "t", "input_schema": {"type": "object",
            "properties": {"n": {"type": "integer"}}, "required": ["n"]}}]"#,
    )
    .unwrap();
    let log = verdict_log();
    let mut first: Option<(Report, Vec<u8>)> = None;
    for block_bytes in [1, 64, BLOCK_BYTES] {
        for workers in [1, 3] {
            let mut replayer = Replayer::new(&tools, Vec::new()).with_verdicts(false);
            replayer.block_bytes = block_bytes;
            let mut verdicts = Vec::new();
            let source = LogSource {
                name: "gate.jsonl".to_owned(),
                format: InputFormat::Auto,
                reader: Box::new(io::Cursor::new(log.clone())),
            };
            let report = replayer
                .run_sources([Ok(source)], workers, |_| {}, Some(&mut verdicts))
                .unwrap();
            match &first {
                None => first = Some((report, verdicts)),
                Some((report_1, verdicts_1)) => {
                    assert_eq!(&report, report_1, "blocks of {block_bytes}, {workers}");
                    assert_eq!(&verdicts, verdicts_1, "blocks of {block_bytes}, {workers}");
                }
            }
        }
    }
    let (report, verdicts) = first.unwrap();
    let recorded = &report.recorded;
    // 25 verdicts (5 of each kind), 5 lines that are not JSON.
    assert_eq!(recorded.records, 25);
    assert_eq!(report.overall.bad_records[&BadRecord::NotJson], 5);
    assert_eq!(recorded.outcomes["clean"], 10);
    assert_eq!(recorded.outcomes["tools_unavailable"], 5);
    assert_eq!(recorded.codes["type"], 5);
    assert_eq!(recorded.untimed, 5);
    assert_eq!(recorded.sessions[&None]["clean"], 5);
    // Judged again: the 15 calls to `t` with arguments; the rejected ones carry none and `u`
    // has no definition. The clean calls of `"n": "x"` are rejected today.
    assert_eq!(recorded.judged, 15);
    assert_eq!(recorded.not_judged[crate::NO_ARGUMENTS], 5);
    assert_eq!(recorded.not_judged[crate::NO_DEFINITION], 5);
    assert_eq!((recorded.compared, recorded.changed), (15, 5));
    assert_eq!(
        recorded.changes[&("clean".to_owned(), "rejected".to_owned())],
        5
    );
    let lines: Vec<u64> = recorded
        .changed_examples
        .iter()
        .map(|c| c.at.line)
        .collect();
    assert_eq!(lines, [2, 8, 14, 20, 26]);
    assert_eq!(report.overall.calls(), 15);
    assert_eq!(report.overall.rejected, 5);
    // One verdict line per record, with the recorded verdict.
    let verdicts: Vec<serde_json::Value> = verdicts
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert_eq!(verdicts.len(), 30);
    assert_eq!(verdicts[1]["outcome"], "rejected");
    assert_eq!(verdicts[1]["recorded"]["outcome"], "clean");
    assert_eq!(verdicts[1]["recorded"]["changed"], true);
    assert_eq!(verdicts[2]["outcome"], "not_judged");
    assert_eq!(verdicts[2]["reason"], "no_arguments");
    assert_eq!(verdicts[3]["reason"], "no_definition");
    assert_eq!(verdicts[5]["outcome"], "bad");
}
