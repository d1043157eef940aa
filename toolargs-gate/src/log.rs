//! The verdict log: one JSON line per `tools/call`, appended to a file that outlives the gate.
//!
//! A line is built whole in memory and written with one `write` on a file opened for appending
//! (`O_APPEND`), never through a buffer: gates sharing a file never interleave their lines, a
//! gate that is killed loses at most the line it was writing, and a file truncated under the
//! gate (`copytruncate`) goes on from its start. On Unix, each write holds an exclusive
//! `flock` on the file, and `SIGUSR1` reopens the path (rotation by `mv`).
//!
//! With [`LogOptions::chain`], each line carries `prev`, the SHA-256 of the line before it in
//! the file (64 zeros for a file's first line), read back from the file under the lock, so that
//! the chain holds across runs and across gates writing one file. [`verify_chain`] finds the
//! first line edited, inserted or deleted.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::CallVerdict;

/// The `prev` of a chain's first line.
const GENESIS: [u8; 32] = [0; 32];

/// The bytes read at once when looking for a file's last line from its end.
const TAIL_CHUNK: usize = 8 << 10;

/// What each line of a [`VerdictLog`] carries beyond the verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LogOptions {
    /// The call's arguments as sent, as `arguments` (then `toolargs replay` reads the log as
    /// calls).
    pub arguments: bool,
    /// The hash chain: `prev`, the SHA-256 of the file's previous line, in lowercase hex (64
    /// zeros for the first line), so that an edited or deleted line is found
    /// ([`verify_chain`]).
    pub chain: bool,
}

/// Where the gate writes its verdicts, one JSON line per `tools/call`: `time` (Unix seconds),
/// `timestamp` (RFC 3339, UTC, microseconds), `session`, `tool`, `outcome`, `codes`, `rules`,
/// `paths`, `latency_us`, `confirmed` for a call the user confirmed, and, as the
/// [`LogOptions`] say, `arguments` and `prev`.
///
/// A failed write is noted once on stderr, and the gate goes on: the calls are not held for
/// the log.
///
/// ```
/// use toolargs_gate::{verify_chain, Gate, LogOptions, VerdictLog};
///
/// let path = std::env::temp_dir().join(format!("toolargs-doc-{}.jsonl", std::process::id()));
/// # let _ = std::fs::remove_file(&path);
/// let mut log = VerdictLog::open(&path, LogOptions { arguments: false, chain: true })?;
/// let mut gate = Gate::new();
/// gate.from_client(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
/// gate.from_server(r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"refund",
///     "inputSchema":{"type":"object","properties":{"amount_cents":{"type":"integer"}}}}]}}"#);
///
/// let started = std::time::Instant::now();
/// let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"refund","arguments":{"amount_cents":"1999"}}}"#;
/// let verdict = gate.from_client(call).verdict.expect("a call has a verdict");
/// log.write(&verdict, None, started);
///
/// let text = std::fs::read_to_string(&path)?;
/// let line: serde_json::Value = serde_json::from_str(text.lines().next().unwrap_or_default())?;
/// assert_eq!((line["tool"].as_str(), line["outcome"].as_str()), (Some("refund"), Some("repaired")));
/// assert_eq!(line["prev"], "0".repeat(64));
/// assert_eq!(verify_chain(text.lines()), Ok(()));
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct VerdictLog {
    target: Target,
    options: LogOptions,
    /// The hash of the last line written, for a target whose lines cannot be read back (a
    /// writer, a pipe).
    last: [u8; 32],
    /// Whether the last write failed: a failure is noted once, not once per call.
    failing: bool,
}

enum Target {
    /// Shared with the thread that reopens the path on `SIGUSR1`.
    File(Arc<Mutex<LogFile>>),
    Writer(Box<dyn Write + Send>),
}

/// A log file and the path it was opened at.
struct LogFile {
    path: PathBuf,
    file: File,
    /// A regular file: locked around each write, its last line read back for the chain.
    regular: bool,
    chain: bool,
}

impl LogFile {
    fn open(path: &Path, chain: bool) -> io::Result<LogFile> {
        // Read back only for the chain: a log the gate may only append to still works.
        let file = OpenOptions::new()
            .read(chain)
            .append(true)
            .create(true)
            .open(path)?;
        let regular = file.metadata()?.is_file();
        Ok(LogFile {
            path: path.to_owned(),
            file,
            regular,
            chain,
        })
    }

    fn reopen(&mut self) -> io::Result<()> {
        *self = LogFile::open(&self.path.clone(), self.chain)?;
        Ok(())
    }
}

