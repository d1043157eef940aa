//! Cutting an input into blocks of whole lines, the unit of work handed to a worker, and
//! the lines of a block.

use std::io::{self, BufRead};

use crate::formats::InputFormat;
use crate::outcome::Location;

/// Bytes handed to a worker at once: large enough to amortise the channel, and at least as
/// large as the buffers of the readers [`Input::open`](crate::inputs::Input::open) gives, so that a block is read straight
/// from the file or the decompressor rather than copied out of that buffer; small enough to
/// keep memory flat (at most two blocks per worker are in flight).
pub(super) const BLOCK_BYTES: usize = crate::inputs::READ_BUFFER;

/// A block of whole lines of one source, as handed to a worker.
pub(super) struct Block {
    /// The block's place among all blocks of the run, to write verdicts in order.
    pub(super) seq: u64,
    pub(super) source: u32,
    pub(super) name: std::sync::Arc<str>,
    pub(super) format: InputFormat,
    /// The number of the block's first line.
    pub(super) first: u64,
    /// The buffer, whose first `len` bytes are the lines; the rest was never written, or is
    /// left from an earlier block.
    pub(super) bytes: Vec<u8>,
    pub(super) len: usize,
}

/// Reads `input` in blocks of whole lines (about `block_bytes` each, without the final newline)
/// and hands each to `send` as a buffer and the length of its lines, with the number of its
/// first line and the bytes read so far. A block's buffer comes from `reuse` when it has one.
/// Stops early when `send` returns false.
pub(super) fn read_blocks<R: BufRead + ?Sized>(
    input: &mut R,
    block_bytes: usize,
    mut reuse: impl FnMut() -> Option<Vec<u8>>,
    mut send: impl FnMut(u64, Vec<u8>, usize, u64) -> bool,
) -> io::Result<()> {
    let mut first_line = 1u64;
    let mut bytes = 0u64;
    // The start of the line the last block stopped in, which opens the next block.
    let mut carry: Vec<u8> = Vec::new();
    loop {
        // Input is read into the buffer's length, which a recycled buffer keeps, so that its
        // bytes are set to zero once in its life rather than block after block (and a new one
        // asks the allocator for zeroed memory, which fresh pages already are). The room past
        // `block_bytes` holds the usual carried line without growing the buffer, and lets
        // every read ask for at least `block_bytes`, which the input's buffer passes straight
        // to the file or the decompressor once it is empty.
        let mut block = reuse().unwrap_or_else(|| vec![0; block_bytes + block_bytes / 16]);
        let mut target = carry.len() + block_bytes;
        if block.len() < target {
            block.resize(target, 0);
        }
        block[..carry.len()].copy_from_slice(&carry);
        let mut filled = carry.len();
        // The carried bytes hold no newline.
        let mut searched = filled;
        carry.clear();
        let mut at_end = false;
        let end = loop {
            while filled < target {
                match input.read(&mut block[filled..]) {
                    Ok(0) => {
                        at_end = true;
                        break;
                    }
                    Ok(n) => filled += n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
            if at_end {
                break filled;
            }
            // The block ends after its last newline, so that no line is split between workers.
            match memchr::memrchr(b'\n', &block[searched..filled]) {
                Some(at) => break searched + at + 1,
                // A line longer than the block: the block grows to hold it.
                None => {
                    searched = filled;
                    target = filled + block_bytes;
                    block.resize(target.max(block.len()), 0);
                }
            }
        };
        if end == 0 {
            return Ok(());
        }
        carry.extend_from_slice(&block[end..filled]);
        bytes += end as u64;
        let len = match block[end - 1] {
            b'\n' => end - 1,
            _ => end,
        };
        let lines = memchr::memchr_iter(b'\n', &block[..len]).count() as u64 + 1;
        if !send(first_line, block, len, bytes) || at_end {
            return Ok(());
        }
        first_line += lines;
    }
}

/// Hands each line of a block to `line` with its location, as text when it is UTF-8.
pub(super) fn lines_of(block: &Block, mut line: impl FnMut(Location, Option<&str>)) {
    let bytes = &block.bytes[..block.len];
    // One UTF-8 check for the whole block; lines are checked one by one only when it fails.
    // A line's bounds are newlines, which never fall inside a character.
    let valid = std::str::from_utf8(bytes).ok();
    let mut start = 0;
    let ends = memchr::memchr_iter(b'\n', bytes).chain(std::iter::once(bytes.len()));
    for (offset, end) in ends.enumerate() {
        let (line_start, line_end) = (start, end);
        start = end + 1;
        let line_end = match bytes[line_start..line_end].last() {
            Some(b'\r') => line_end - 1,
            _ => line_end,
        };
        let text = match valid {
            Some(valid) => valid.get(line_start..line_end),
            None => std::str::from_utf8(&bytes[line_start..line_end]).ok(),
        };
        let at = Location {
            source: block.source,
            line: block.first + offset as u64,
        };
        line(at, text);
    }
}
