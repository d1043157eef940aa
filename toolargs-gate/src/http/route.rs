//! Where a request goes and whether what it says of itself holds: every spelling of the
//! endpoint's path is the endpoint, and the `Mcp-Method` and `Mcp-Name` headers of the
//! 2026-07-28 revision (SEP-2243), which middle boxes route and authorize on, say what the
//! body says.

use base64::Engine;
use http::HeaderMap;

use crate::message::Message;

/// Whether `path` names the same resource as `endpoint` for some server: the same after
/// percent-decoding (again and again: some servers decode twice), in any case, with `\` as
/// `/`, empty and `.` segments dropped and `..` segments resolved, and `;` parameters and a
/// trailing slash dropped.
pub(crate) fn same_path(path: &str, endpoint: &str) -> bool {
    path == endpoint || canonical(path) == canonical(endpoint)
}

/// `path` in the form [`same_path`] compares.
fn canonical(path: &str) -> Vec<String> {
    let mut text = path.to_owned();
    // Each round shortens the text, so this ends.
    loop {
        let decoded = percent_decoded(&text);
        if decoded == text {
            break;
        }
        text = decoded;
    }
    let text = text.to_lowercase().replace('\\', "/");
    let mut segments: Vec<String> = Vec::new();
    for segment in text.split('/') {
        let segment = segment.split(';').next().unwrap_or_default();
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            _ => segments.push(segment.to_owned()),
        }
    }
    segments
}

/// `text` with each `%XX` decoded once (bytes that are not UTF-8 replaced).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let hex = bytes
            .get(at + 1..at + 3)
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match (bytes[at], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                at += 3;
            }
            (byte, _) => {
                out.push(byte);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Why the `Mcp-Method` or `Mcp-Name` header of a request disagrees with its body `text` (a
/// message), if it does: sent twice, or naming another method or another tool, prompt or
/// resource than the body. A header not sent is not required: clients of earlier
/// revisions send none.
pub(crate) fn headers_disagree(headers: &HeaderMap, text: &str) -> Option<String> {
    let method_headers: Vec<_> = headers.get_all("mcp-method").iter().collect();
    let name_headers: Vec<_> = headers.get_all("mcp-name").iter().collect();
    if method_headers.is_empty() && name_headers.is_empty() {
        return None;
    }
    if method_headers.len() > 1 || name_headers.len() > 1 {
        return Some("the Mcp-Method or Mcp-Name header is sent more than once".to_owned());
    }
    let message = Message::read(text).ok()?;
    let method = message.method.as_deref();
    if let Some(header) = method_headers.first() {
        if header.to_str().ok() != method {
            return Some(format!(
                "the Mcp-Method header says {header:?}, and the body's method is {method:?}"
            ));
        }
    }
    let header = name_headers.first()?;
    let params = message.params();
    let named = match method {
        Some("tools/call" | "prompts/get") => params.and_then(|p| p.name),
        Some("resources/read" | "resources/subscribe" | "resources/unsubscribe") => {
            params.and_then(|p| p.uri)
        }
        _ => return None,
    };
    let said = header.to_str().ok().and_then(decoded);
    (said != named)
        .then(|| format!("the Mcp-Name header says {header:?}, and the body names {named:?}"))
}

/// A header's value as the revision encodes it: as it is, or the UTF-8 in Base64 between
/// `=?base64?` and `?=`.
fn decoded(value: &str) -> Option<String> {
    match value
        .strip_prefix("=?base64?")
        .and_then(|rest| rest.strip_suffix("?="))
    {
        Some(encoded) => {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(encoded)
                .ok()?;
            String::from_utf8(bytes).ok()
        }
        None => Some(value.to_owned()),
    }
}

/// Spellings of `/mcp` that servers read as it, for the tests.
#[cfg(test)]
pub(crate) const ENDPOINT_SPELLINGS: &[&str] = &[
    "/mcp",
    "/%6Dcp",
    "/%6dcp",
    "/%256Dcp",
    "//mcp",
    "/./mcp",
    "/x/../mcp",
    "/mcp/",
    "/MCP",
];

#[cfg(test)]
mod tests {
    use http::HeaderValue;

    use super::*;

    #[test]
    fn every_spelling_of_the_endpoint_is_the_endpoint() {
        for path in ENDPOINT_SPELLINGS
            .iter()
            .chain(&["/%2Fmcp", "/mcp;v=1", "\\mcp", "/mcp/."])
        {
            assert!(same_path(path, "/mcp"), "{path}");
        }
        for path in [
            "/mcpx",
            "/mc",
            "/",
            "/mcp/x",
            "/x/mcp",
            "/.well-known/oauth",
        ] {
            assert!(!same_path(path, "/mcp"), "{path}");
        }
        assert!(same_path("/api/v1/mcp", "/api/v1/mcp"));
        assert!(same_path("/api/v1//%4dcp", "/api/v1/mcp"));
        assert!(!same_path("/api/mcp", "/api/v1/mcp"));
    }

    #[test]
    fn the_standard_headers_must_say_what_the_body_says() {
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"refund"}}"#;
        fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
            let mut map = HeaderMap::new();
            for (name, value) in pairs {
                map.append(*name, HeaderValue::from_str(value).unwrap());
            }
            map
        }
        let agree = [
            vec![],
            vec![("mcp-method", "tools/call")],
            vec![("mcp-method", "tools/call"), ("mcp-name", "refund")],
            vec![("mcp-name", "=?base64?cmVmdW5k?=")],
        ];
        for pairs in agree {
            assert_eq!(headers_disagree(&headers(&pairs), call), None, "{pairs:?}");
        }
        let disagree = [
            vec![("mcp-method", "tools/list")],
            vec![("mcp-method", "tools/call"), ("mcp-method", "tools/call")],
            vec![("mcp-name", "quote")],
            vec![("mcp-name", "refund"), ("mcp-name", "refund")],
            vec![("mcp-name", "=?base64?cXVvdGU=?=")],
        ];
        for pairs in disagree {
            assert!(
                headers_disagree(&headers(&pairs), call).is_some(),
                "{pairs:?}"
            );
        }
        // A resource is named by its URI.
        let read =
            r#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"file:///a"}}"#;
        assert_eq!(
            headers_disagree(&headers(&[("mcp-name", "file:///a")]), read),
            None
        );
        assert!(headers_disagree(&headers(&[("mcp-name", "file:///b")]), read).is_some());
    }
}
