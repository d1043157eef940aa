//! Entity references: names, emails or ids of people and accounts, compared by the id they
//! resolve to, never by their text. Resolution is the caller's: a directory, a CRM, a database.

use std::fmt;

/// The stable id of an entity, as the caller's system knows it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EntityId(pub String);

impl EntityId {
    /// An id.
    pub fn new(id: impl Into<String>) -> EntityId {
        EntityId(id.into())
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for EntityId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Resolution failed (the directory is down, the reference is malformed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolveError(pub String);

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ResolveError {}

/// Turns an entity reference into the ids it can mean. Several ids are an ambiguity, which the
/// gate never resolves by picking one; none means the reference names nobody. A reference
/// that already is an id should resolve to itself.
///
/// ```
/// use toolargs_semantic::{EntityId, ResolveError, Resolver};
///
/// struct Directory;
/// impl Resolver for Directory {
///     fn resolve(&self, kind: &str, reference: &str) -> Result<Vec<EntityId>, ResolveError> {
///         Ok(match (kind, reference) {
///             ("person", "Bob" | "usr_bob") => vec![EntityId::new("usr_bob")],
///             ("person", "Alice" | "usr_alice") => vec![EntityId::new("usr_alice")],
///             _ => vec![],
///         })
///     }
/// }
/// assert_eq!(Directory.resolve("person", "Bob").unwrap(), [EntityId::new("usr_bob")]);
/// ```
pub trait Resolver {
    /// Every id `reference` can mean for an entity of `kind` (the field's declared kind).
    fn resolve(&self, kind: &str, reference: &str) -> Result<Vec<EntityId>, ResolveError>;
}

impl<R: Resolver + ?Sized> Resolver for &R {
    fn resolve(&self, kind: &str, reference: &str) -> Result<Vec<EntityId>, ResolveError> {
        (**self).resolve(kind, reference)
    }
}

impl<R: Resolver + ?Sized> Resolver for Box<R> {
    fn resolve(&self, kind: &str, reference: &str) -> Result<Vec<EntityId>, ResolveError> {
        (**self).resolve(kind, reference)
    }
}
