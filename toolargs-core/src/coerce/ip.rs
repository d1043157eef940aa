//! IP addresses: `std::net::Ipv4Addr` is a string of `format: ipv4` (the dotted quad, no
//! leading zeros), `std::net::Ipv6Addr` one of `format: ipv6` (RFC 4291 text, no zone). Both are
//! judged by [`Format::check`], as a loaded schema's `format` is.

use std::net::{Ipv4Addr, Ipv6Addr};

use serde_json::{json, Value};

use super::format::Format;
use super::{type_error, ArgType, Capabilities};
use crate::cx::Cx;
use crate::node::Node;
use crate::path::Path;
use crate::spec::FieldSpec;

/// Reads a string of `format` and parses it; the format check has already refused every
/// string the parser would.
fn read<T: std::str::FromStr>(
    format: Format,
    node: &Node<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
) -> Option<T> {
    let Node::String(s) = node else {
        type_error(cx, path, "an IP address string", node);
        return None;
    };
    if !format.check(s, node, path, cx) {
        return None;
    }
    s.parse().ok()
}

/// `ArgType` for an address type: read through its format, written as the standard library
/// writes it (the dotted quad; RFC 5952's form for IPv6, `2001:db8::1`), which reads back to the
/// same address.
macro_rules! address {
    ($ty:ty, $format:expr, $name:literal) => {
        impl ArgType for $ty {
            const HONOURS: Capabilities = Capabilities::NONE.with_scalar_to_list(true);

            fn coerce(
                node: &Node<'_>,
                _spec: &FieldSpec<'_>,
                path: &Path<'_>,
                cx: &mut Cx,
            ) -> Option<Self> {
                read($format, node, path, cx)
            }

            fn canonical(&self) -> Value {
                Value::String(self.to_string())
            }

            fn schema(_spec: &FieldSpec<'_>) -> Value {
                json!({"type": "string", "format": $name})
            }
        }
    };
}

address!(Ipv4Addr, Format::Ipv4, "ipv4");
address!(Ipv6Addr, Format::Ipv6, "ipv6");
