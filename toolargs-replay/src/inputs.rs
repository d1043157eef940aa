//! The inputs of a replay: files, directories (read recursively), glob patterns and standard
//! input, each decompressed on the fly when it is gzip or zstd.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The names a file found in a directory needs to be read: a log's extension, optionally
/// followed by a compression's.
const LOG_EXTENSIONS: [&str; 4] = ["jsonl", "ndjson", "json", "log"];
const COMPRESSED_EXTENSIONS: [&str; 3] = ["gz", "zst", "zstd"];

/// Buffer of a decompressor's reader.
pub(crate) const READ_BUFFER: usize = 1 << 20;

/// Buffer of a file's reader, which holds little more than the first bytes (read to tell a
/// compressed file): a replay reads blocks larger than it, which go straight to the file. A
/// buffer is set to zero before its first read, so a large one costs at every start.
const HEAD_BUFFER: usize = 64 << 10;

/// One input of a replay.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Input {
    /// Standard input (`-`).
    Stdin,
    /// A file.
    File(PathBuf),
    /// Standard input copied to a file by a [`Spool`], so that it can be read more than once;
    /// named `-` as standard input is.
    Spooled(PathBuf),
}

impl Input {
    /// The name reports use for locations: the path as given, or `-`.
    pub fn name(&self) -> String {
        match self {
            Input::Stdin | Input::Spooled(_) => "-".to_owned(),
            Input::File(path) => path.display().to_string(),
        }
    }

    /// The size in bytes as stored (compressed files count their compressed size); 0 for
    /// standard input or when unknown.
    pub fn size(&self) -> u64 {
        match self {
            Input::Stdin => 0,
            Input::File(path) | Input::Spooled(path) => {
                std::fs::metadata(path).map_or(0, |m| m.len())
            }
        }
    }

    /// Opens the input, decompressing gzip or zstd (told by their magic bytes, not by the
    /// name). Every byte read from the stored input is added to `read`, for progress.
    pub fn open(&self, read: Arc<AtomicU64>) -> io::Result<Box<dyn BufRead + Send>> {
        let raw: Box<dyn Read + Send> = match self {
            Input::Stdin => Box::new(io::stdin()),
            Input::File(path) | Input::Spooled(path) => Box::new(File::open(path)?),
        };
        decompressed(Counting { inner: raw, read })
    }
}

/// Standard input copied, as it comes (compressed or not), to a new file in the temporary
/// directory, so that it can be read twice: once for the tool definitions it carries, once
/// for its calls. The file is removed when the spool is dropped.
///
/// ```
/// use std::io::BufRead;
/// use std::sync::{atomic::AtomicU64, Arc};
/// use toolargs_replay::inputs::{Input, Spool};
///
/// let spool = Spool::copy(&mut &b"{\"tool\":\"a\",\"arguments\":{}}\n"[..]).unwrap();
/// let input = spool.input();
/// assert_eq!(input.name(), "-");
/// for _ in 0..2 {
///     let mut lines = input.open(Arc::new(AtomicU64::new(0))).unwrap().lines();
///     assert_eq!(lines.next().unwrap().unwrap(), r#"{"tool":"a","arguments":{}}"#);
/// }
/// let path = match input { Input::Spooled(path) => path, _ => unreachable!() };
/// drop(spool);
/// assert!(!path.exists());
/// ```
#[derive(Debug)]
pub struct Spool {
    path: PathBuf,
}

impl Spool {
    /// Copies standard input to a spool.
    pub fn stdin() -> io::Result<Spool> {
        Spool::copy(&mut io::stdin().lock())
    }

