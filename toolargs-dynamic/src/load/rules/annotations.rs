//! Keywords that only annotate: documentation loads silently, as do `x-` extensions;
//! annotations that look like promises the gate does not keep, and unknown keywords, load with
//! a warning.

use super::Keyword;
use crate::load::Loader;

/// Keywords that document a schema and change no verdict; they load silently.
const DOCUMENTATION: &[&str] = &[
    "title",
    "description",
    "$schema",
    "$id",
    "id",
    "$anchor",
    "$dynamicAnchor",
    "$comment",
    "$vocabulary",
    "examples",
    "example",
    "default",
    "$defs",
    "definitions",
];

/// Annotations a reader may take for a promise the gate does not keep: they load with a
/// warning.
const UNENFORCED: &[&str] = &[
    "deprecated",
    "readOnly",
    "writeOnly",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "discriminator",
];

impl Loader<'_, '_> {
    /// Reads `keyword` when it is a known annotation or an extension, with a warning when a
    /// reader might take it for more; `false` when it is not.
    pub(super) fn annotations_keyword(&mut self, keyword: &Keyword<'_, '_, '_>) -> bool {
        match keyword.name {
            known if DOCUMENTATION.contains(&known) => {}
            known if UNENFORCED.contains(&known) => {
                self.warn(
                    &keyword.here,
                    format!("`{known}` is an annotation; the gate does not enforce it"),
                );
            }
            other if other.starts_with("x-") => {}
            _ => return false,
        }
        true
    }

    /// A keyword of no family: ignored, as JSON Schema says, with a warning.
    pub(super) fn unknown_keyword(&mut self, keyword: &Keyword<'_, '_, '_>) {
        self.warn(
            &keyword.here,
            format!(
                "unknown keyword `{}` is ignored, as JSON Schema says",
                keyword.name
            ),
        );
    }
}
