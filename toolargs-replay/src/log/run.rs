//! Running a replay over its sources: one thread reads blocks, the workers count them, and
//! the verdicts are written in input order.

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender, TrySendError};
use std::sync::Mutex;

use super::blocks::{lines_of, read_blocks, Block, BLOCK_BYTES};
use super::streamed::Streamed;
use super::Replayer;
use crate::formats::{self, InputFormat};
use crate::outcome::BadRecord;
use crate::tally::Report;

/// One input of [`Replayer::run_sources`]: a name for locations, a format and a reader.
pub struct LogSource<'a> {
    /// The name locations use (`FILE` in `FILE:LINE`).
    pub name: String,
    /// The format of its records; [`InputFormat::Auto`] detects it from the first records.
    pub format: InputFormat,
    /// The records, one per line.
    pub reader: Box<dyn BufRead + 'a>,
}

impl Replayer<'_> {
    /// Replays every line of `input` ([`InputFormat::Lines`]) on `workers` threads (at least
    /// one), in constant memory. `progress` is called on the reading thread with the number of
    /// bytes read so far. The report does not depend on the number of workers.
    pub fn run<R: BufRead>(
        &self,
        input: R,
        workers: usize,
        progress: impl FnMut(u64),
    ) -> io::Result<Report> {
        let source = LogSource {
            name: String::new(),
            format: InputFormat::Lines,
            reader: Box::new(input),
        };
        let mut report = self.run_sources([Ok(source)], workers, progress, None)?;
        report.sources.clear();
        Ok(report)
    }

    /// Replays every line of every source, one after the other, on `workers` threads (at
    /// least one), in constant memory; sources are opened as they are reached (an `Err` ends
    /// the run with it). `progress` is called on the reading thread with the number of
    /// (decompressed) bytes read so far over all sources. With
    /// [`Replayer::with_verdicts`], one verdict per record goes to `verdicts`, in input order.
    /// The report, and the verdicts, do not depend on the number of workers.
    pub fn run_sources<'a>(
        &self,
        sources: impl IntoIterator<Item = io::Result<LogSource<'a>>>,
        workers: usize,
        mut progress: impl FnMut(u64),
        mut verdicts: Option<&mut dyn Write>,
    ) -> io::Result<Report> {
        let workers = workers.max(1);
        let verdicts_on = self.verdicts.is_some() && verdicts.is_some();
        let (send, receive) = sync_channel::<Block>(workers * 2);
        let receive = Mutex::new(receive);
        // Blocks go back to the reader once counted, so a long replay reuses a few buffers
        // instead of asking the system for fresh pages block after block.
        let (give_back, take_back) = sync_channel::<Vec<u8>>(workers * 3);
        let (written, to_write) = channel::<(u64, Vec<u8>)>();
        std::thread::scope(|scope| {
            // The reading thread counts blocks too: alone with one worker, and whenever the
            // other workers have a full queue, so that no core waits on a hand-over.
            let handles: Vec<_> = (1..workers)
                .map(|_| {
                    let give_back = give_back.clone();
                    let written = written.clone();
                    let receive = &receive;
                    scope.spawn(move || self.work(receive, &give_back, &written, verdicts_on))
                })
                .collect();
            drop(give_back);
            drop(written);
            let mut names = Vec::new();
            // Verdicts that arrived before those of an earlier block.
            let mut pending: BTreeMap<u64, Vec<u8>> = BTreeMap::new();
            let mut next_out = 0u64;
            let mut flush = |pending: &mut BTreeMap<u64, Vec<u8>>,
                             next_out: &mut u64,
                             wait: bool|
             -> io::Result<()> {
                match verdicts.as_deref_mut().filter(|_| verdicts_on) {
                    Some(out) => write_in_order(out, &to_write, pending, next_out, wait),
                    None => Ok(()),
                }
            };
            let mut local = Report::new(self.by.clone());
            let spare: std::cell::Cell<Option<Vec<u8>>> = std::cell::Cell::new(None);
            let read_result = (|| -> io::Result<()> {
                let mut seq = 0u64;
                let mut done = 0u64;
                for (index, source) in sources.into_iter().enumerate() {
                    let LogSource {
                        name,
                        format,
                        mut reader,
                    } = source?;
                    let shared: std::sync::Arc<str> = name.as_str().into();
                    names.push(name);
                    let mut format = format;
                    let mut read_here = 0;
                    let mut flushed = Ok(());
                    let mut streamed = Streamed::new(index as u32);
                    read_blocks(
                        &mut reader,
                        self.block_bytes,
                        || spare.take().or_else(|| take_back.try_recv().ok()),
                        |first, bytes, len, read| {
                            if format == InputFormat::Auto {
                                format = formats::detect_block(&bytes[..len]);
                            }
                            read_here = read;
                            progress(done + read);
                            let block = Block {
                                seq,
                                source: index as u32,
                                name: shared.clone(),
                                format,
                                first,
                                bytes,
                                len,
                            };
                            seq += 1;
                            // A stream's calls run across lines: its blocks are read here, in order.
                            let here = if workers == 1 || format == InputFormat::Stream {
                                Some(block)
                            } else {
                                match send.try_send(block) {
                                    Ok(()) => None,
                                    Err(TrySendError::Full(block)) => Some(block),
                                    Err(TrySendError::Disconnected(_)) => return false,
                                }
                            };
                            if let Some(block) = here {
                                if block.format == InputFormat::Stream {
                                    let mut out = verdicts_on.then(Vec::new);
                                    self.stream_block(
                                        &block,
                                        &mut streamed,
                                        &mut local,
                                        out.as_mut(),
                                    );
                                    if let Some(out) = out {
                                        pending.insert(block.seq, out);
                                    }
                                } else {
                                    self.count_here(&block, &mut local, &mut pending, verdicts_on);
                                }
                                if block.bytes.capacity() <= 4 * BLOCK_BYTES {
                                    spare.set(Some(block.bytes));
                                }
                            }
                            flushed = flush(&mut pending, &mut next_out, false);
                            flushed.is_ok()
                        },
                    )?;
                    flushed?;
                    if format == InputFormat::Stream {
                        // Calls the stream left open are judged as they were cut off.
                        let mut out = verdicts_on.then(Vec::new);
                        self.stream_end(&shared, &mut streamed, &mut local, out.as_mut());
                        if let Some(out) = out {
                            pending.insert(seq, out);
                        }
                        seq += 1;
                    }
                    done += read_here;
                }
                Ok(())
            })();
            drop(send);
            // Blocks still queued for the other workers are counted here too, so that the
            // reading thread does not wait idle at the end of the input while they finish.
            // They come before the last blocks counted here, so they get a report of their
            // own: a report keeps the first few locations it meets.
            let tail = self.count_queued(&receive, &mut pending, verdicts_on);
            let flushed = flush(&mut pending, &mut next_out, true);
            let mut total = self.empty_report();
            total.merge(&local);
            total.merge(&tail);
            for handle in handles {
                match handle.join() {
                    Ok(report) => total.merge(&report),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            total.sources = names;
            read_result.and(flushed).map(|()| total)
        })
    }

    /// Counts on the reading thread the blocks still queued for the workers, into a report
    /// of their own.
    fn count_queued(
        &self,
        receive: &Mutex<Receiver<Block>>,
        pending: &mut BTreeMap<u64, Vec<u8>>,
        verdicts_on: bool,
    ) -> Report {
        let mut tail = Report::new(self.by.clone());
        while let Ok(block) = receive
            .lock()
            .map_err(drop)
            .and_then(|r| r.try_recv().map_err(drop))
        {
            self.count_here(&block, &mut tail, pending, verdicts_on);
        }
        tail
    }

    /// One worker: counts the blocks it takes from `receive` into a report of its own, sends
    /// their verdicts (when `verdicts_on`) to `written`, and gives their buffers back.
    fn work(
        &self,
        receive: &Mutex<Receiver<Block>>,
        give_back: &SyncSender<Vec<u8>>,
        written: &Sender<(u64, Vec<u8>)>,
        verdicts_on: bool,
    ) -> Report {
        // Counters only; the tool notes are the total's.
        let mut report = Report::new(self.by.clone());
        loop {
            // Hold the lock only to take a block, not while working on it.
            let next = match receive.lock() {
                Ok(guard) => guard.recv(),
                Err(_) => break,
            };
            let Ok(block) = next else { break };
            let mut out = verdicts_on.then(Vec::new);
            self.record_block(&block, &mut report, out.as_mut());
            if let Some(out) = out {
                let _ = written.send((block.seq, out));
            }
            // A block stretched by one very long line is not kept.
            if block.bytes.capacity() <= 4 * BLOCK_BYTES {
                let _ = give_back.try_send(block.bytes);
            }
        }
        report
    }

    /// Counts a block on the reading thread, keeping its verdicts (when written) until the
    /// earlier blocks' are out.
    fn count_here(
        &self,
        block: &Block,
        report: &mut Report,
        pending: &mut BTreeMap<u64, Vec<u8>>,
        verdicts: bool,
    ) {
        let mut out = verdicts.then(Vec::new);
        self.record_block(block, report, out.as_mut());
        if let Some(out) = out {
            pending.insert(block.seq, out);
        }
    }

    /// Counts every line of a block.
    fn record_block(&self, block: &Block, report: &mut Report, mut out: Option<&mut Vec<u8>>) {
        lines_of(block, |at, text| match text {
            Some(text) => self.record_into(
                block.format,
                at,
                &block.name,
                text,
                report,
                out.as_deref_mut(),
            ),
            None => self.count(
                at,
                &block.name,
                Err(BadRecord::NotJson),
                report,
                out.as_deref_mut(),
            ),
        });
    }
}

/// Writes to `out` the verdicts of the blocks that are next in input order: those kept in
/// `pending` and those arriving on `to_write` (all of them, until every worker is done, when
/// `wait`; else those there already), keeping the ones that came early.
fn write_in_order(
    out: &mut dyn Write,
    to_write: &Receiver<(u64, Vec<u8>)>,
    pending: &mut BTreeMap<u64, Vec<u8>>,
    next_out: &mut u64,
    wait: bool,
) -> io::Result<()> {
    loop {
        let arrived = if wait {
            to_write.recv().ok()
        } else {
            to_write.try_recv().ok()
        };
        let done = arrived.is_none();
        if let Some((seq, bytes)) = arrived {
            pending.insert(seq, bytes);
        }
        while let Some(bytes) = pending.remove(next_out) {
            out.write_all(&bytes)?;
            *next_out += 1;
        }
        if done {
            return Ok(());
        }
    }
}
