//! The keys of the payload object sent so far, for a key sent twice: each by its hash and by
//! where its name is ([`Name`]).

use std::hash::BuildHasher;
use std::ops::Range;

use foldhash::fast::RandomState;
use hashbrown::hash_table::{Entry, HashTable};

/// Where a key's name is: in the received text (which only grows), between its quotes, or
/// decoded when the key has an escape. The set of keys and the partial view both keep names
/// this way, so that a plain key is never copied.
#[derive(Clone, Debug)]
pub(super) enum Name {
    Text(Range<usize>),
    Decoded(String),
}

impl Name {
    /// The name at `span` of `text` (between a key's quotes), read as `name`: the span when
    /// the text is the name, else the name decoded.
    pub(super) fn of(text: &str, span: Range<usize>, name: &str) -> Name {
        match text.get(span.clone()) {
            Some(raw) if raw == name => Name::Text(span),
            _ => Name::Decoded(name.to_owned()),
        }
    }

    /// The name, read from `text` when it is kept as a span of it.
    pub(super) fn get<'a>(&'a self, text: &'a str) -> &'a str {
        match self {
            Name::Text(span) => text.get(span.clone()).unwrap_or_default(),
            Name::Decoded(name) => name,
        }
    }
}

#[derive(Debug, Default)]
pub(super) struct Keys {
    /// Each key's hash (kept, so that growing the table hashes nothing again) and name.
    table: HashTable<(u64, Name)>,
    hasher: RandomState,
}

impl Keys {
    /// Adds the key `name` (of `text`). False, with nothing added, when the key was sent
    /// before.
    pub(super) fn insert(&mut self, text: &str, name: Name) -> bool {
        let hash = self.hasher.hash_one(name.get(text));
        let same = |(_, kept): &(u64, Name)| kept.get(text) == name.get(text);
        let hasher = |(hash, _): &(u64, Name)| *hash;
        match self.table.entry(hash, same, hasher) {
            Entry::Occupied(_) => false,
            Entry::Vacant(vacant) => {
                vacant.insert((hash, name));
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
    }
}

#[cfg(test)]
mod tests {
    use super::{Keys, Name};

    #[test]
    fn a_key_is_sent_twice_whether_escaped_or_not() {
        let text = r#"{"a": 1, "b\u0063": 2, "a": 3, "bc": 4, "d": 5}"#;
        // The span of the name of the first key `key` at or after `from`.
        let span = |from: usize, key: &str| {
            let at = text[from..].find(&format!("\"{key}\"")).unwrap() + from + 1;
            at..at + key.len()
        };
        let mut keys = Keys::default();
        assert!(keys.insert(text, Name::Text(span(0, "a"))));
        assert!(keys.insert(text, Name::Decoded("bc".into())));
        assert!(!keys.insert(text, Name::Text(span(5, "a"))));
        assert!(!keys.insert(text, Name::Text(span(0, "bc"))));
        assert!(keys.insert(text, Name::of(text, span(0, "d"), "d")));
        assert_eq!(keys.len(), 3);
        // Past the table's first growth, every key is still found by its kept hash.
        let many: Vec<String> = (0..1000).map(|i| format!("k{i}")).collect();
        for name in &many {
            assert!(keys.insert(text, Name::Decoded(name.clone())));
        }
        for name in &many {
            assert!(!keys.insert(text, Name::Decoded(name.clone())));
        }
        assert!(!keys.insert(text, Name::Decoded("a".into())));
        keys.clear();
        assert!(keys.is_empty() && keys.insert(text, Name::Text(span(0, "a"))));
    }
}
