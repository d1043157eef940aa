//! A small JSON reader that builds a borrowed [`Node`] tree.
//!
//! It exists, instead of `serde_json::Value`, for what the policy needs and `serde_json` hides:
//! duplicate keys are an error at any depth (compared after unescaping, so `"a"` and `"\u0061"`
//! collide), `NaN`/`Infinity` get their own code, number literals keep their text, and the
//! [`Limits`] on hostile input (nesting, string length, items per array, keys per object) are
//! enforced while scanning, so an oversized document is refused before it is built.
//!
//! The tree's arrays and objects are vectors taken from a small per-thread pool and given back
//! when the [`Document`] is dropped, so a steady stream of calls reuses the same buffers: a clean
//! call allocates only what its typed output holds.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashSet;

use serde_json::Value;

use crate::node::{Node, Number};
use crate::options::Limits;
use crate::path::Path;
use crate::report::{ArgumentError, Code};
use crate::text::{scan_plain, scan_to_special};

/// Objects with more members than this switch from a linear scan to a hash set for duplicates.
const LINEAR_DUPLICATE_SCAN: usize = 16;

/// The members of an object node.
type Members<'a> = Vec<(Cow<'a, str>, Node<'a>)>;

/// Placeholders pushed before an item or a member is read into place. As constants they are
/// copied from static data in whole words, which keeps the push cheap.
const EMPTY_ITEM: Node<'static> = Node::Null;
const EMPTY_MEMBER: (Cow<'static, str>, Node<'static>) = (Cow::Borrowed(""), Node::Null);

/// Parses one JSON document (with optional surrounding whitespace) into a node, with the
/// default limits except for the nesting depth.
pub fn parse_document(text: &str, max_depth: usize) -> Result<Node<'_>, ArgumentError> {
    let limits = Limits {
        max_depth,
        ..Limits::DEFAULT
    };
    read_text(text, &limits).map(Document::into_root)
}

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
        let _ = reader.syntax("unexpected text after the JSON value");
        return Err(reader.into_error());
    }
    Ok(Document { root })
}

/// Reads JSON text as written inside a JSON string (a log's `"arguments": "{\"a\": 1}"`),
/// from the log's own text, without unescaping it first: `text` goes on right after the
/// string's opening quote, and each quote of the document is `\"` there. Everything else stands
/// as the document means it, and is read under the same grammar and [`Limits`] as
/// [`read_text`]. Returns the document and the bytes read, up to and with the string's closing
/// quote; the text may go on past it.
///
/// `None` when the string holds any other escape (one of the document's own strings, or
/// whitespace written as `\n`), or anything [`read_text`] would refuse: the caller unescapes
/// the string and reads it as text, which says what is wrong.
pub(crate) fn read_logged<'a>(text: &'a str, limits: &Limits) -> Option<(Document<'a>, usize)> {
    let (document, mut reader) = read_one::<true>(text, limits)?;
    reader.skip_whitespace();
    (reader.peek() == Some(b'"')).then_some((document, reader.pos + 1))
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

/// Borrows a decoded `serde_json` value as a document, under the same `limits` as text (except
/// the payload size, which a decoded value no longer has).
pub(crate) fn read_value<'a>(
    value: &'a Value,
    limits: &Limits,
) -> Result<Document<'a>, ArgumentError> {
    from_value(value, &Path::ROOT, limits.max_depth, limits).map(|root| Document { root })
}

fn from_value<'a>(
    value: &'a Value,
    path: &Path<'_>,
    depth_left: usize,
    limits: &Limits,
) -> Result<Node<'a>, ArgumentError> {
    Ok(match value {
        Value::Null => Node::Null,
        Value::Bool(b) => Node::Bool(*b),
        Value::Number(n) => Node::Number(if let Some(v) = n.as_u64() {
            Number::U64(v)
        } else if let Some(v) = n.as_i64() {
            Number::I64(v)
        } else {
            Number::F64(n.as_f64().unwrap_or(f64::NAN))
        }),
        Value::String(s) => {
            if s.len() > limits.max_string_bytes && depth_left < limits.max_depth {
                return Err(too_long(path, false, limits));
            }
            Node::String(Cow::Borrowed(s))
        }
        Value::Array(items) => {
            let depth = depth_left.checked_sub(1).ok_or_else(|| too_deep(limits))?;
            if items.len() > limits.max_items {
                return Err(too_many_items(path, limits));
            }
            let mut out = pooled_items();
            out.reserve(items.len());
            for (index, item) in items.iter().enumerate() {
                out.push(from_value(item, &path.index(index), depth, limits)?);
            }
            Node::Array(out)
        }
        Value::Object(map) => {
            let depth = depth_left.checked_sub(1).ok_or_else(|| too_deep(limits))?;
            if map.len() > limits.max_keys {
                return Err(too_many_keys(path, limits));
            }
            let mut out = pooled_members();
            out.reserve(map.len());
            for (key, item) in map {
                if key.len() > limits.max_string_bytes {
                    return Err(too_long(path, true, limits));
                }
                let node = from_value(item, &path.key(key), depth, limits)?;
                out.push((Cow::Borrowed(key.as_str()), node));
            }
            Node::Object(out)
        }
    })
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

