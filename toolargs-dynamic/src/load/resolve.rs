//! References: where each `$id` and `$anchor` is, and what a `$ref` points to, within one
//! document. A reference to another document is a load error that names it.

use super::{escape, member, without_fragment, LoadError, LoadErrorKind, Loader, MAX_SCHEMA_DEPTH};
use crate::shape::Id;
use toolargs_core::node::Node;

/// Keywords whose value is a schema, a list of schemas, or a map of schemas: the places
/// `$id` and `$anchor` may appear.
const SINGLE: &[&str] = &[
    "additionalProperties",
    "items",
    "additionalItems",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
];
const LISTS: &[&str] = &["prefixItems", "allOf", "anyOf", "oneOf", "items"];
const MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];
impl Loader<'_, '_> {
    /// Records every `$id` and `$anchor` and the base URI at each schema, before compiling,
    /// so that a reference may point forward.
    pub(super) fn index(&mut self, node: &Node<'_>, pointer: &str, base: &str, depth: usize) {
        if depth > MAX_SCHEMA_DEPTH {
            return;
        }
        let Node::Object(members) = node else {
            return;
        };
        let mut base = base.to_owned();
        if let Some(Node::String(id)) = member(node, "$id") {
            if !id.starts_with('#') {
                base = resolve(&base, without_fragment(id));
                self.resources.insert(base.clone(), pointer.to_owned());
            }
        }
        for key in ["$anchor", "$dynamicAnchor"] {
            if let Some(Node::String(name)) = member(node, key) {
                self.anchors
                    .insert(format!("{base}#{name}"), pointer.to_owned());
            }
        }
        self.bases.insert(pointer.to_owned(), base.clone());
        for (key, value) in members {
            let here = format!("{pointer}/{}", escape(key));
            if SINGLE.contains(&key.as_ref()) {
                self.index(value, &here, &base, depth + 1);
            }
            if LISTS.contains(&key.as_ref()) {
                if let Node::Array(items) = value {
                    for (i, item) in items.iter().enumerate() {
                        self.index(item, &format!("{here}/{i}"), &base, depth + 1);
                    }
                }
            }
            if MAPS.contains(&key.as_ref()) {
                if let Node::Object(entries) = value {
                    for (name, item) in entries {
                        self.index(item, &format!("{here}/{}", escape(name)), &base, depth + 1);
                    }
                }
            }
        }
    }

    pub(super) fn reference(
        &mut self,
        node: &Node<'_>,
        pointer: &str,
        base: &str,
    ) -> Result<Id, LoadError> {
        let Node::String(reference) = node else {
            return Err(self.malformed(pointer, "`$ref` must be a string"));
        };
        let target = resolve(base, reference);
        let (uri, fragment) = target.split_once('#').unwrap_or((&target, ""));
        let resource = if uri.is_empty() || self.bases.get("").is_some_and(|b| b == uri) {
            Some(String::new())
        } else {
            self.resources.get(uri).cloned()
        };
        let Some(resource) = resource else {
            return Err(self.error(
                LoadErrorKind::RemoteReference,
                pointer,
                format!("`{reference}` refers to another document ({uri}); remote references are not loaded"),
            ));
        };
        let fragment = percent_decode(fragment);
        let location = if fragment.is_empty() {
            resource
        } else if fragment.starts_with('/') {
            format!("{resource}{fragment}")
        } else {
            self.anchors
                .get(&format!("{uri}#{fragment}"))
                .cloned()
                .ok_or_else(|| {
                    self.error(
                        LoadErrorKind::UnresolvedReference,
                        pointer,
                        format!("`{reference}` does not resolve: no anchor `{fragment}`"),
                    )
                })?
        };
        let mut node = self.root;
        for part in location.split('/').skip(1) {
            let part = part.replace("~1", "/").replace("~0", "~");
            node = match node {
                Node::Object(_) => member(node, &part),
                Node::Array(items) => part.parse::<usize>().ok().and_then(|i| items.get(i)),
                _ => None,
            }
            .ok_or_else(|| {
                self.error(
                    LoadErrorKind::UnresolvedReference,
                    pointer,
                    format!("`{reference}` does not resolve"),
                )
            })?;
        }
        let base = self
            .bases
            .get(&location)
            .cloned()
            .unwrap_or_else(|| uri.to_owned());
        self.compile(node, &location, &base)
    }
}

/// Resolves a URI reference against a base, as RFC 3986 section 5.2 does for the forms
/// schemas use.
pub(super) fn resolve(base: &str, reference: &str) -> String {
    let has_scheme = reference.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    });
    if has_scheme || base.is_empty() {
        return reference.to_owned();
    }
    let base = without_fragment(base);
    if reference.is_empty() {
        return base.to_owned();
    }
    if reference.starts_with('#') {
        return format!("{base}{reference}");
    }
    let (scheme, rest) = base.split_once(':').unwrap_or(("", base));
    if let Some(tail) = reference.strip_prefix("//") {
        return format!("{scheme}://{tail}");
    }
    let authority_end = rest
        .strip_prefix("//")
        .map(|r| 2 + r.find('/').unwrap_or(r.len()))
        .unwrap_or(0);
    let (authority, path) = rest.split_at(authority_end);
    let merged = if reference.starts_with('/') {
        reference.to_owned()
    } else {
        let dir = path.rfind('/').map_or("", |at| &path[..=at]);
        format!("{dir}{reference}")
    };
    let mut segments: Vec<&str> = Vec::new();
    let ends_with_dir = merged.ends_with("/.") || merged.ends_with("/..");
    for segment in merged.split('/') {
        match segment {
            "." => {}
            ".." => {
                if segments.len() > 1 {
                    segments.pop();
                }
            }
            s => segments.push(s),
        }
    }
    let mut path = segments.join("/");
    if ends_with_dir {
        path.push('/');
    }
    let separator = if scheme.is_empty() { "" } else { ":" };
    format!("{scheme}{separator}{authority}{path}")
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() + 1 {
            if let Some(byte) = text
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::resolve;

    #[test]
    fn references_resolve_against_their_base() {
        assert_eq!(resolve("", "#/$defs/a"), "#/$defs/a");
        assert_eq!(
            resolve("http://example.com/root.json", "#foo"),
            "http://example.com/root.json#foo"
        );
        assert_eq!(
            resolve("http://example.com/a/root.json", "item.json"),
            "http://example.com/a/item.json"
        );
        assert_eq!(
            resolve("http://example.com/a/root.json", "/b/item.json"),
            "http://example.com/b/item.json"
        );
        assert_eq!(
            resolve("http://example.com/a/b/root.json", "../c.json"),
            "http://example.com/a/c.json"
        );
        assert_eq!(
            resolve("urn:uuid:1234", "#/defs/x"),
            "urn:uuid:1234#/defs/x"
        );
        assert_eq!(resolve("http://x.com/a", "urn:other"), "urn:other");
    }
}