    /// Copies everything `from` holds to a spool.
    pub fn copy(from: &mut impl Read) -> io::Result<Spool> {
        let dir = std::env::temp_dir();
        // A name no other process or spool holds: `create_new` refuses one that exists.
        for attempt in 0..1000 {
            let name = format!("toolargs-stdin-{}-{attempt}.log", std::process::id());
            let path = dir.join(name);
            let failed = |e: io::Error, path: &Path| {
                io::Error::new(e.kind(), format!("copying to {}: {e}", path.display()))
            };
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut file) => {
                    let spool = Spool { path };
                    io::copy(from, &mut file).map_err(|e| failed(e, &spool.path))?;
                    return Ok(spool);
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(failed(e, &path)),
            }
        }
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("no free name for a spool file in {}", dir.display()),
        ))
    }

    /// The input that reads the spooled copy.
    pub fn input(&self) -> Input {
        Input::Spooled(self.path.clone())
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A reader that counts the bytes read through it.
struct Counting<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// `reader`, decompressed when it starts with the magic bytes of gzip or zstd.
///
/// ```
/// use std::io::{BufRead, Write};
///
/// let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
/// gz.write_all(b"{\"tool\":\"a\",\"arguments\":{}}\n").unwrap();
/// let bytes = gz.finish().unwrap();
/// let mut lines = toolargs_replay::decompressed(std::io::Cursor::new(bytes)).unwrap().lines();
/// assert_eq!(lines.next().unwrap().unwrap(), r#"{"tool":"a","arguments":{}}"#);
/// ```
pub fn decompressed<R: Read + Send + 'static>(reader: R) -> io::Result<Box<dyn BufRead + Send>> {
    let mut buffered = BufReader::with_capacity(HEAD_BUFFER, reader);
    let head = buffered.fill_buf()?;
    if head.starts_with(&[0x1f, 0x8b]) {
        let gz = flate2::bufread::MultiGzDecoder::new(buffered);
        Ok(Box::new(BufReader::with_capacity(READ_BUFFER, gz)))
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        let zstd = ZstdFrames {
            decoder: None,
            input: Some(buffered),
        };
        Ok(Box::new(BufReader::with_capacity(READ_BUFFER, zstd)))
    } else {
        Ok(Box::new(buffered))
    }
}

/// A zstd stream of one or more frames, decoded frame after frame.
struct ZstdFrames<R: BufRead> {
    decoder: Option<ruzstd::decoding::StreamingDecoder<R, ruzstd::decoding::FrameDecoder>>,
    /// The input between frames.
    input: Option<R>,
}

impl<R: BufRead> Read for ZstdFrames<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if let Some(decoder) = &mut self.decoder {
                let n = decoder.read(buf)?;
                if n > 0 || buf.is_empty() {
                    return Ok(n);
                }
                self.input = self.decoder.take().map(|d| d.into_inner());
            }
            let Some(mut input) = self.input.take() else {
                return Ok(0);
            };
            if input.fill_buf()?.is_empty() {
                return Ok(0);
            }
            let decoder = ruzstd::decoding::StreamingDecoder::new(input)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
            self.decoder = Some(decoder);
        }
    }
}

/// The inputs named by `args`, in order: `-` is standard input, a directory stands for the
/// log files under it (recursively, in name order: `*.jsonl`, `*.ndjson`, `*.json`, `*.log`,
/// each also `.gz`, `.zst` or `.zstd`; hidden entries skipped), a path that does not exist but
/// holds `*`, `?` or `[` is a glob pattern (its matches in name order). An input named twice
/// is read once. A pattern that matches nothing, a directory without a log file under it or a
/// path that does not exist is an error.
pub fn expand(args: &[String]) -> io::Result<Vec<Input>> {
    let mut out = Vec::new();
    for arg in args {
        if arg == "-" {
            out.push(Input::Stdin);
            continue;
        }
        let path = Path::new(arg);
        if path.exists() {
            let before = out.len();
            push_path(path, true, &mut out)?;
            if out.len() == before {
                return Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    format!("{arg}: no log file under it (*.jsonl, *.ndjson, *.json, *.log, also .gz or .zst)"),
                ));
            }
            continue;
        }
        if !arg.contains(['*', '?', '[']) {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("{arg}: no such file or directory"),
            ));
        }
        let matches = glob::glob(arg)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, format!("{arg}: {e}")))?;
        let before = out.len();
        for found in matches {
            let found = found.map_err(|e| io::Error::new(e.error().kind(), e.to_string()))?;
            push_path(&found, true, &mut out)?;
        }
        if out.len() == before {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("{arg}: no file matches"),
            ));
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|input| seen.insert(input.clone()));
    Ok(out)
}

/// True when a file found in a directory is a log by its name.
fn is_log_name(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let mut parts = name.rsplit('.');
    let mut last = parts.next().unwrap_or("");
    if COMPRESSED_EXTENSIONS.contains(&last) {
        last = parts.next().unwrap_or("");
    }
    parts.next().is_some() && LOG_EXTENSIONS.contains(&last)
}

fn push_path(path: &Path, named: bool, out: &mut Vec<Input>) -> io::Result<()> {
    let hidden = path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('.'));
    if !named && hidden {
        return Ok(());
    }
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?
            .map(|e| e.map(|e| e.path()))
            .collect::<io::Result<_>>()?;
        entries.sort();
        for entry in entries {
            push_path(&entry, false, out)?;
        }
    } else if named || is_log_name(path) {
        out.push(Input::File(path.to_path_buf()));
    }
    Ok(())
}