/// At most this many empty vectors of each kind are kept per thread…
const POOLED_VECTORS: usize = 32;
/// …each with room for at most this many elements, so a hostile payload leaves nothing large.
const POOLED_CAPACITY: usize = 256;

/// Empty vectors kept for the next document on this thread. Their element types are the node
/// types with the lifetime erased; a vector is only stored empty and only its lifetime changes
/// on the way in and out ([`relabel_items`], [`relabel_members`]).
struct Pool {
    arrays: Vec<Vec<Node<'static>>>,
    objects: Vec<Members<'static>>,
}

thread_local! {
    static POOL: RefCell<Pool> = const {
        RefCell::new(Pool {
            arrays: Vec::new(),
            objects: Vec::new(),
        })
    };
}

/// Runs `f` on this thread's pool; `None` while the thread is shutting down.
fn with_pool<R>(f: impl FnOnce(&mut Pool) -> R) -> Option<R> {
    POOL.try_with(|pool| pool.try_borrow_mut().ok().map(|mut pool| f(&mut pool)))
        .ok()
        .flatten()
}

/// An empty vector for an array's items, from the pool when it has one.
fn pooled_items<'a>() -> Vec<Node<'a>> {
    with_pool(|pool| pool.arrays.pop())
        .flatten()
        .map(relabel_items)
        .unwrap_or_default()
}

/// An empty vector for an object's members, from the pool when it has one.
fn pooled_members<'a>() -> Members<'a> {
    with_pool(|pool| pool.objects.pop())
        .flatten()
        .map(relabel_members)
        .unwrap_or_default()
}

impl Pool {
    /// Takes the containers of `node` apart and keeps their vectors. They are stored so that
    /// the next document, opening containers in the same order, gets the same vectors back:
    /// children right to left, then the container itself.
    fn recycle(&mut self, node: &mut Node<'_>) {
        match node {
            Node::Array(items) => self.recycle_items(std::mem::take(items)),
            Node::Object(members) => self.recycle_members(std::mem::take(members)),
            _ => {}
        }
    }

    /// Frees what `node` owns: its containers go to the pool, an unescaped string is dropped.
    /// What is left owns nothing, so the vector holding it can forget it.
    fn release(&mut self, node: &mut Node<'_>) {
        match node {
            Node::Array(_) | Node::Object(_) => self.recycle(node),
            Node::String(Cow::Owned(_)) => *node = Node::Null,
            _ => {}
        }
    }

    fn recycle_items(&mut self, mut items: Vec<Node<'_>>) {
        for item in items.iter_mut().rev() {
            self.release(item);
        }
        // An empty array's vector has no room: pooled, it would make the next array allocate.
        if self.arrays.len() < POOLED_VECTORS && (1..=POOLED_CAPACITY).contains(&items.capacity()) {
            self.arrays.push(relabel_items(items));
        }
    }

    fn recycle_members(&mut self, mut members: Members<'_>) {
        for (key, value) in members.iter_mut().rev() {
            self.release(value);
            if let Cow::Owned(_) = key {
                *key = Cow::Borrowed("");
            }
        }
        if self.objects.len() < POOLED_VECTORS
            && (1..=POOLED_CAPACITY).contains(&members.capacity())
        {
            self.objects.push(relabel_members(members));
        }
    }
}

/// Gives a vector of items another lifetime, emptied. Items still in it are forgotten, not
/// dropped: callers pass an empty vector, or one whose items own nothing.
fn relabel_items<'b>(items: Vec<Node<'_>>) -> Vec<Node<'b>> {
    let mut items = std::mem::ManuallyDrop::new(items);
    let (ptr, capacity) = (items.as_mut_ptr(), items.capacity());
    // SAFETY: `ptr` and `capacity` come from a vector of `Node<'_>`, which has the same size and
    // alignment as `Node<'b>` (the types differ only in a lifetime), and that vector is not used
    // again. The new vector has length 0, so no value is ever read as the other type.
    unsafe { Vec::from_raw_parts(ptr.cast::<Node<'b>>(), 0, capacity) }
}

/// Gives a vector of members another lifetime, emptied, as [`relabel_items`] does.
fn relabel_members<'b>(members: Members<'_>) -> Members<'b> {
    let mut members = std::mem::ManuallyDrop::new(members);
    let (ptr, capacity) = (members.as_mut_ptr(), members.capacity());
    // SAFETY: as in `relabel_items`: one type up to a lifetime, an allocation not used again,
    // and length 0.
    unsafe { Vec::from_raw_parts(ptr.cast::<(Cow<'b, str>, Node<'b>)>(), 0, capacity) }
}

