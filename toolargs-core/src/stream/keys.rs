//! The keys of the payload object sent so far, for a key sent twice: each by its hash and by
//! where its name is, its span in the received text (which only grows), so that no name is
//! copied; a key with an escape is kept decoded.

use std::hash::BuildHasher;
use std::ops::Range;

use foldhash::fast::RandomState;
use hashbrown::hash_table::{Entry, HashTable};

/// Where a key's name is.
#[derive(Clone, Debug)]
enum Name {
    /// In the received text, between its quotes.
    Text(Range<usize>),
    /// Decoded, at this index of [`Keys::decoded`].
    Decoded(usize),
}

#[derive(Debug, Default)]
pub(super) struct Keys {
    /// Each key's hash (kept, so that growing the table hashes nothing again) and name.
    table: HashTable<(u64, Name)>,
    decoded: Vec<String>,
    hasher: RandomState,
}

impl Keys {
    /// Adds the key named `name`, which is `text[span]` when `span` is given (else it is
    /// kept decoded). False, with nothing added, when the key was sent before.
    pub(super) fn insert(&mut self, text: &str, name: &str, span: Option<Range<usize>>) -> bool {
        let hash = self.hasher.hash_one(name);
        let decoded = &self.decoded;
        let same = |(_, at): &(u64, Name)| resolve(text, decoded, at) == name;
        let hasher = |(hash, _): &(u64, Name)| *hash;
        match self.table.entry(hash, same, hasher) {
            Entry::Occupied(_) => false,
            Entry::Vacant(vacant) => {
                let at = match span {
                    Some(span) => Name::Text(span),
                    None => {
                        self.decoded.push(name.to_owned());
                        Name::Decoded(self.decoded.len() - 1)
                    }
                };
                vacant.insert((hash, at));
                true
            }
        }
    }

    pub(super) fn len(&self) -> usize {
        self.table.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    pub(super) fn clear(&mut self) {
        self.table.clear();
        self.decoded.clear();
    }
}

/// A key's name, from the text or decoded.
fn resolve<'a>(text: &'a str, decoded: &'a [String], at: &Name) -> &'a str {
    match at {
        Name::Text(span) => text.get(span.clone()).unwrap_or_default(),
        Name::Decoded(index) => decoded.get(*index).map_or("", String::as_str),
    }
}

#[cfg(test)]
mod tests {
    use super::Keys;

    #[test]
    fn a_key_is_sent_twice_whether_escaped_or_not() {
        let text = r#"{"a": 1, "b\u0063": 2, "a": 3, "bc": 4, "d": 5}"#;
        // The span of the name of the first key `key` at or after `from`.
        let span = |from: usize, key: &str| {
            let at = text[from..].find(&format!("\"{key}\"")).unwrap() + from + 1;
            at..at + key.len()
        };
        let mut keys = Keys::default();
        assert!(keys.insert(text, "a", Some(span(0, "a"))));
        assert!(keys.insert(text, "bc", None));
        assert!(!keys.insert(text, "a", Some(span(5, "a"))));
        assert!(!keys.insert(text, "bc", Some(span(0, "bc"))));
        assert!(keys.insert(text, "d", Some(span(0, "d"))));
        assert_eq!(keys.len(), 3);
        // Past the table's first growth, every key is still found by its kept hash.
        let many: Vec<String> = (0..1000).map(|i| format!("k{i}")).collect();
        for name in &many {
            assert!(keys.insert(text, name, None));
        }
        for name in &many {
            assert!(!keys.insert(text, name, None));
        }
        assert!(!keys.insert(text, "a", None));
        keys.clear();
        assert!(keys.is_empty() && keys.insert(text, "a", Some(span(0, "a"))));
    }
}