impl VerdictLog {
    /// Opens `path` for appending, creating it if need be; what it holds stays. With
    /// [`LogOptions::chain`], the first line written continues the chain from the file's last
    /// line. On Unix, `SIGUSR1` to the process reopens `path` from then on.
    pub fn open(path: impl AsRef<Path>, options: LogOptions) -> io::Result<VerdictLog> {
        let file = LogFile::open(path.as_ref(), options.chain)?;
        if options.chain && file.regular {
            // The file must be readable for the chain: better said now than at the first call.
            last_line(&file.file)?;
        }
        let file = Arc::new(Mutex::new(file));
        reopen::watch(&file)?;
        Ok(VerdictLog {
            target: Target::File(file),
            options,
            last: GENESIS,
            failing: false,
        })
    }

    /// A log written to `out`, one `write_all` and a flush per line. Its chain starts at 64
    /// zeros and goes on from the lines this log writes (`out` is not read back).
    pub fn new(out: impl Write + Send + 'static, options: LogOptions) -> VerdictLog {
        VerdictLog {
            target: Target::Writer(Box::new(out)),
            options,
            last: GENESIS,
            failing: false,
        }
    }

    /// What the lines carry beyond the verdict.
    pub fn options(&self) -> LogOptions {
        self.options
    }

    /// Opens the log's path again (after `mv`, the lines go to a new file there), as `SIGUSR1`
    /// does; nothing for a log over a writer. On failure the log keeps the file it had.
    pub fn reopen(&mut self) -> io::Result<()> {
        match &self.target {
            Target::File(file) => lock(file).reopen(),
            Target::Writer(_) => Ok(()),
        }
    }

    /// Writes the line of `verdict`, on a call of `session` whose handling started at
    /// `started`.
    pub fn write(&mut self, verdict: &CallVerdict, session: Option<&str>, started: Instant) {
        let latency = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        let mut line = verdict.to_log(self.options.arguments);
        let now = SystemTime::now();
        line["time"] = serde_json::json!(now
            .duration_since(UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64()));
        line["timestamp"] = Value::String(timestamp(now));
        line["session"] = serde_json::json!(session);
        line["latency_us"] = serde_json::json!(latency);
        match self.append(line) {
            Ok(()) => self.failing = false,
            Err(error) => {
                if !self.failing {
                    let _ = writeln!(
                        io::stderr(),
                        "toolargs gate: the verdict log{}: {error}",
                        self.describe()
                    );
                }
                self.failing = true;
            }
        }
    }

    /// The path, for a message (` path`), or nothing for a writer.
    fn describe(&self) -> String {
        match &self.target {
            Target::File(file) => format!(" {}", lock(file).path.display()),
            Target::Writer(_) => String::new(),
        }
    }

