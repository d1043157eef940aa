//! A server's tools listed at its Streamable HTTP endpoint, as a client lists them, for
//! `toolargs pin`: `initialize` (the session the server opens kept), then
//! `notifications/initialized`, then `tools/list`, every page, each answer read from JSON or
//! from the event stream that carries it; the session is ended after.

use std::io;
use std::time::Duration;

use bytes::Bytes;
use http::header::{HeaderName, HeaderValue, ACCEPT, CONTENT_TYPE};
use http::{Method, Request, Response, Uri};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use serde_json::{json, Value};

use super::{is_type, read_at_most, upstream};
use crate::listing::MAX_PAGES;
use crate::{sse, MAX_LINE_BYTES};

/// How long the server may take to answer one request, its event stream included.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

/// How long ending the session may take: the tools are listed by then.
const END_TIMEOUT: Duration = Duration::from_secs(5);

/// The revision the listing asks for; the server's answer to `initialize` says which one the
/// requests after it name.
const PROTOCOL_VERSION: &str = "2025-11-25";

/// The most bytes of an error answer shown.
const SHOWN_ERROR: usize = 500;

/// Lists the tools of the MCP server at the Streamable HTTP endpoint `url` (`http://`, or
/// `https://` with the `https` feature), as a client does: `initialize`, with the
/// `Mcp-Session-Id` the server gives kept for the requests after it,
/// `notifications/initialized`, and `tools/list` for every page (by `nextCursor`, at most
/// 1 000); each answer may be JSON or an event stream. The session is ended (`DELETE`) after.
/// The tools are the definitions as listed, in order.
///
/// An error says what failed: a server that cannot be reached, an HTTP status, a JSON-RPC
/// error, an answer that is not a tool list, no answer within 60 seconds. It blocks on a
/// runtime of its own: call it from a thread, not from within an async runtime.
pub fn list_upstream_tools(url: &str) -> io::Result<Vec<Value>> {
    let (uri, _) = upstream::uri(url)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()?;
    runtime.block_on(async move {
        let mut session = Session {
            client: upstream::client(upstream::connector()?, 1),
            uri,
            id: None,
            version: None,
        };
        let listed = session.list().await;
        session.end().await;
        listed
    })
}

/// One session with the server.
struct Session {
    client: upstream::Client,
    uri: Uri,
    /// The `Mcp-Session-Id` the server gave, if it gave one.
    id: Option<HeaderValue>,
    /// The revision the server answered `initialize` with.
    version: Option<HeaderValue>,
}

fn failed(why: String) -> io::Error {
    io::Error::other(why)
}

impl Session {
    /// Initializes the session and lists every page of the tools.
    async fn list(&mut self) -> io::Result<Vec<Value>> {
        let initialized = self
            .request(
                0,
                "initialize",
                json!({
                    "protocolVersion": PROTOCOL_VERSION,
                    "capabilities": {},
                    "clientInfo": {"name": "toolargs-pin", "version": env!("CARGO_PKG_VERSION")},
                }),
            )
            .await?;
        self.version = initialized
            .get("protocolVersion")
            .and_then(Value::as_str)
            .and_then(|version| HeaderValue::from_str(version).ok());
        self.notify("notifications/initialized").await?;
        let mut tools = Vec::new();
        let mut cursor: Option<Value> = None;
        for page in 1..=MAX_PAGES {
            let params = cursor.take().map_or(json!({}), |c| json!({ "cursor": c }));
            let result = self.request(page, "tools/list", params).await?;
            let Some(listed) = result.get("tools").and_then(Value::as_array) else {
                return Err(failed(
                    "the server's tools/list result holds no `tools` array".to_owned(),
                ));
            };
            tools.extend(listed.iter().cloned());
            match result.get("nextCursor") {
                Some(next) if !next.is_null() => cursor = Some(next.clone()),
                _ => return Ok(tools),
            }
        }
        Err(failed(format!(
            "the server's tool list runs past {MAX_PAGES} pages"
        )))
    }

    /// A POST of `message` with the session's headers.
    fn post(&self, message: &Value) -> Request<Full<Bytes>> {
        let mut post = self.request_to(Method::POST, Bytes::from(message.to_string()));
        let headers = post.headers_mut();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        headers.insert(
            ACCEPT,
            HeaderValue::from_static("application/json, text/event-stream"),
        );
        post
    }

    /// A request to the endpoint with the session's id and revision.
    fn request_to(&self, method: Method, body: Bytes) -> Request<Full<Bytes>> {
        let mut request = Request::new(Full::new(body));
        *request.method_mut() = method;
        *request.uri_mut() = self.uri.clone();
        let headers = request.headers_mut();
        if let Some(id) = &self.id {
            headers.insert(HeaderName::from_static("mcp-session-id"), id.clone());
        }
        if let Some(version) = &self.version {
            headers.insert(
                HeaderName::from_static("mcp-protocol-version"),
                version.clone(),
            );
        }
        request
    }