/// Writes `node` over a placeholder (`Node::Null` or an empty string): there is nothing to drop,
/// and skipping the drop keeps the recursive drop code of `Node` off the hot path.
fn fill<'a>(out: &mut Node<'a>, node: Node<'a>) {
    debug_assert!(matches!(out, Node::Null | Node::String(Cow::Borrowed(""))));
    std::mem::forget(std::mem::replace(out, node));
}

/// Where a string is, for its `too_long` error. A member's path is only built for the error.
#[derive(Clone, Copy)]
enum Place<'p> {
    /// A key of the object at this path (reported at the object).
    Key(&'p Path<'p>),
    /// The value at this path.
    Value(&'p Path<'p>),
    /// The value of the member with this key in the object at this path.
    Member(&'p Path<'p>, &'p str),
    /// The item with this index in the array at this path.
    Item(&'p Path<'p>, usize),
}

impl Place<'_> {
    fn too_long(self, limits: &Limits) -> ArgumentError {
        match self {
            Place::Key(path) => too_long(path, true, limits),
            Place::Value(path) => too_long(path, false, limits),
            Place::Member(path, key) => too_long(&path.key(key), false, limits),
            Place::Item(path, index) => too_long(&path.index(index), false, limits),
        }
    }
}

/// A failure inside the reader; the error itself is kept in [`Reader::error`], so results stay
/// the size of a node.
struct Fail;

type Step<T> = Result<T, Fail>;

/// How [`Reader::string_slow`] failed: with its error kept, or too long, which the caller
/// reports since it knows where the string is.
enum Slow {
    Failed(Fail),
    TooLong,
}

impl From<Fail> for Slow {
    fn from(fail: Fail) -> Self {
        Slow::Failed(fail)
    }
}

/// Reads JSON text; with `ESCAPED`, JSON text as written inside a JSON string, read from the
/// text that holds that string, where each quote of the document is `\"` ([`read_logged`]).
struct Reader<'a, const ESCAPED: bool> {
    text: &'a str,
    pos: usize,
    depth_left: usize,
    limits: Limits,
    error: Option<ArgumentError>,
}

impl<'a, const ESCAPED: bool> Reader<'a, ESCAPED> {
    /// The bytes of a quote: `"`, or `\"` inside a JSON string.
    const QUOTE: usize = if ESCAPED { 2 } else { 1 };