    /// Writes `line`, with `prev` in chain mode, as one `write_all`.
    fn append(&mut self, mut line: Value) -> io::Result<()> {
        let chain = self.options.chain;
        match &mut self.target {
            Target::Writer(out) => {
                if chain {
                    line["prev"] = Value::String(hex(&self.last));
                }
                let mut bytes = serde_json::to_vec(&line)?;
                let hash = sha256(&bytes);
                bytes.push(b'\n');
                out.write_all(&bytes)?;
                out.flush()?;
                self.last = hash;
            }
            Target::File(file) => {
                let file = lock(file);
                // Another gate's write comes before or after this one, never between the
                // reading of the last line and the writing of the next.
                let _held = if file.regular {
                    flock::exclusive(&file.file)
                } else {
                    None
                };
                let mut separate = false;
                if chain {
                    let prev = if file.regular {
                        let (hash, ended) = last_line(&file.file)?;
                        // A last line without its newline (a write cut short) stays a line
                        // of its own.
                        separate = !ended;
                        hash
                    } else {
                        self.last
                    };
                    line["prev"] = Value::String(hex(&prev));
                }
                let mut bytes = Vec::with_capacity(256);
                if separate {
                    bytes.push(b'\n');
                }
                serde_json::to_writer(&mut bytes, &line)?;
                let hash = sha256(&bytes[usize::from(separate)..]);
                bytes.push(b'\n');
                (&file.file).write_all(&bytes)?;
                self.last = hash;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for VerdictLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VerdictLog")
            .field("target", &self.describe().trim_start())
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

/// Where a log's hash chain breaks: the first line whose `prev` is not the SHA-256 of the line
/// before it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ChainBreak {
    /// The line's number, from 1.
    pub line: usize,
    /// The `prev` the line should carry: the SHA-256 of the line before it, or 64 zeros for
    /// the first line.
    pub expected: String,
    /// The `prev` it carries: `None` for a line that is not a JSON object with a string
    /// `prev`.
    pub found: Option<String>,
}

impl fmt::Display for ChainBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.found {
            Some(found) => write!(
                f,
                "line {}: prev is {found}, expected {}",
                self.line, self.expected
            ),
            None => write!(f, "line {}: no prev, expected {}", self.line, self.expected),
        }
    }
}

impl std::error::Error for ChainBreak {}

/// Checks a log's hash chain: `lines` are the file's lines, without their newlines (as
/// `str::lines` gives them), from the first. Each line's `prev` must be the SHA-256 of the
/// line before it ([`line_hash`]), and the first line's 64 zeros. A line edited, deleted or
/// inserted breaks the chain there: at the line after it, or at the line inserted itself.
///
/// ```
/// use toolargs_gate::{line_hash, verify_chain};
///
/// let first = format!(r#"{{"prev":"{}","tool":"a"}}"#, "0".repeat(64));
/// let second = format!(r#"{{"prev":"{}","tool":"b"}}"#, line_hash(first.as_bytes()));
/// assert_eq!(verify_chain([&first, &second]), Ok(()));
/// // The first line edited: the second one no longer follows it.
/// let edited = first.replace(r#""a""#, r#""x""#);
/// assert_eq!(verify_chain([&edited, &second]).unwrap_err().line, 2);
/// ```
pub fn verify_chain<I>(lines: I) -> Result<(), ChainBreak>
where
    I: IntoIterator,
    I::Item: AsRef<[u8]>,
{
    let mut expected = GENESIS;
    for (index, line) in lines.into_iter().enumerate() {
        let line = line.as_ref();
        let found = serde_json::from_slice::<Value>(line)
            .ok()
            .and_then(|value| Some(value.get("prev")?.as_str()?.to_owned()));
        let expected_hex = hex(&expected);
        if found.as_deref() != Some(expected_hex.as_str()) {
            return Err(ChainBreak {
                line: index + 1,
                expected: expected_hex,
                found,
            });
        }
        expected = sha256(line);
    }
    Ok(())
}

/// The SHA-256 of a line's bytes (without its newline), in lowercase hex: the `prev` of the
/// line after it.
pub fn line_hash(line: &[u8]) -> String {
    hex(&sha256(line))
}

fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

fn hex(bytes: &[u8; 32]) -> String {
    toolargs_core::internal::text::lower_hex(bytes)
}

/// `time` as RFC 3339, in UTC, with microseconds.
fn timestamp(time: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(time).to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
}

/// The hash of the file's last line (64 zeros for an empty file), and whether the file ends
/// with a newline. Read from the end: the rest of the file is not read.
fn last_line(file: &File) -> io::Result<([u8; 32], bool)> {
    // A file truncated while it is read (`copytruncate` takes no lock) is read again.
    let mut attempts = 0;
    loop {
        match try_last_line(file) {
            Err(error) if error.kind() == io::ErrorKind::UnexpectedEof && attempts < 3 => {
                attempts += 1;
            }
            read => return read,
        }
    }
}

fn try_last_line(mut file: &File) -> io::Result<([u8; 32], bool)> {
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok((GENESIS, true));
    }
    let mut chunk = vec![0; TAIL_CHUNK];
    file.seek(SeekFrom::Start(len - 1))?;
    file.read_exact(&mut chunk[..1])?;
    let ended = chunk[0] == b'\n';
    let end = if ended { len - 1 } else { len };
    let mut start = end;
    while start > 0 {
        let n = start.min(TAIL_CHUNK as u64);
        let from = start - n;
        let read = &mut chunk[..n as usize];
        file.seek(SeekFrom::Start(from))?;
        file.read_exact(read)?;
        if let Some(at) = read.iter().rposition(|&byte| byte == b'\n') {
            start = from + at as u64 + 1;
            break;
        }
        start = from;
    }
    let mut hasher = Sha256::new();
    file.seek(SeekFrom::Start(start))?;
    let mut left = end - start;
    while left > 0 {
        let read = &mut chunk[..left.min(TAIL_CHUNK as u64) as usize];
        file.read_exact(read)?;
        hasher.update(&*read);
        left -= read.len() as u64;
    }
    Ok((hasher.finalize().into(), ended))
}