    /// Sends `request`; an answer whose status is not a success is an error that shows its
    /// beginning.
    async fn send(
        &self,
        request: Request<Full<Bytes>>,
        what: &str,
    ) -> io::Result<Response<Incoming>> {
        let answer =
            self.client.request(request).await.map_err(|e| {
                failed(format!("the server at {}: {}", self.uri, upstream::why(&e)))
            })?;
        if answer.status().is_success() {
            return Ok(answer);
        }
        let status = answer.status();
        let body = read_at_most(answer.into_body(), MAX_LINE_BYTES)
            .await
            .ok()
            .flatten()
            .unwrap_or_default();
        let text = String::from_utf8_lossy(&body[..body.len().min(SHOWN_ERROR)]).into_owned();
        Err(failed(format!(
            "the server answered {what} with HTTP {status}{}{}",
            if text.trim().is_empty() { "" } else { ": " },
            text.trim()
        )))
    }

    /// Sends the notification `method`.
    async fn notify(&self, method: &str) -> io::Result<()> {
        let post = self.post(&json!({"jsonrpc": "2.0", "method": method}));
        let sent = tokio::time::timeout(ANSWER_TIMEOUT, self.send(post, method)).await;
        match sent {
            Ok(answer) => answer.map(drop),
            Err(_) => Err(self.late(method)),
        }
    }

    /// Sends the request `method` with `params`, numbered `id`: the `result` of its answer.
    async fn request(&mut self, id: usize, method: &str, params: Value) -> io::Result<Value> {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let answer = tokio::time::timeout(ANSWER_TIMEOUT, self.exchange(&message, id, method))
            .await
            .map_err(|_| self.late(method))??;
        if let Some(error) = answer.get("error") {
            return Err(failed(format!(
                "the server answered {method} with an error: {error}"
            )));
        }
        answer
            .get("result")
            .cloned()
            .ok_or_else(|| failed(format!("the server's answer to {method} holds no result")))
    }

    fn late(&self, method: &str) -> io::Error {
        io::Error::new(
            io::ErrorKind::TimedOut,
            format!(
                "the server did not answer {method} within {} s",
                ANSWER_TIMEOUT.as_secs()
            ),
        )
    }