    /// A reader at the start of `text`.
    fn new(text: &'a str, limits: &Limits) -> Self {
        Reader {
            text,
            pos: 0,
            depth_left: limits.max_depth,
            limits: *limits,
            error: None,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    /// Whether a quote starts at `pos`.
    #[inline(always)]
    fn quote_at(&self, pos: usize) -> bool {
        let bytes = self.text.as_bytes();
        match ESCAPED {
            false => bytes.get(pos) == Some(&b'"'),
            true => bytes.get(pos..pos + 2) == Some(b"\\\""),
        }
    }

    fn skip_whitespace(&mut self) {
        // Counted in a local: the position is stored once, not once per byte.
        let bytes = self.text.as_bytes();
        let mut pos = self.pos;
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(pos) {
            pos += 1;
        }
        self.pos = pos;
    }

    fn fail(&mut self, error: ArgumentError) -> Fail {
        self.error = Some(error);
        Fail
    }

    fn into_error(self) -> ArgumentError {
        self.error.unwrap_or_else(|| ArgumentError {
            path: "$".to_owned(),
            code: Code::InvalidJson,
            message: "the payload could not be read".to_owned(),
        })
    }

    /// An `invalid_json` error at the current position, with line and column for the model.
    fn syntax(&mut self, what: &str) -> Fail {
        let consumed = &self.text[..floor_char_boundary(self.text, self.pos)];
        let line = consumed.matches('\n').count() + 1;
        let column = consumed
            .rsplit('\n')
            .next()
            .map_or(0, |l| l.chars().count())
            + 1;
        self.fail(ArgumentError {
            path: "$".to_owned(),
            code: Code::InvalidJson,
            message: format!("{what} at line {line} column {column}"),
        })
    }

    /// Reads one value into `out` (written in place: moving nodes through return values is
    /// what a tree reader spends most of its time on otherwise).
    fn value(&mut self, path: &Path<'_>, out: &mut Node<'a>) -> Step<()> {
        if self.quote_at(self.pos) {
            let max = if self.depth_left == self.limits.max_depth {
                usize::MAX
            } else {
                self.limits.max_string_bytes
            };
            fill(out, Node::String(Cow::Borrowed("")));
            if let Node::String(s) = out {
                self.string(max, Place::Value(path), s)?;
            }
            return Ok(());
        }
        let node = match self.peek() {
            Some(b'{') => return self.object(path, out),
            Some(b'[') => return self.array(path, out),
            Some(b't') => self.keyword("true", Node::Bool(true))?,
            Some(b'f') => self.keyword("false", Node::Bool(false))?,
            Some(b'n') => self.keyword("null", Node::Null)?,
            Some(b'N') => return self.non_finite("NaN", path),
            Some(b'I') => return self.non_finite("Infinity", path),
            Some(b'-') if self.text.as_bytes().get(self.pos + 1) == Some(&b'I') => {
                return self.non_finite("-Infinity", path)
            }
            Some(b'-' | b'0'..=b'9') => Node::Number(Number::Literal(self.number()?)),
            Some(_) => return Err(self.syntax("expected a JSON value")),
            None => return Err(self.syntax("unexpected end of input")),
        };
        fill(out, node);
        Ok(())
    }

    fn keyword(&mut self, word: &str, node: Node<'a>) -> Step<Node<'a>> {
        if self.text.as_bytes()[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(node)
        } else {
            Err(self.syntax("expected a JSON value"))
        }
    }

    fn non_finite(&mut self, word: &str, path: &Path<'_>) -> Step<()> {
        if self.text.as_bytes()[self.pos..].starts_with(word.as_bytes()) {
            Err(self.fail(ArgumentError {
                path: path.render(),
                code: Code::NonFiniteNumber,
                message: format!("{word} is not a JSON number; send a finite number"),
            }))
        } else {
            Err(self.syntax("expected a JSON value"))
        }
    }

    fn enter(&mut self) -> Step<()> {
        self.depth_left = match self.depth_left.checked_sub(1) {
            Some(left) => left,
            None => return Err(self.fail(too_deep(&self.limits))),
        };
        self.pos += 1;
        Ok(())
    }

    // Containers are read out of line: their frame is large, and a string or number (most
    // values) then goes through `value` without paying for it.
    #[inline(never)]
    fn array(&mut self, path: &Path<'_>, out: &mut Node<'a>) -> Step<()> {
        self.enter()?;
        self.skip_whitespace();
        if self.peek() == Some(b']') {
            self.pos += 1;
            self.depth_left += 1;
            fill(out, Node::Array(Vec::new()));
            return Ok(());
        }
        fill(out, Node::Array(pooled_items()));
        let Node::Array(items) = out else {
            return Err(Fail);
        };
        loop {
            let index = items.len();
            if index == self.limits.max_items {
                return Err(self.fail(too_many_items(path, &self.limits)));
            }
            self.skip_whitespace();
            items.push(EMPTY_ITEM);
            let Some(slot) = items.last_mut() else {
                return Err(Fail);
            };
            if self.quote_at(self.pos) {
                fill(slot, Node::String(Cow::Borrowed("")));
                if let Node::String(s) = slot {
                    self.string(self.limits.max_string_bytes, Place::Item(path, index), s)?;
                }
            } else {
                self.value(&path.index(index), slot)?;
            }
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    self.depth_left += 1;
                    return Ok(());
                }
                _ => return Err(self.syntax("expected ',' or ']'")),
            }
        }
    }

    #[inline(never)]
    fn object(&mut self, path: &Path<'_>, out: &mut Node<'a>) -> Step<()> {
        self.enter()?;
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            self.depth_left += 1;
            fill(out, Node::Object(Vec::new()));
            return Ok(());
        }
        fill(out, Node::Object(pooled_members()));
        let Node::Object(members) = out else {
            return Err(Fail);
        };
        let mut seen: Option<HashSet<Cow<'a, str>>> = None;
        loop {
            self.skip_whitespace();
            if !self.quote_at(self.pos) {
                return Err(self.syntax("expected a quoted object key"));
            }
            if members.len() == self.limits.max_keys {
                return Err(self.fail(too_many_keys(path, &self.limits)));
            }
            // The member is read in place: key first, then its value.
            members.push(EMPTY_MEMBER);
            let Some(((key, slot), earlier)) = members.split_last_mut() else {
                return Err(Fail);
            };
            self.string(self.limits.max_string_bytes, Place::Key(path), key)?;
            let duplicate = if earlier.len() <= LINEAR_DUPLICATE_SCAN {
                repeats(earlier, key)
            } else {
                let set =
                    seen.get_or_insert_with(|| earlier.iter().map(|(k, _)| k.clone()).collect());
                !set.insert(key.clone())
            };
            if duplicate {
                return Err(self.fail(ArgumentError {
                    path: path.key(key).render(),
                    code: Code::DuplicateKey,
                    message: "this key appears more than once in the object; send it once"
                        .to_owned(),
                }));
            }
            // Most often `": "` exactly, taken at once.
            if self.text.as_bytes().get(self.pos..self.pos + 2) == Some(b": ") {
                self.pos += 2;
            } else {
                self.skip_whitespace();
                if self.peek() != Some(b':') {
                    return Err(self.syntax("expected ':' after an object key"));
                }
                self.pos += 1;
            }
            self.skip_whitespace();
            if self.quote_at(self.pos) {
                // A string value, the common case, is read here without a call to `value`
                // and without building its path, which only an error needs.
                fill(slot, Node::String(Cow::Borrowed("")));
                if let Node::String(s) = slot {
                    self.string(self.limits.max_string_bytes, Place::Member(path, key), s)?;
                }
            } else if let Some(b'0'..=b'9') = self.peek() {
                fill(slot, Node::Number(Number::Literal(self.number()?)));
            } else {
                self.value(&path.key(key), slot)?;
            }
            // Most often `, ` exactly, taken at once.
            if self.text.as_bytes().get(self.pos..self.pos + 2) == Some(b", ") {
                self.pos += 2;
                continue;
            }
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    self.depth_left += 1;
                    return Ok(());
                }
                _ => return Err(self.syntax("expected ',' or '}'")),
            }
        }
    }

    /// Reads a string starting at its opening quote; borrows it when it has no escapes. A
    /// string whose unescaped text would pass `max` bytes is refused as `too_long` at its
    /// place without scanning further.
    #[inline(always)]
    fn string(&mut self, max: usize, at: Place<'_>, out: &mut Cow<'a, str>) -> Step<()> {
        let text = self.text;
        let start = self.pos + Self::QUOTE;
        // Scanned without the window of `max`: a run that goes past it is refused all the same,
        // and the plain case needs no window arithmetic.
        let end = scan_to_special(text.as_bytes(), start);
        self.pos = end;
        if end - start <= max && self.quote_at(end) {
            // `out` holds the empty placeholder, which has nothing to drop. Inside a JSON
            // string, the stop is the backslash of the closing `\"`: the content before it has
            // no escape, so it is the string as the document means it.
            std::mem::forget(std::mem::replace(out, Cow::Borrowed(&text[start..end])));
            self.pos = end + Self::QUOTE;
            return Ok(());
        }
        if ESCAPED {
            // An escape of the document's own, written inside a JSON string: not read here.
            return Err(Fail);
        }
        match self.string_slow(start, max, out) {
            Ok(()) => Ok(()),
            Err(Slow::Failed(fail)) => Err(fail),
            // Only here is the place of the string needed.
            Err(Slow::TooLong) => Err(self.fail(at.too_long(&self.limits))),
        }
    }

    /// The rest of [`Reader::string`]: escapes, the limit, and errors. Not marked cold:
    /// double-encoded arguments, common in logs, are strings full of escapes.
    #[inline(never)]
    fn string_slow(
        &mut self,
        start: usize,
        max: usize,
        out: &mut Cow<'a, str>,
    ) -> Result<(), Slow> {
        if self.pos - start > max {
            return Err(Slow::TooLong);
        }
        match self.peek() {
            Some(b'\\') => {}
            Some(_) => return Err(self.syntax("control character inside a string").into()),
            None => return Err(self.syntax("unterminated string").into()),
        }
        // Escapes only shrink text, so the raw length up to the closing quote is room enough:
        // one allocation, never regrown, even for double-encoded arguments full of `\"`.
        let room = raw_string_len(self.text.as_bytes(), start, max.saturating_add(1));
        let mut owned = String::with_capacity(room);
        owned.push_str(&self.text[start..self.pos]);
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    *out = Cow::Owned(owned);
                    return Ok(());
                }
                Some(b'\\') => {
                    self.pos += 1;
                    self.escape(&mut owned)?;
                }
                Some(_) => return Err(self.syntax("control character inside a string").into()),
                None => return Err(self.syntax("unterminated string").into()),
            }
            // An escape may already have gone past `max`; otherwise the next run may use the
            // room left. A scan that fills more than the room stopped at the window's end,
            // possibly inside a character, so it is refused before the text is sliced.
            let room = match max.checked_sub(owned.len()) {
                Some(room) => room,
                None => return Err(Slow::TooLong),
            };
            let run_start = self.pos;
            self.pos = scan_plain(self.text.as_bytes(), self.pos, room);
            if self.pos - run_start > room {
                return Err(Slow::TooLong);
            }
            owned.push_str(&self.text[run_start..self.pos]);
        }
    }

    fn escape(&mut self, out: &mut String) -> Step<()> {
        let Some(b) = self.peek() else {
            return Err(self.syntax("unterminated string"));
        };
        self.pos += 1;
        let c = match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let first = self.hex4()?;
                match first {
                    0xD800..=0xDBFF => {
                        if !self.text.as_bytes()[self.pos..].starts_with(b"\\u") {
                            return Err(self.syntax("unpaired surrogate in \\u escape"));
                        }
                        self.pos += 2;
                        let second = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&second) {
                            return Err(self.syntax("unpaired surrogate in \\u escape"));
                        }
                        let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                        match char::from_u32(code) {
                            Some(c) => c,
                            None => return Err(self.syntax("invalid \\u escape")),
                        }
                    }
                    0xDC00..=0xDFFF => return Err(self.syntax("unpaired surrogate in \\u escape")),
                    code => match char::from_u32(code) {
                        Some(c) => c,
                        None => return Err(self.syntax("invalid \\u escape")),
                    },
                }
            }
            _ => return Err(self.syntax("invalid escape in string")),
        };
        out.push(c);
        Ok(())
    }

    fn hex4(&mut self) -> Step<u32> {
        let Some(digits) = self.text.as_bytes().get(self.pos..self.pos + 4) else {
            return Err(self.syntax("truncated \\u escape"));
        };
        let mut code = 0u32;
        for &d in digits {
            let v = match d {
                b'0'..=b'9' => d - b'0',
                b'a'..=b'f' => d - b'a' + 10,
                b'A'..=b'F' => d - b'A' + 10,
                _ => return Err(self.syntax("invalid \\u escape")),
            };
            code = code * 16 + u32::from(v);
        }
        self.pos += 4;
        Ok(code)
    }

    /// Reads a number literal, checking the JSON grammar: `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`.
    #[inline(always)]
    fn number(&mut self) -> Step<&'a str> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.syntax("invalid number")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.syntax("invalid number"));
            }
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.syntax("invalid number"));
            }
            self.digits();
        }
        Ok(&self.text[start..self.pos])
    }

    fn digits(&mut self) {
        const ONES: u64 = 0x0101_0101_0101_0101;
        // Counted in a local: the position is stored once, not once per digit.
        let bytes = self.text.as_bytes();
        let mut pos = self.pos;
        // Eight bytes at a time while there are eight: after subtracting '0' from each byte, a
        // byte above 9 is not a digit. A borrow only comes from a byte below '0', itself not a
        // digit, so the lowest flagged byte is exact.
        while let Some(chunk) = bytes.get(pos..pos + 8) {
            let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
            let x = word.wrapping_sub(ONES * u64::from(b'0'));
            let flagged = (((x & (ONES * 0x7f)) + ONES * (0x7f - 9)) | x) & (ONES * 0x80);
            if flagged != 0 {
                self.pos = pos + (flagged.trailing_zeros() / 8) as usize;
                return;
            }
            pos += 8;
        }
        while let Some(b'0'..=b'9') = bytes.get(pos) {
            pos += 1;
        }
        self.pos = pos;
    }
}

