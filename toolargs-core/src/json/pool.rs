//! The per-thread pool of the vectors a document's arrays and objects are built in: given back
//! when a [`Document`](super::Document) is dropped, so a steady stream of calls reuses the same
//! buffers. The only `unsafe` of the crate is here, in the change of a vector's lifetime.

use std::borrow::Cow;
use std::cell::RefCell;

use crate::node::Node;

/// The members of an object node.
type Members<'a> = Vec<(Cow<'a, str>, Node<'a>)>;

/// At most this many empty vectors of each kind are kept per thread…
const POOLED_VECTORS: usize = 32;
/// …each with room for at most this many elements, so a hostile payload leaves nothing large.
const POOLED_CAPACITY: usize = 256;

/// Empty vectors kept for the next document on this thread. Their element types are the node
/// types with the lifetime erased; a vector is only stored empty and only its lifetime changes
/// on the way in and out ([`relabel_items`], [`relabel_members`]).
pub(super) struct Pool {
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
pub(super) fn with_pool<R>(f: impl FnOnce(&mut Pool) -> R) -> Option<R> {
    POOL.try_with(|pool| pool.try_borrow_mut().ok().map(|mut pool| f(&mut pool)))
        .ok()
        .flatten()
}

/// An empty vector for an array's items, from the pool when it has one.
pub(super) fn pooled_items<'a>() -> Vec<Node<'a>> {
    with_pool(|pool| pool.arrays.pop())
        .flatten()
        .map(relabel_items)
        .unwrap_or_default()
}

/// An empty vector for an object's members, from the pool when it has one.
pub(super) fn pooled_members<'a>() -> Members<'a> {
    with_pool(|pool| pool.objects.pop())
        .flatten()
        .map(relabel_members)
        .unwrap_or_default()
}

impl Pool {
    /// Takes the containers of `node` apart and keeps their vectors. They are stored so that
    /// the next document, opening containers in the same order, gets the same vectors back:
    /// children right to left, then the container itself.
    pub(super) fn recycle(&mut self, node: &mut Node<'_>) {
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
#[allow(unsafe_code)]
fn relabel_items<'b>(items: Vec<Node<'_>>) -> Vec<Node<'b>> {
    let mut items = std::mem::ManuallyDrop::new(items);
    let (ptr, capacity) = (items.as_mut_ptr(), items.capacity());
    // SAFETY: `ptr` and `capacity` come from a vector of `Node<'_>`, which has the same size and
    // alignment as `Node<'b>` (the types differ only in a lifetime), and that vector is not used
    // again. The new vector has length 0, so no value is ever read as the other type.
    unsafe { Vec::from_raw_parts(ptr.cast::<Node<'b>>(), 0, capacity) }
}

/// Gives a vector of members another lifetime, emptied, as [`relabel_items`] does.
#[allow(unsafe_code)]
fn relabel_members<'b>(members: Members<'_>) -> Members<'b> {
    let mut members = std::mem::ManuallyDrop::new(members);
    let (ptr, capacity) = (members.as_mut_ptr(), members.capacity());
    // SAFETY: as in `relabel_items`: one type up to a lifetime, an allocation not used again,
    // and length 0.
    unsafe { Vec::from_raw_parts(ptr.cast::<(Cow<'b, str>, Node<'b>)>(), 0, capacity) }
}

#[cfg(test)]
mod tests {
    use crate::json::read_text;
    use crate::options::Limits;

    #[test]
    fn containers_are_reused_across_documents() {
        let text = r#"{"a":[1,2,{"b":[3]}],"c":{"d":[]}}"#;
        let first = read_text(text, &Limits::DEFAULT).unwrap().root().to_value();
        for _ in 0..3 {
            let doc = read_text(text, &Limits::DEFAULT).unwrap();
            assert_eq!(doc.root().to_value(), first);
        }
    }
}
