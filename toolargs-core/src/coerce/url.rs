//! Absolute URLs (feature `url`), JSON Schema's `format: uri`: a scheme, then what RFC 3986
//! allows, in ASCII, judged by [`Format::check`] as a loaded schema's `format: uri` is. The `url`
//! crate follows the WHATWG standard, which also reads strings a URI cannot be (spaces,
//! padding, backslashes, non-ASCII); those are an `invalid_uri` error, so what the parser
//! accepts is what the schema accepts.
//!
//! An accepted URL is kept as the standard parses it: `https://Example.com` reads as
//! `https://example.com/`. Both name the same resource, as `2026-03-04T10:00:00+00:00` and
//! `2026-03-04T10:00:00Z` name the same instant, so this is a reading, not a repair.

use serde_json::{json, Value};
use url::Url;

use super::format::Format;
use super::{type_error, ArgType, Capabilities};
use crate::cx::Cx;
use crate::node::described;
use crate::node::Node;
use crate::path::Path;
use crate::report::Code;
use crate::spec::FieldSpec;

impl ArgType for Url {
    const HONOURS: Capabilities = Capabilities::NONE.with_scalar_to_list(true);

    fn coerce(
        node: &Node<'_>,
        _spec: &FieldSpec<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Option<Self> {
        let Node::String(s) = node else {
            type_error(cx, path, "a URL string", node);
            return None;
        };
        // The format check refuses what RFC 3986 refuses and what URL readers read two ways;
        // what is left, the URL standard reads too (the format tests prove it, both doors).
        if !Format::Uri.check(s, node, path, cx) {
            return None;
        }
        match Url::parse(s) {
            Ok(url) => Some(url),
            Err(e) => {
                cx.error_with(path, Code::InvalidUri, || {
                    described(
                        &[
                            "expected an absolute URL the URL standard reads (",
                            e.to_string().as_str(),
                            "), got ",
                        ],
                        node,
                        "",
                    )
                });
                None
            }
        }
    }

    fn canonical(&self) -> Value {
        Value::String(self.as_str().to_owned())
    }

    fn schema(_spec: &FieldSpec<'_>) -> Value {
        json!({"type": "string", "format": "uri"})
    }
}