/// Whether `key` is among the keys of `earlier`. Lengths are compared first: keys of one
/// object seldom share a length, so most keys are passed over without reading their text.
#[inline(always)]
fn repeats(earlier: &[(Cow<'_, str>, Node<'_>)], key: &str) -> bool {
    for (k, _) in earlier {
        if k.len() == key.len() && k.as_bytes() == key.as_bytes() {
            return true;
        }
    }
    false
}

/// Bytes from `start` to the closing quote of a string (or to where the string breaks off),
/// stepping over escapes; counting stops at `cap`, so a hostile string is not read twice.
fn raw_string_len(bytes: &[u8], start: usize, cap: usize) -> usize {
    let mut pos = start;
    loop {
        pos = scan_plain(bytes, pos, cap.saturating_sub(pos - start));
        if pos - start >= cap {
            return cap;
        }
        match bytes.get(pos) {
            Some(b'\\') => pos = (pos + 2).min(bytes.len()),
            _ => return pos - start,
        }
    }
}

fn too_deep(limits: &Limits) -> ArgumentError {
    ArgumentError {
        path: "$".to_owned(),
        code: Code::TooDeep,
        message: format!(
            "arrays and objects are nested more than {} levels deep; send a flatter payload",
            limits.max_depth
        ),
    }
}

