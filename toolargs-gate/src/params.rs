//! The `Mcp-Param-*` headers of the 2026-07-28 revision (SEP-2243): a tool marks properties
//! of its `inputSchema` with `x-mcp-header: NAME`, and a client mirrors each such argument of
//! a `tools/call` into an `Mcp-Param-NAME` header, which the server checks against the body.
//! A call the gate repaired goes on with headers that mirror its repaired arguments: an enum
//! value in the wrong case (`"EU"` → `"eu"`), a boolean string (`"TRUE"` → `true`) or an
//! integral float (`5.0` → `5`) would otherwise arrive with a header that no longer matches.

use base64::Engine;
use http::{HeaderMap, HeaderValue};
use serde_json::Value;

/// An argument a tool's schema says to mirror into a header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mirror {
    /// The header's name: `mcp-param-` and the declared name, lowercase.
    header: String,
    /// The property names from the arguments' root to the argument.
    path: Vec<String>,
}

/// The arguments `schema` (an `inputSchema`) mirrors into headers: every property with a
/// string `x-mcp-header`, at any depth of nested `properties`.
pub(crate) fn declared(schema: &Value) -> Vec<Mirror> {
    let mut mirrors = Vec::new();
    walk(schema, &mut Vec::new(), &mut mirrors);
    mirrors
}

fn walk(schema: &Value, path: &mut Vec<String>, mirrors: &mut Vec<Mirror>) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (name, property) in properties {
        path.push(name.clone());
        if let Some(header) = property.get("x-mcp-header").and_then(Value::as_str) {
            mirrors.push(Mirror {
                header: format!("mcp-param-{}", header.to_ascii_lowercase()),
                path: path.clone(),
            });
        }
        walk(property, path, mirrors);
        path.pop();
    }
}

/// A value as its header carries it: a string as it is when it is visible ASCII with no
/// space at either end and does not look like the sentinel, otherwise
/// `=?base64?{its UTF-8 in Base64}?=`; an integer in decimal; a boolean as `true` or `false`.
/// `None` for `null` and for what is not a primitive: no header.
pub(crate) fn encode(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => {
            let plain = text.bytes().all(|b| (0x20..=0x7e).contains(&b))
                && text.trim_matches(' ') == text
                && !(text.starts_with("=?base64?") && text.ends_with("?="));
            Some(if plain {
                text.clone()
            } else {
                let encoded = base64::engine::general_purpose::STANDARD.encode(text);
                format!("=?base64?{encoded}?=")
            })
        }
        Value::Number(number) => Some(number.to_string()),
        Value::Bool(flag) => Some(flag.to_string()),
        Value::Null | Value::Array(_) | Value::Object(_) => None,
    }
}

/// Makes the `Mcp-Param-*` headers the client sent for `mirrors` mirror `arguments`, the
/// arguments forwarded: a header whose argument is now absent or `null` is removed. A header
/// the client did not send is not added (it speaks an earlier revision, or lacked the
/// schema), and every other header is left as it was.
pub(crate) fn mirror(headers: &mut HeaderMap, mirrors: &[Mirror], arguments: &Value) {
    for mirror in mirrors {
        if !headers.contains_key(mirror.header.as_str()) {
            continue;
        }
        let value = mirror
            .path
            .iter()
            .try_fold(arguments, |value, key| value.get(key))
            .and_then(encode)
            .and_then(|text| HeaderValue::from_str(&text).ok());
        match value {
            Some(value) => {
                // The header's name is known valid: it is one of the client's.
                if let Ok(name) = http::HeaderName::from_bytes(mirror.header.as_bytes()) {
                    headers.insert(name, value);
                }
            }
            None => {
                headers.remove(mirror.header.as_str());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn values_are_encoded_as_the_revision_says() {
        let cases = [
            (json!("us-west1"), Some("us-west1")),
            (json!(42), Some("42")),
            (json!(-7), Some("-7")),
            (json!(false), Some("false")),
            (json!(null), None),
            (json!(["a"]), None),
            (json!({"a": 1}), None),
            // Not plain: base64 of the UTF-8.
            (json!("日本"), Some("=?base64?5pel5pys?=")),
            (json!(" padded"), Some("=?base64?IHBhZGRlZA==?=")),
            (json!("tab\there"), Some("=?base64?dGFiCWhlcmU=?=")),
            // Plain ASCII that looks like the sentinel is encoded too.
            (
                json!("=?base64?abc?="),
                Some("=?base64?PT9iYXNlNjQ/YWJjPz0=?="),
            ),
        ];
        for (value, header) in cases {
            assert_eq!(encode(&value).as_deref(), header, "{value}");
        }
    }

    #[test]
    fn declarations_are_found_at_any_depth() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "query": {"type": "string"},
            "target": {"type": "object", "properties": {
                "tenant": {"type": "string", "x-mcp-header": "Tenant-Id"}}},
        }});
        let mut found: Vec<(String, Vec<String>)> = declared(&schema)
            .into_iter()
            .map(|m| (m.header, m.path))
            .collect();
        found.sort();
        assert_eq!(
            found,
            [
                ("mcp-param-region".to_owned(), vec!["region".to_owned()]),
                (
                    "mcp-param-tenant-id".to_owned(),
                    vec!["target".to_owned(), "tenant".to_owned()]
                ),
            ]
        );
    }

    #[test]
    fn the_headers_sent_follow_the_arguments_forwarded() {
        let schema = json!({"properties": {
            "region": {"type": "string", "enum": ["eu", "us"], "x-mcp-header": "Region"},
            "dry": {"type": "boolean", "x-mcp-header": "Dry"},
            "note": {"type": "string", "x-mcp-header": "Note"},
            "unsent": {"type": "string", "x-mcp-header": "Unsent"},
        }});
        let mut headers = HeaderMap::new();
        for (name, value) in [
            ("mcp-param-region", "EU"),
            ("mcp-param-dry", "TRUE"),
            ("mcp-param-note", "n"),
            ("authorization", "Bearer x"),
        ] {
            headers.insert(name, HeaderValue::from_static(value));
        }
        // The repaired arguments: the note became absent (null treated as absent).
        let forwarded = json!({"region": "eu", "dry": true, "unsent": "u"});
        mirror(&mut headers, &declared(&schema), &forwarded);
        let mut text: Vec<(&str, &str)> = headers
            .iter()
            .map(|(name, value)| (name.as_str(), value.to_str().unwrap()))
            .collect();
        text.sort_unstable();
        assert_eq!(
            text,
            [
                ("authorization", "Bearer x"),
                ("mcp-param-dry", "true"),
                ("mcp-param-region", "eu"),
            ]
        );
    }
}
