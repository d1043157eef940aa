//! The client of the upstream endpoint: a pool of kept-alive HTTP/1.1 connections (hyper-util's
//! client), `TCP_NODELAY`, and TLS through rustls for `https://` URLs (the `https` feature).

use std::io;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioTimer};

/// How long connecting to the upstream may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a connection to the upstream is kept unused before it is closed.
const IDLE_TIMEOUT: Duration = Duration::from_secs(90);

/// The upstream's URL read, and its origin (`scheme://authority`): an absolute `http://`
/// URL, or `https://` with the `https` feature.
pub(super) fn uri(upstream: &str) -> io::Result<(http::Uri, String)> {
    let invalid = |why: String| io::Error::new(io::ErrorKind::InvalidInput, why);
    let uri: http::Uri = upstream
        .parse()
        .map_err(|e| invalid(format!("the upstream URL `{upstream}`: {e}")))?;
    let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
        return Err(invalid(format!(
            "the upstream URL `{upstream}` is not absolute (http://host:port/path)"
        )));
    };
    match scheme {
        "http" => {}
        "https" if cfg!(feature = "https") => {}
        "https" => {
            return Err(invalid(format!(
                "the upstream URL `{upstream}` is https, and this build has no TLS (the `https` feature)"
            )))
        }
        _ => return Err(invalid(format!("the upstream URL `{upstream}` is not http"))),
    }
    let origin = format!("{scheme}://{authority}");
    Ok((uri, origin))
}

/// How the client connects: TCP, and TLS over it for `https://`.
#[cfg(feature = "https")]
pub(super) type Connector = hyper_rustls::HttpsConnector<HttpConnector>;
/// How the client connects: TCP.
#[cfg(not(feature = "https"))]
pub(super) type Connector = HttpConnector;

/// The upstream's client.
pub(super) type Client = hyper_util::client::legacy::Client<Connector, Full<Bytes>>;

/// The connector; with the `https` feature, rustls with ring and the webpki roots, whatever
/// provider the process installed.
pub(super) fn connector() -> io::Result<Connector> {
    let mut tcp = HttpConnector::new();
    // Requests are small and written whole: sent at once, not held for an acknowledgement.
    tcp.set_nodelay(true);
    tcp.set_connect_timeout(Some(CONNECT_TIMEOUT));
    #[cfg(feature = "https")]
    {
        tcp.enforce_http(false);
        let tls = hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_webpki_roots(rustls::crypto::ring::default_provider())
            .map_err(io::Error::other)?
            .https_or_http()
            .enable_http1()
            .wrap_connector(tcp);
        Ok(tls)
    }
    #[cfg(not(feature = "https"))]
    Ok(tcp)
}

/// A client that keeps a connection for every request the gate handles at once, so that
/// concurrent clients do not open a connection to the upstream per call.
pub(super) fn client(connector: Connector, max_requests: usize) -> Client {
    hyper_util::client::legacy::Client::builder(TokioExecutor::new())
        .pool_max_idle_per_host(max_requests)
        .pool_idle_timeout(IDLE_TIMEOUT)
        .pool_timer(TokioTimer::new())
        .build(connector)
}

/// Why a request to the upstream failed: the causes under the client's own summary
/// ("client error (Connect)"), joined.
pub(super) fn why(error: &hyper_util::client::legacy::Error) -> String {
    use std::error::Error;
    let mut cause: Option<&dyn Error> = error.source();
    if cause.is_none() {
        return error.to_string();
    }
    let mut text = String::new();
    while let Some(error) = cause {
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&error.to_string());
        cause = error.source();
    }
    text
}
