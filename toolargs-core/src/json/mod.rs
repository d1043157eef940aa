//! JSON text: the reader that builds a borrowed [`Node`] tree (private), and [`skim`], the
//! public reading of a few parts of a document where they stand, without building the rest.
//!
//! It exists, instead of `serde_json::Value`, for what the policy needs and `serde_json` hides:
//! duplicate keys are an error at any depth (compared after unescaping, so `"a"` and `"\u0061"`
//! collide), `NaN`/`Infinity` get their own code, number literals keep their text, and the
//! [`Limits`] on hostile input (nesting, string length, items per array, keys per object) are
//! enforced while scanning, so an oversized document is refused before it is built.
//!
//! The tree's arrays and objects are vectors taken from a small per-thread pool and given back
//! when the `Document` is dropped, so a steady stream of calls reuses the same buffers: a clean
//! call allocates only what its typed output holds.
//!
//! The reader itself is in `reader`, the pool in `pool` (the only `unsafe` of the crate), the
//! borrowing of a decoded `serde_json` value in `value`, JSON text read where a log holds it
//! inside a JSON string in `in_string`, the errors of the limits in `limit`, and the skimming
//! shared by replay's log formats in [`skim`]. This module holds the reader's entry points and
//! the `Document` they return.

mod in_string;
mod limit;
mod pool;
mod reader;
pub mod skim;
mod value;

use crate::node::Node;
use crate::options::Limits;
use crate::path::Path;
use crate::report::ArgumentError;

pub(crate) use in_string::read_logged;
pub(crate) use value::read_value;

use pool::with_pool;
use reader::{Fail, Reader};

/// Parses one JSON document (with optional surrounding whitespace) under `limits`.
///
/// The size of the text is not checked here (the caller decides what the payload is). A string
/// at the root is not held to `max_string_bytes`: it is the payload itself, bounded by its size.
pub(crate) fn read_text<'a>(text: &'a str, limits: &Limits) -> Result<Document<'a>, ArgumentError> {
    let mut reader = Reader::<false>::new(text, limits);
    reader.skip_whitespace();
    let mut root = Node::Null;
    if let Err(Fail) = reader.value(&Path::ROOT, &mut root) {
        return Err(reader.into_error());
    }
    reader.skip_whitespace();
    if reader.pos != reader.text.len() {
        let _ = reader.syntax("text after the JSON value; send the JSON value alone");
        return Err(reader.into_error());
    }
    Ok(Document { root })
}

/// Reads the JSON value at the start of `text`, which may go on past it (a log's
/// `"arguments": {"a": 1}, "id": 7`), under the same grammar and [`Limits`] as [`read_text`].
/// Returns the document and the bytes of the value's text; `None` when [`read_text`] would
/// refuse the value.
pub(crate) fn read_leading<'a>(text: &'a str, limits: &Limits) -> Option<(Document<'a>, usize)> {
    read_one::<false>(text, limits).map(|(document, reader)| (document, reader.pos))
}

/// Reads one value from the start of `text` (after any whitespace), and the reader just past it.
fn read_one<'a, const ESCAPED: bool>(
    text: &'a str,
    limits: &Limits,
) -> Option<(Document<'a>, Reader<'a, ESCAPED>)> {
    let mut reader = Reader::<ESCAPED>::new(text, limits);
    reader.skip_whitespace();
    // A document from the start, so that what a failed reading built goes back to the pool.
    let mut document = Document { root: Node::Null };
    reader.value(&Path::ROOT, &mut document.root).ok()?;
    Some((document, reader))
}

/// A decoded payload. Its containers go back to this thread's pool when it is dropped.
pub(crate) struct Document<'a> {
    root: Node<'a>,
}

impl<'a> Document<'a> {
    /// The root value.
    pub(crate) fn root(&self) -> &Node<'a> {
        &self.root
    }

    /// Takes the root out; its containers are then freed normally instead of reused.
    pub(crate) fn into_root(mut self) -> Node<'a> {
        std::mem::replace(&mut self.root, Node::Null)
    }
}

impl Drop for Document<'_> {
    fn drop(&mut self) {
        let root = &mut self.root;
        with_pool(|pool| pool.recycle(root));
    }
}