/// A lock, even if a thread panicked while holding it.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The advisory lock every gate holds around its write (Unix).
#[cfg(all(unix, not(target_os = "solaris")))]
mod flock {
    use std::fs::File;

    use rustix::fs::{flock, FlockOperation};

    /// Held until dropped.
    pub(super) struct Held<'a>(&'a File);

    impl Drop for Held<'_> {
        fn drop(&mut self) {
            let _ = flock(self.0, FlockOperation::Unlock);
        }
    }

    /// The file's exclusive lock, once no other gate holds it; `None` where the file system
    /// has no locks (the line is still written: a verdict lost is worse than a chain broken).
    pub(super) fn exclusive(file: &File) -> Option<Held<'_>> {
        loop {
            match flock(file, FlockOperation::LockExclusive) {
                Ok(()) => return Some(Held(file)),
                Err(rustix::io::Errno::INTR) => continue,
                Err(_) => return None,
            }
        }
    }
}

#[cfg(not(all(unix, not(target_os = "solaris"))))]
mod flock {
    /// No advisory locks here: lines are appended as they are.
    pub(super) fn exclusive(_file: &std::fs::File) -> Option<()> {
        None
    }
}

/// `SIGUSR1` reopens every log opened at a path (Unix); the signal is the gate's, never sent
/// on to the server.
#[cfg(unix)]
mod reopen {
    use std::io::{self, Write};
    use std::sync::{Arc, Mutex, Weak};

    use super::{lock, LogFile};

    /// The logs to reopen; `None` until the signal is watched.
    static OPEN: Mutex<Option<Vec<Weak<Mutex<LogFile>>>>> = Mutex::new(None);

    /// Reopens `file` on each `SIGUSR1`, from a thread started with the first log.
    pub(super) fn watch(file: &Arc<Mutex<LogFile>>) -> io::Result<()> {
        let mut open = lock(&OPEN);
        if open.is_none() {
            let mut signals = signal_hook::iterator::Signals::new([signal_hook::consts::SIGUSR1])?;
            std::thread::Builder::new()
                .name("toolargs-gate-log".to_owned())
                .spawn(move || {
                    for _ in signals.forever() {
                        reopen_all();
                    }
                })?;
        }
        let files = open.get_or_insert_with(Vec::new);
        files.retain(|file| file.strong_count() > 0);
        files.push(Arc::downgrade(file));
        Ok(())
    }

    fn reopen_all() {
        let files: Vec<_> = lock(&OPEN)
            .iter()
            .flatten()
            .filter_map(Weak::upgrade)
            .collect();
        for file in files {
            let mut file = lock(&file);
            if let Err(error) = file.reopen() {
                let _ = writeln!(
                    io::stderr(),
                    "toolargs gate: the verdict log {} was not reopened: {error}",
                    file.path.display()
                );
            }
        }
    }
}

#[cfg(not(unix))]
mod reopen {
    use std::sync::{Arc, Mutex};