fn too_long(path: &Path<'_>, key: bool, limits: &Limits) -> ArgumentError {
    let what = if key { "an object key" } else { "this string" };
    ArgumentError {
        path: path.render(),
        code: Code::TooLong,
        message: format!(
            "{what} is longer than the limit of {} bytes; send a shorter value",
            limits.max_string_bytes
        ),
    }
}

fn too_many_items(path: &Path<'_>, limits: &Limits) -> ArgumentError {
    ArgumentError {
        path: path.render(),
        code: Code::TooManyItems,
        message: format!(
            "this array has more than {} items, the limit; send fewer items",
            limits.max_items
        ),
    }
}

fn too_many_keys(path: &Path<'_>, limits: &Limits) -> ArgumentError {
    ArgumentError {
        path: path.render(),
        code: Code::TooManyKeys,
        message: format!(
            "this object has more than {} keys, the limit; send fewer keys",
            limits.max_keys
        ),
    }
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(text: &str) -> Code {
        parse_document(text, 128).unwrap_err().code
    }

    fn limited(text: &str, limits: Limits) -> Result<Node<'_>, (Code, String)> {
        read_text(text, &limits)
            .map(Document::into_root)
            .map_err(|e| (e.code, e.path))
    }

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

    #[test]
    fn reads_values_and_borrows_plain_strings() {
        let node = parse_document(
            r#" {"a": [1, -2.5e3, true, null], "b": "x\u00e9y", "c": "plain"} "#,
            128,
        )
        .unwrap();
        let Node::Object(members) = node else {
            panic!("not an object")
        };
        assert_eq!(members.len(), 3);
        assert_eq!(members[1].1, Node::String(Cow::Owned("xéy".into())));
        assert!(matches!(members[2].1, Node::String(Cow::Borrowed("plain"))));
    }

    #[test]
    fn scans_strings_of_every_length_and_position() {
        for len in 0..40 {
            for special in ["\"", "\\\\", "\\n", "\\u00e9"] {
                let body = "a".repeat(len);
                let text = format!("[\"{body}{special}{body}\", \"{body}\"]");
                let expected: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                match parse_document(&text, 128) {
                    Ok(node) => assert_eq!(node.to_value(), expected, "{text}"),
                    Err(e) => assert_eq!(special, "\"", "{text}: {e}"),
                }
            }
            let control = format!("[\"{}\u{1}\"]", "b".repeat(len));
            assert_eq!(code(&control), Code::InvalidJson, "{control:?}");
            let high = format!("[\"{}\u{e9}\u{7f}\u{20ac}\"]", "c".repeat(len));
            assert!(parse_document(&high, 128).is_ok(), "{high:?}");
        }
    }

    #[test]
    fn rejects_duplicates_at_any_depth_and_through_escapes() {
        let err = parse_document(r#"{"a":{"b":1,"\u0062":2}}"#, 128).unwrap_err();
        assert_eq!((err.code, err.path.as_str()), (Code::DuplicateKey, "$.a.b"));
        let many: String = (0..40).map(|i| format!("\"k{i}\":{i},")).collect();
        let err = parse_document(&format!("{{{many}\"k39\":0}}"), 128).unwrap_err();
        assert_eq!((err.code, err.path.as_str()), (Code::DuplicateKey, "$.k39"));
    }

    #[test]
    fn classifies_bad_text() {
        assert_eq!(code("NaN"), Code::NonFiniteNumber);
        assert_eq!(code("[-Infinity]"), Code::NonFiniteNumber);
        assert_eq!(code("{\"a\": Infinity}"), Code::NonFiniteNumber);
        for bad in [
            "",
            "nul",
            "01",
            "1.",
            "-",
            "1e",
            "[1,]",
            "{\"a\"}",
            "\"\\x\"",
            "\"\\ud800\"",
            "{} x",
            "\"a\nb\"",
        ] {
            assert_eq!(code(bad), Code::InvalidJson, "{bad:?}");
        }
    }

    #[test]
    fn deep_nesting_is_a_clean_error() {
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        assert_eq!(code(&deep), Code::TooDeep);
        let ok = "[".repeat(128) + &"]".repeat(128);
        assert!(parse_document(&ok, 128).is_ok());
        let too_deep = "[".repeat(129) + &"]".repeat(129);
        assert_eq!(code(&too_deep), Code::TooDeep);
    }

    #[test]
    fn limits_are_checked_while_scanning() {
        let limits = Limits {
            max_string_bytes: 4,
            max_items: 3,
            max_keys: 2,
            ..Limits::DEFAULT
        };
        assert!(limited(r#"{"abcd":["wxyz",1,2],"b":{}}"#, limits).is_ok());
        // Escapes count once unescaped: `\u0041` is one byte.
        assert!(limited(r#"{"a":"\u0041\u0041\u0041\u0041"}"#, limits).is_ok());
        for (text, code, path) in [
            (r#"{"a":"vwxyz"}"#, Code::TooLong, "$.a"),
            (r#"{"a":[1,"vwxyz"]}"#, Code::TooLong, "$.a[1]"),
            (r#"["vwxyz"]"#, Code::TooLong, "$[0]"),
            (
                r#"{"a":"\u0041\u0041\u0041\u0041\n"}"#,
                Code::TooLong,
                "$.a",
            ),
            (r#"{"abcde":1}"#, Code::TooLong, "$"),
            (r#"{"a":[[1,2,3,4]]}"#, Code::TooManyItems, "$.a[0]"),
            (r#"{"a":1,"b":2,"c":3}"#, Code::TooManyKeys, "$"),
        ] {
            assert_eq!(
                limited(text, limits),
                Err((code, path.to_owned())),
                "{text}"
            );
        }
        // A limit that falls inside a character, after an escape, is still a clean refusal.
        assert_eq!(
            limited("{\"a\":\"\\na\u{5bc}\u{5bc}\"}", limits),
            Err((Code::TooLong, "$.a".to_owned()))
        );
        assert_eq!(
            limited("{\"a\":\"\u{5bc}\u{5bc}\u{5bc}\"}", limits),
            Err((Code::TooLong, "$.a".to_owned()))
        );
        // The payload itself may be a long string (a double-encoded object).
        assert!(limited(r#""a long payload""#, limits).is_ok());
    }

    #[test]
    fn decoded_values_meet_the_same_limits() {
        let limits = Limits {
            max_depth: 3,
            max_string_bytes: 4,
            max_items: 3,
            max_keys: 2,
            ..Limits::DEFAULT
        };
        let read = |value: Value| {
            read_value(&value, &limits)
                .map(|doc| doc.root().to_value())
                .map_err(|e| (e.code, e.path))
        };
        let fine = serde_json::json!({"abcd": [["wxyz"], 1, 2], "b": {}});
        assert_eq!(read(fine.clone()), Ok(fine));
        for (value, code, path) in [
            (serde_json::json!({"a": "vwxyz"}), Code::TooLong, "$.a"),
            (serde_json::json!({"abcde": 1}), Code::TooLong, "$"),
            (
                serde_json::json!({"a": [1, 2, 3, 4]}),
                Code::TooManyItems,
                "$.a",
            ),
            (
                serde_json::json!({"a": 1, "b": 2, "c": 3}),
                Code::TooManyKeys,
                "$",
            ),
            (serde_json::json!({"a": [[[1]]]}), Code::TooDeep, "$"),
        ] {
            assert_eq!(read(value.clone()), Err((code, path.to_owned())), "{value}");
        }
    }

    #[test]
    fn containers_are_reused_across_documents() {
        let text = r#"{"a":[1,2,{"b":[3]}],"c":{"d":[]}}"#;
        let first = read_text(text, &Limits::DEFAULT).unwrap().root().to_value();
        for _ in 0..3 {
            let doc = read_text(text, &Limits::DEFAULT).unwrap();
            assert_eq!(doc.root().to_value(), first);
        }
    }

    #[test]
    fn number_literals_end_where_their_digits_end() {
        for len in 1..24 {
            let digits: String = (0..len)
                .map(|i| char::from(b"1234567890"[i % 10]))
                .collect();
            for after in ["", " ", ".25", ".0e+7", "E-12", "\n"] {
                let text = format!("[{digits}{after}]");
                let literal = format!("{digits}{}", after.trim());
                assert_eq!(
                    parse_document(&text, 128).unwrap(),
                    Node::Array(vec![Node::Number(Number::Literal(&literal))]),
                    "{text:?}"
                );
            }
            for bad in [":", "/", "\u{e9}", "\u{7f}", "a"] {
                let text = format!("[{digits}{bad}1]");
                let err = parse_document(&text, 128).unwrap_err();
                assert_eq!(err.code, Code::InvalidJson, "{text:?}");
                let column = format!("column {}", len + 2);
                assert!(err.message.ends_with(&column), "{text:?}: {}", err.message);
            }
        }
    }

    #[test]
    fn error_positions_count_characters() {
        let err = parse_document("{\"é\": x}", 128).unwrap_err();
        assert!(err.message.ends_with("line 1 column 7"), "{}", err.message);
    }
}