    /// Posts `message` and reads its answer, the response numbered `id`, from JSON or from
    /// the event stream that carries it (past the other messages on it).
    async fn exchange(&mut self, message: &Value, id: usize, method: &str) -> io::Result<Value> {
        let answer = self.send(self.post(message), method).await?;
        if let Some(session) = answer.headers().get("mcp-session-id") {
            self.id = Some(session.clone());
        }
        let events = answer
            .headers()
            .get(CONTENT_TYPE)
            .is_some_and(|value| is_type(value, "text/event-stream"));
        let is_answer = |message: &Value| {
            message.get("id") == Some(&json!(id)) && message.get("method").is_none()
        };
        let mut body = answer.into_body();
        if !events {
            let body = read_at_most(body, MAX_LINE_BYTES)
                .await
                .map_err(|e| failed(format!("the server's answer to {method}: {e}")))?
                .ok_or_else(|| {
                    failed(format!(
                        "the server's answer to {method} is longer than {MAX_LINE_BYTES} bytes"
                    ))
                })?;
            let answer: Value = serde_json::from_slice(&body)
                .map_err(|e| failed(format!("the server's answer to {method} is not JSON: {e}")))?;
            return if is_answer(&answer) {
                Ok(answer)
            } else {
                Err(failed(format!(
                    "the server's answer to {method} is not its response"
                )))
            };
        }
        let mut reader = sse::Reader::default();
        let too_long = |_| failed(format!("an event is longer than {MAX_LINE_BYTES} bytes"));
        loop {
            let frame = body.frame().await;
            let ended = frame.is_none();
            let events = match frame {
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => reader.feed(&data).map_err(too_long)?,
                    // Trailers.
                    Err(_) => continue,
                },
                Some(Err(e)) => {
                    return Err(failed(format!(
                        "the server's event stream for {method}: {e}"
                    )))
                }
                // An event not ended by a blank line when the stream ends is taken as ended.
                None => reader.feed(b"\n\n").map_err(too_long)?,
            };
            let found = events
                .into_iter()
                .filter_map(|event| event.data)
                .filter_map(|data| serde_json::from_str::<Value>(&data).ok())
                .find(is_answer);
            if let Some(answer) = found {
                return Ok(answer);
            }
            if ended {
                return Err(failed(format!(
                    "the server's event stream ended without an answer to {method}"
                )));
            }
        }
    }

    /// Ends the session the server gave, if any; what it answers does not matter.
    async fn end(&self) {
        if self.id.is_none() {
            return;
        }
        let delete = self.request_to(Method::DELETE, Bytes::new());
        let _ = tokio::time::timeout(END_TIMEOUT, self.client.request(delete)).await;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use serde_json::{json, Value};

    use super::list_upstream_tools;

    /// One request as the server got it: its method, the session and revision it named,
    /// and the JSON-RPC method of its body.
    type Seen = (String, Option<String>, Option<String>, Option<String>);

    /// A server at `/mcp` on a free port answering each message with what `answer` makes of
    /// it (a status, a content type and a body), and what it saw, once `stop` is sent.
    fn server(
        answer: impl Fn(&Value) -> (u16, &'static str, String) + Send + 'static,
    ) -> (String, mpsc::Receiver<Seen>) {
        let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
        let port = server.server_addr().to_ip().unwrap().port();
        let (seen, saw) = mpsc::channel();
        std::thread::spawn(move || {
            for mut request in server.incoming_requests() {
                let mut body = String::new();
                let _ = request.as_reader().read_to_string(&mut body);
                let header = |name: &'static str| {
                    request
                        .headers()
                        .iter()
                        .find(|h| h.field.equiv(name))
                        .map(|h| h.value.as_str().to_owned())
                };
                let message: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                let _ = seen.send((
                    request.method().to_string(),
                    header("mcp-session-id"),
                    header("mcp-protocol-version"),
                    message["method"].as_str().map(str::to_owned),
                ));
                let (status, content_type, text) = answer(&message);
                let mut response = tiny_http::Response::from_string(text)
                    .with_status_code(status)
                    .with_header(
                        format!("Content-Type: {content_type}")
                            .parse::<tiny_http::Header>()
                            .unwrap(),
                    );
                if message["method"] == json!("initialize") {
                    response
                        .add_header("Mcp-Session-Id: s-1".parse::<tiny_http::Header>().unwrap());
                }
                let _ = request.respond(response);
            }
        });
        (format!("http://127.0.0.1:{port}/mcp"), saw)
    }

    fn tool(name: &str) -> Value {
        json!({"name": name, "inputSchema": {"type": "object"}})
    }

    #[test]
    fn every_page_is_listed_in_the_session_from_json_or_an_event_stream() {
        let (url, saw) = server(|message| {
            let id = message["id"].clone();
            let answer = |result: Value| json!({"jsonrpc": "2.0", "id": id, "result": result});
            match message["method"].as_str() {
                Some("initialize") => {
                    // A notification first, on the stream, then the answer.
                    let progress =
                        json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {}});
                    let result =
                        answer(json!({"protocolVersion": "2025-06-18", "capabilities": {}}));
                    let stream =
                        format!("event: message\ndata: {progress}\n\nid: 1\ndata: {result}\n\n");
                    (200, "text/event-stream", stream)
                }
                Some("notifications/initialized") => (202, "application/json", String::new()),
                Some("tools/list") if message["params"]["cursor"] == json!("p2") => {
                    let result = answer(json!({"tools": [tool("b")]}));
                    (
                        200,
                        "text/event-stream; charset=utf-8",
                        format!("data: {result}\r\n\r\n"),
                    )
                }
                Some("tools/list") => {
                    let result = answer(json!({"tools": [tool("a")], "nextCursor": "p2"}));
                    (200, "application/json", result.to_string())
                }
                _ => (200, "application/json", String::new()),
            }
        });
        let tools = list_upstream_tools(&url).unwrap();
        assert_eq!(tools, [tool("a"), tool("b")]);
        let seen: Vec<Seen> = saw.try_iter().collect();
        let some = |s: &str| Some(s.to_owned());
        assert_eq!(
            seen,
            [
                ("POST".into(), None, None, some("initialize")),
                (
                    "POST".into(),
                    some("s-1"),
                    some("2025-06-18"),
                    some("notifications/initialized")
                ),
                (
                    "POST".into(),
                    some("s-1"),
                    some("2025-06-18"),
                    some("tools/list")
                ),
                (
                    "POST".into(),
                    some("s-1"),
                    some("2025-06-18"),
                    some("tools/list")
                ),
                ("DELETE".into(), some("s-1"), some("2025-06-18"), None),
            ]
        );
    }

    #[test]
    fn what_fails_is_said() {
        let (url, _) = server(|message| {
            let id = message["id"].clone();
            match message["method"].as_str() {
                Some("initialize") => (200, "application/json", json!({"jsonrpc": "2.0", "id": id, "result": {}}).to_string()),
                Some("tools/list") => (
                    200,
                    "application/json",
                    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "no tools"}}).to_string(),
                ),
                _ => (202, "application/json", String::new()),
            }
        });
        let error = list_upstream_tools(&url).unwrap_err().to_string();
        assert!(
            error.contains("answered tools/list with an error") && error.contains("no tools"),
            "{error}"
        );
        let (url, _) = server(|_| (401, "text/plain", "who are you".to_owned()));
        let error = list_upstream_tools(&url).unwrap_err().to_string();
        assert_eq!(
            error,
            "the server answered initialize with HTTP 401 Unauthorized: who are you"
        );
        let (url, _) = server(|_| {
            let other = json!({"jsonrpc": "2.0", "id": 99, "result": {}});
            (200, "text/event-stream", format!("data: {other}\n\n"))
        });
        let error = list_upstream_tools(&url).unwrap_err().to_string();
        assert!(
            error.contains("ended without an answer to initialize"),
            "{error}"
        );
        let error = list_upstream_tools("ftp://example.com/mcp")
            .unwrap_err()
            .to_string();
        assert!(error.contains("is not http"), "{error}");
    }
}
