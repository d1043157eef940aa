//! Every other keyword: documentation loads silently, as do `x-` extensions; annotations that
//! look like promises the gate does not keep, and unknown keywords, load with a warning.

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
    /// A keyword of no other family: read as an annotation, with a warning when a reader
    /// might take it for more.
    pub(super) fn annotation(&mut self, keyword: &Keyword<'_, '_, '_>) {
        let here = keyword.here.as_str();
        match keyword.name {
            known if DOCUMENTATION.contains(&known) => {}
            known if UNENFORCED.contains(&known) => {
                self.warn(
                    here,
                    format!("`{known}` is an annotation; the gate does not enforce it"),
                );
            }
            other if other.starts_with("x-") => {}
            other => self.warn(
                here,
                format!("unknown keyword `{other}` is ignored, as JSON Schema says"),
            ),
        }
    }
}