    /// No signal to watch: [`super::VerdictLog::reopen`] only.
    pub(super) fn watch(_file: &Arc<Mutex<super::LogFile>>) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Gate, Outcome};

    /// The verdict on a repaired call of `tool`.
    fn verdict(tool: &str) -> CallVerdict {
        let mut gate = Gate::new();
        gate.from_client(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
        let tools = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": tool,
            "inputSchema": {"type": "object", "properties": {"amount_cents": {"type": "integer"}}}}]}});
        gate.from_server(&tools.to_string());
        let call = serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": tool, "arguments": {"amount_cents": "1999"}}});
        let verdict = gate.from_client(&call.to_string()).verdict.unwrap();
        assert_eq!(verdict.outcome, Outcome::Repaired);
        verdict
    }

    /// The tests that write files, one at a time: `SIGUSR1` reopens every log of the process.
    static FILES: Mutex<()> = Mutex::new(());

    /// A file of its own under the temporary directory, removed first.
    fn temp(name: &str) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("toolargs-log-{}-{name}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&path);
        path
    }

    fn lines(path: &Path) -> Vec<String> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    const CHAIN: LogOptions = LogOptions {
        arguments: false,
        chain: true,
    };

    /// A writer the test reads back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            lock(&self.0).extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_hash_is_sha256_in_lowercase_hex() {
        assert_eq!(
            line_hash(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(hex(&GENESIS), "0".repeat(64));
    }

    #[test]
    fn a_line_carries_the_verdict_the_times_and_the_options() {
        let out = Shared::default();
        let mut log = VerdictLog::new(
            out.clone(),
            LogOptions {
                arguments: true,
                chain: true,
            },
        );
        log.write(&verdict("refund"), Some("s1"), Instant::now());
        log.write(&verdict("lookup"), None, Instant::now());
        let text = String::from_utf8(lock(&out.0).clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(text.ends_with('\n'));
        let first: Value = serde_json::from_str(lines[0]).unwrap();
        assert_eq!(first["tool"], "refund");
        assert_eq!(first["outcome"], "repaired");
        assert_eq!(first["session"], "s1");
        assert_eq!(first["arguments"], r#"{"amount_cents":"1999"}"#);
        assert!(first["latency_us"].is_u64());
        let stamp = first["timestamp"].as_str().unwrap();
        // 2026-12-04T13:21:43.123456Z
        assert_eq!(stamp.len(), 27, "{stamp}");
        assert!(
            stamp.ends_with('Z') && stamp.as_bytes()[19] == b'.',
            "{stamp}"
        );
        let parsed = chrono::DateTime::parse_from_rfc3339(stamp).unwrap();
        let time = first["time"].as_f64().unwrap();
        assert!((parsed.timestamp_micros() as f64 / 1e6 - time).abs() < 1e-3);
        assert_eq!(first["prev"], "0".repeat(64));
        let second: Value = serde_json::from_str(lines[1]).unwrap();
        assert_eq!(second["session"], Value::Null);
        assert_eq!(second["prev"], line_hash(lines[0].as_bytes()));
        assert_eq!(verify_chain(&lines), Ok(()));

        // Without the options: neither arguments nor prev.
        let out = Shared::default();
        let mut log = VerdictLog::new(out.clone(), LogOptions::default());
        log.write(&verdict("refund"), None, Instant::now());
        let line: Value = serde_json::from_slice(&lock(&out.0)).unwrap();
        assert!(line.get("arguments").is_none() && line.get("prev").is_none());
    }

    #[test]
    fn opening_appends_and_the_chain_goes_on_from_the_last_line() {
        let _files = lock(&FILES);
        let path = temp("append");
        for run in 0..3 {
            let mut log = VerdictLog::open(&path, CHAIN).unwrap();
            for call in 0..2 {
                log.write(&verdict(&format!("t{run}{call}")), None, Instant::now());
            }
        }
        let lines = lines(&path);
        assert_eq!(lines.len(), 6);
        assert_eq!(verify_chain(&lines), Ok(()));
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn an_edited_inserted_or_deleted_line_breaks_the_chain_there() {
        let _files = lock(&FILES);
        let path = temp("tamper");
        let mut log = VerdictLog::open(&path, CHAIN).unwrap();
        for call in 0..5 {
            log.write(&verdict(&format!("t{call}")), None, Instant::now());
        }
        let lines = lines(&path);
        assert_eq!(verify_chain(&lines), Ok(()));

        let mut edited = lines.clone();
        edited[1] = edited[1].replace("t1", "tX");
        let broken = verify_chain(&edited).unwrap_err();
        assert_eq!(broken.line, 3);
        assert_eq!(broken.expected, line_hash(edited[1].as_bytes()));
        assert_eq!(broken.found, Some(line_hash(lines[1].as_bytes())));
        assert!(
            broken.to_string().starts_with("line 3: prev is "),
            "{broken}"
        );

        let mut deleted = lines.clone();
        deleted.remove(2);
        assert_eq!(verify_chain(&deleted).unwrap_err().line, 3);
        let mut first_deleted = lines.clone();
        first_deleted.remove(0);
        let broken = verify_chain(&first_deleted).unwrap_err();
        assert_eq!((broken.line, broken.expected), (1, "0".repeat(64)));

        let mut inserted = lines.clone();
        inserted.insert(4, "{\"tool\":\"forged\"}".to_owned());
        let broken = verify_chain(&inserted).unwrap_err();
        assert_eq!((broken.line, broken.found.as_deref()), (5, None));
        assert!(
            broken.to_string().starts_with("line 5: no prev"),
            "{broken}"
        );
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn the_chain_covers_lines_of_other_writers_and_a_line_cut_short() {
        let _files = lock(&FILES);
        let path = temp("foreign");
        std::fs::write(&path, "{\"tool\":\"plain\"}\nnot json, cut short").unwrap();
        let mut log = VerdictLog::open(&path, CHAIN).unwrap();
        log.write(&verdict("after"), None, Instant::now());
        let lines = lines(&path);
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert_eq!(lines[1], "not json, cut short");
        let last: Value = serde_json::from_str(&lines[2]).unwrap();
        assert_eq!(last["prev"], line_hash(lines[1].as_bytes()));
        // The lines without `prev` are where the chain breaks.
        assert_eq!(verify_chain(&lines).unwrap_err().line, 1);
        assert_eq!(verify_chain(&lines[2..]).unwrap_err().line, 1);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_last_line_longer_than_a_chunk_is_hashed_whole() {
        let _files = lock(&FILES);
        let path = temp("long");
        let long = format!("{{\"pad\":\"{}\"}}", "x".repeat(3 * TAIL_CHUNK + 17));
        std::fs::write(&path, format!("{{\"short\":1}}\n{long}\n")).unwrap();
        let mut log = VerdictLog::open(&path, CHAIN).unwrap();
        log.write(&verdict("after"), None, Instant::now());
        let last: Value = serde_json::from_str(lines(&path).last().unwrap()).unwrap();
        assert_eq!(last["prev"], line_hash(long.as_bytes()));
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_file_truncated_under_the_log_goes_on_from_its_start() {
        let _files = lock(&FILES);
        let path = temp("truncate");
        let mut log = VerdictLog::open(&path, CHAIN).unwrap();
        log.write(&verdict("before"), None, Instant::now());
        log.write(&verdict("before"), None, Instant::now());
        OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(0)
            .unwrap();
        log.write(&verdict("after"), None, Instant::now());
        let bytes = std::fs::read(&path).unwrap();
        assert!(!bytes.contains(&0), "a hole of NULs");
        let lines = lines(&path);
        assert_eq!(lines.len(), 1);
        assert_eq!(verify_chain(&lines), Ok(()));
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn reopening_writes_to_the_file_now_at_the_path() {
        let _files = lock(&FILES);
        let path = temp("reopen");
        let moved = temp("reopen-moved");
        let mut log = VerdictLog::open(&path, CHAIN).unwrap();
        log.write(&verdict("old"), None, Instant::now());
        std::fs::rename(&path, &moved).unwrap();
        log.write(&verdict("old"), None, Instant::now());
        log.reopen().unwrap();
        log.write(&verdict("new"), None, Instant::now());
        let (old, new) = (lines(&moved), lines(&path));
        assert_eq!((old.len(), new.len()), (2, 1));
        assert_eq!(verify_chain(&old), Ok(()));
        assert_eq!(verify_chain(&new), Ok(()));
        std::fs::remove_file(&path).unwrap();
        std::fs::remove_file(&moved).unwrap();
    }

    #[test]
    fn logs_writing_one_file_at_once_keep_every_line_and_the_chain() {
        let _files = lock(&FILES);
        let path = temp("concurrent");
        let threads: Vec<_> = (0..4)
            .map(|writer| {
                let path = path.clone();
                std::thread::spawn(move || {
                    let mut log = VerdictLog::open(&path, CHAIN).unwrap();
                    for call in 0..50 {
                        log.write(&verdict(&format!("w{writer}c{call}")), None, Instant::now());
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        let lines = lines(&path);
        assert_eq!(lines.len(), 200);
        assert_eq!(verify_chain(&lines), Ok(()));
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_failed_write_is_not_a_panic() {
        struct Broken;
        impl Write for Broken {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut log = VerdictLog::new(Broken, CHAIN);
        log.write(&verdict("a"), None, Instant::now());
        log.write(&verdict("b"), None, Instant::now());
        assert!(log.failing);
        assert!(format!("{log:?}").contains("VerdictLog"));
    }

    #[cfg(unix)]
    #[test]
    fn sigusr1_reopens_the_path() {
        let _files = lock(&FILES);
        let path = temp("sigusr1");
        let moved = temp("sigusr1-moved");
        let mut log = VerdictLog::open(&path, CHAIN).unwrap();
        log.write(&verdict("old"), None, Instant::now());
        std::fs::rename(&path, &moved).unwrap();
        rustix::process::kill_process(rustix::process::getpid(), rustix::process::Signal::USR1)
            .unwrap();
        // The path comes back once the log reopened it.
        let deadline = Instant::now() + std::time::Duration::from_secs(10);
        while !path.exists() {
            assert!(Instant::now() < deadline, "not reopened");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        log.write(&verdict("new"), None, Instant::now());
        assert_eq!((lines(&moved).len(), lines(&path).len()), (1, 1));
        std::fs::remove_file(&path).unwrap();
        std::fs::remove_file(&moved).unwrap();
    }
}
