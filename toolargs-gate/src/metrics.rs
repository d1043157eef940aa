//! Counters of the gate's work in the Prometheus text format, and the small HTTP server that
//! serves them with a health check (`toolargs gate --metrics ADDR`).
//!
//! The names, all prefixed `toolargs_gate_`:
//!
//! | name | type | what |
//! |---|---|---|
//! | `toolargs_gate_calls_total{tool,outcome}` | counter | `tools/call` verdicts, by tool and [`Outcome`](crate::Outcome) name |
//! | `toolargs_gate_errors_total{code}` | counter | the errors of rejections and refusals, one per error, by code |
//! | `toolargs_gate_repairs_total{rule}` | counter | the repairs of repaired calls, one per repair, by rule |
//! | `toolargs_gate_held_calls_total` | counter | calls held while the gate asks the upstream for its tools (a verdict's `held`) |
//! | `toolargs_gate_unlisted_calls_total` | counter | calls refused because the upstream does not list their tool (`unknown_tool`; passed on with `Unlisted::Pass`, they count as `unchecked`) |
//! | `toolargs_gate_upstream_errors_total` | counter | requests the upstream left unanswered: the HTTP gate's `502`s, and the requests a stdio server left when it ended |
//! | `toolargs_gate_added_latency_seconds` | histogram | the time the gate spent on a call before forwarding or answering it |
//! | `toolargs_gate_sessions` | gauge | the MCP sessions the HTTP gate keeps a gate for |
//! | `toolargs_gate_meaning_decisions_total{tool,decision}` | counter | decisions on the meaning of calls to tools whose meaning is declared: a correction's (`proceed`, `proceed_and_report`, `confirm`, `reject`), and `duplicate` for a call repeating an action |
//! | `toolargs_gate_meaning_findings_total{tool,field,verdict}` | counter | what a correction's review found, one per finding, by argument path and verdict (`changed`, `equivalent`, `unverified`, ...) |
//!
//! Tool names come from the upstream, so the `tool` label takes at most
//! [`MAX_TOOL_LABELS`] distinct names; calls to the tools beyond them count under
//! `tool="_other"`. The names of tools the upstream did not list come from the client, and
//! count under `tool="_unlisted"`: invented names cannot take the labels of real tools.
//! The `field` label is an argument path with its array indices folded (`$.items[*].amount`),
//! and takes at most [`MAX_FIELD_LABELS`] distinct fields over all tools; the findings beyond
//! them count under `field="_other"`.

use std::collections::HashSet;
use std::io;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};
use serde_json::Value;

use crate::stdio::lock;
use crate::CallVerdict;

/// The most distinct values of the `tool` label; past them, calls count under
/// [`OTHER_TOOL`]. A server listing thousands of tools, or one renaming them, would
/// otherwise grow every scrape without bound.
pub const MAX_TOOL_LABELS: usize = 1000;

/// The `tool` label of the calls to the tools beyond [`MAX_TOOL_LABELS`].
pub const OTHER_TOOL: &str = "_other";

/// The most distinct (tool, field) pairs the `field` label of
/// `toolargs_gate_meaning_findings_total` takes; past them, findings count under
/// [`OTHER_TOOL`] (`_other`). Each field has a few verdicts, so the series stay a few thousand.
pub const MAX_FIELD_LABELS: usize = 500;

/// The `tool` label of the calls to tools the upstream did not list (and of messages that
/// name no tool).
pub const UNLISTED_TOOL: &str = "_unlisted";

/// The content type of [`Metrics::encode`]'s text: the Prometheus text format, version 0.0.4.
pub const CONTENT_TYPE: &str = prometheus_client::encoding::prometheus_text::CONTENT_TYPE;

/// The bounds of the latency histogram's buckets, in seconds: the gate's work on a call is
/// tens of microseconds for a small one, milliseconds for a large payload.
const LATENCY_BUCKETS: [f64; 14] = [
    0.000_01, 0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025,
    0.05, 0.1, 1.0,
];

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CallLabels {
    tool: String,
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CodeLabels {
    code: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RuleLabels {
    rule: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct DecisionLabels {
    tool: String,
    decision: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct FindingLabels {
    tool: String,
    field: String,
    verdict: String,
}

/// The gate's counters, shared by its threads (`Arc<Metrics>`) and read by a scrape of
/// `/metrics` ([`MetricsServer`]). See the [module](self) docs for the names.
///
/// ```
/// use std::sync::Arc;
/// use toolargs_gate::{Gate, Metrics, MetricsServer};
///
/// let metrics = Arc::new(Metrics::new());
/// let server = MetricsServer::start("127.0.0.1:0".parse().unwrap(), metrics.clone())?;
/// println!("scrape http://{}/metrics", server.local_addr());
///
/// // A program that drives a `Gate` itself counts each verdict.
/// let mut gate = Gate::new();
/// gate.from_client(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
/// gate.from_server(r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"search",
///     "inputSchema":{"type":"object","properties":{"limit":{"type":"integer"}}}}]}}"#);
/// let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"limit":"5"}}}"#;
/// let started = std::time::Instant::now();
/// let handled = gate.from_client(call);
/// if let Some(verdict) = &handled.verdict {
///     metrics.record_call(verdict, started.elapsed());
/// }
/// let text = metrics.encode();
/// assert!(text.contains(r#"toolargs_gate_calls_total{tool="search",outcome="repaired"} 1"#));
/// assert!(text.contains(r#"toolargs_gate_repairs_total{rule="numeric_string_to_int"} 1"#));
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Metrics {
    registry: Registry,
    calls: Family<CallLabels, Counter>,
    errors: Family<CodeLabels, Counter>,
    repairs: Family<RuleLabels, Counter>,
    decisions: Family<DecisionLabels, Counter>,
    findings: Family<FindingLabels, Counter>,
    held: Counter,
    unlisted: Counter,
    upstream_errors: Counter,
    latency: Histogram,
    sessions: Gauge,
    /// The tool names the `tool` label has taken.
    tools: Mutex<HashSet<String>>,
    /// The (tool label, field) pairs the `field` label has taken.
    fields: Mutex<HashSet<(String, String)>>,
    /// What `/healthz` says: the gate serves.
    serving: AtomicBool,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics")
            .field("serving", &self.serving())
            .finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

impl Metrics {
    /// Every counter at zero, and serving.
    pub fn new() -> Metrics {
        let calls = Family::<CallLabels, Counter>::default();
        let errors = Family::<CodeLabels, Counter>::default();
        let repairs = Family::<RuleLabels, Counter>::default();
        let decisions = Family::<DecisionLabels, Counter>::default();
        let findings = Family::<FindingLabels, Counter>::default();
        let held = Counter::default();
        let unlisted = Counter::default();
        let upstream_errors = Counter::default();
        let latency = Histogram::new(LATENCY_BUCKETS);
        let sessions = Gauge::default();
        let mut registry = Registry::default();
        // Counters are registered without `_total`: the encoder adds it.
        registry.register(
            "toolargs_gate_calls",
            "tools/call verdicts, by tool and outcome",
            calls.clone(),
        );
        registry.register(
            "toolargs_gate_errors",
            "Errors of rejected and refused calls, one per error, by code",
            errors.clone(),
        );
        registry.register(
            "toolargs_gate_repairs",
            "Repairs of repaired calls, one per repair, by rule",
            repairs.clone(),
        );
        registry.register(
            "toolargs_gate_meaning_decisions",
            "Decisions on the meaning of calls, by tool and decision (duplicate: an action repeated)",
            decisions.clone(),
        );
        registry.register(
            "toolargs_gate_meaning_findings",
            "Findings of the reviews of corrections, one per finding, by tool, field and verdict",
            findings.clone(),
        );
        registry.register(
            "toolargs_gate_held_calls",
            "Calls held while the gate asks the upstream for its tools",
            held.clone(),
        );
        registry.register(
            "toolargs_gate_unlisted_calls",
            "Calls to a tool the upstream does not list",
            unlisted.clone(),
        );
        registry.register(
            "toolargs_gate_upstream_errors",
            "Requests the upstream left unanswered (HTTP 502s, a stdio server gone)",
            upstream_errors.clone(),
        );
        registry.register_with_unit(
            "toolargs_gate_added_latency",
            "Time the gate spent on a call before forwarding or answering it",
            Unit::Seconds,
            latency.clone(),
        );
        registry.register(
            "toolargs_gate_sessions",
            "MCP sessions the HTTP gate keeps a gate for",
            sessions.clone(),
        );
        Metrics {
            registry,
            calls,
            errors,
            repairs,
            decisions,
            findings,
            held,
            unlisted,
            upstream_errors,
            latency,
            sessions,
            tools: Mutex::new(HashSet::new()),
            fields: Mutex::new(HashSet::new()),
            serving: AtomicBool::new(true),
        }
    }

    /// Counts the verdict on one `tools/call` (its outcome, error codes, repair rules and what
    /// its meaning came to) and the time the gate spent on it, `latency`.
    pub fn record_call(&self, verdict: &CallVerdict, latency: Duration) {
        if verdict.held {
            self.held();
        }
        if verdict.outcome == crate::Outcome::UnknownTool {
            self.unlisted();
        }
        let tool = if verdict.listed {
            &verdict.tool
        } else {
            UNLISTED_TOOL
        };
        self.count_call(
            tool,
            verdict.outcome.as_str(),
            &verdict.codes,
            &verdict.rules,
            latency,
        );
        if let Some(meaning) = &verdict.meaning {
            self.count_meaning(tool, meaning);
        }
    }

    /// Counts what a verdict's `meaning` came to for a call to `tool`: the decision on a
    /// correction and each of its findings, and a duplicate action.
    fn count_meaning(&self, tool: &str, meaning: &Value) {
        let tool = self.tool_label(tool);
        let name =
            |value: &Value, key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
        if let Some(correction) = meaning.get("correction") {
            if let Some(decision) = name(correction, "decision") {
                let labels = DecisionLabels {
                    tool: tool.clone(),
                    decision,
                };
                self.decisions.get_or_create(&labels).inc();
            }
            let findings = correction.get("findings").and_then(Value::as_array);
            for finding in findings.into_iter().flatten() {
                let (Some(path), Some(verdict)) = (name(finding, "path"), name(finding, "verdict"))
                else {
                    continue;
                };
                let labels = FindingLabels {
                    field: self.field_label(&tool, &path),
                    tool: tool.clone(),
                    verdict,
                };
                self.findings.get_or_create(&labels).inc();
            }
        }
        if meaning.get("duplicate_of").is_some() {
            let labels = DecisionLabels {
                tool,
                decision: "duplicate".to_owned(),
            };
            self.decisions.get_or_create(&labels).inc();
        }
    }

    /// [`Metrics::record_call`], from the verdict's parts.
    fn count_call(
        &self,
        tool: &str,
        outcome: &'static str,
        codes: &[String],
        rules: &[String],
        latency: Duration,
    ) {
        let labels = CallLabels {
            tool: self.tool_label(tool),
            outcome,
        };
        self.calls.get_or_create(&labels).inc();
        for code in codes {
            let labels = CodeLabels { code: code.clone() };
            self.errors.get_or_create(&labels).inc();
        }
        for rule in rules {
            let labels = RuleLabels { rule: rule.clone() };
            self.repairs.get_or_create(&labels).inc();
        }
        self.latency.observe(latency.as_secs_f64());
    }

    /// Counts a call held while the gate asks the upstream for its tools (a verdict whose
    /// `held` is set).
    fn held(&self) {
        self.held.inc();
    }

    /// Counts a call to a tool the upstream does not list (an `unknown_tool` verdict).
    fn unlisted(&self) {
        self.unlisted.inc();
    }

    /// Counts `requests` the upstream left unanswered (a `502`, or a server gone).
    pub fn upstream_errors(&self, requests: u64) {
        self.upstream_errors.inc_by(requests);
    }

    /// The sessions the HTTP gate keeps now.
    pub fn set_sessions(&self, sessions: usize) {
        self.sessions
            .set(i64::try_from(sessions).unwrap_or(i64::MAX));
    }

    /// Whether `/healthz` says the gate serves (`200`) or not (`503`): a stdio gate whose
    /// server ended, an HTTP gate draining.
    pub fn set_serving(&self, serving: bool) {
        self.serving.store(serving, Ordering::SeqCst);
    }

    /// Whether the gate serves (see [`Metrics::set_serving`]).
    pub fn serving(&self) -> bool {
        self.serving.load(Ordering::SeqCst)
    }

    /// Every metric, in the Prometheus text format ([`CONTENT_TYPE`]).
    pub fn encode(&self) -> String {
        let mut text = String::new();
        // Writing to a `String` does not fail.
        let _ = prometheus_client::encoding::prometheus_text::encode(&mut text, &self.registry);
        text
    }

    /// The `tool` label of `tool`: its name while there are fewer than [`MAX_TOOL_LABELS`],
    /// else [`OTHER_TOOL`] for a name not seen yet.
    fn tool_label(&self, tool: &str) -> String {
        let mut tools = lock(&self.tools);
        if tools.contains(tool) {
            return tool.to_owned();
        }
        if tools.len() >= MAX_TOOL_LABELS {
            return OTHER_TOOL.to_owned();
        }
        tools.insert(tool.to_owned());
        tool.to_owned()
    }

    /// The `field` label of `path` in the findings on `tool` (a label already): the path
    /// with its array indices folded while fewer than [`MAX_FIELD_LABELS`] fields are
    /// labelled, else [`OTHER_TOOL`] for a field not seen yet.
    fn field_label(&self, tool: &str, path: &str) -> String {
        let field = (tool.to_owned(), fold_indices(path));
        let mut fields = lock(&self.fields);
        if fields.contains(&field) {
            return field.1;
        }
        if fields.len() >= MAX_FIELD_LABELS {
            return OTHER_TOOL.to_owned();
        }
        fields.insert(field.clone());
        field.1
    }
}

/// `path` with each array index written `[*]`: `$.items[3].amount` is `$.items[*].amount`,
/// one field however long the list.
fn fold_indices(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && rest[digits..].starts_with(']') {
            out.push('*');
            rest = &rest[digits..];
        }
    }
    out.push_str(rest);
    out
}

/// An HTTP server of its own, on a thread of its own, for [`Metrics`]: `GET /metrics`, the
/// metrics in the Prometheus text format, and `GET /healthz`, `200 ok` while the gate serves
/// and `503` once it does not ([`Metrics::set_serving`]). It stops when dropped.
pub struct MetricsServer {
    server: Arc<tiny_http::Server>,
    address: SocketAddr,
}

impl std::fmt::Debug for MetricsServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MetricsServer")
            .field("address", &self.address)
            .finish_non_exhaustive()
    }
}

impl MetricsServer {
    /// Listens on `listen` (port 0 picks a free one) and serves `metrics` from a thread of
    /// its own.
    pub fn start(listen: SocketAddr, metrics: Arc<Metrics>) -> io::Result<MetricsServer> {
        let server = tiny_http::Server::http(listen).map_err(io::Error::other)?;
        let address = server
            .server_addr()
            .to_ip()
            .ok_or_else(|| io::Error::other("not listening on an IP address"))?;
        let server = Arc::new(server);
        let serving = server.clone();
        std::thread::Builder::new()
            .name("toolargs-gate-metrics".to_owned())
            .spawn(move || {
                // Ends when the server is unblocked (dropped) or listening fails.
                while let Ok(request) = serving.recv() {
                    answer(request, &metrics);
                }
            })?;
        Ok(MetricsServer { server, address })
    }

    /// The address listened on (with the port chosen, for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.address
    }
}

impl Drop for MetricsServer {
    fn drop(&mut self) {
        self.server.unblock();
    }
}

/// Answers one request to the metrics server.
fn answer(request: tiny_http::Request, metrics: &Metrics) {
    let path = request
        .url()
        .split_once('?')
        .map_or(request.url(), |(path, _)| path)
        .to_owned();
    let method = request.method().clone();
    let (status, content_type, body) = match (&method, path.as_str()) {
        (tiny_http::Method::Get | tiny_http::Method::Head, "/metrics") => {
            (200, CONTENT_TYPE, metrics.encode())
        }
        (tiny_http::Method::Get | tiny_http::Method::Head, "/healthz") if metrics.serving() => {
            (200, "text/plain; charset=utf-8", "ok\n".to_owned())
        }
        (tiny_http::Method::Get | tiny_http::Method::Head, "/healthz") => {
            (503, "text/plain; charset=utf-8", "unavailable\n".to_owned())
        }
        (_, "/metrics" | "/healthz") => (405, "text/plain; charset=utf-8", String::new()),
        _ => (404, "text/plain; charset=utf-8", String::new()),
    };
    let mut response = tiny_http::Response::from_string(body).with_status_code(status);
    if let Ok(header) = tiny_http::Header::from_bytes("Content-Type", content_type) {
        response.add_header(header);
    }
    // The scraper may have gone: nothing to do about it.
    let _ = request.respond(response);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Gate, HttpGate, Outcome};
    use serde_json::json;
    use std::io::Read;

    /// A verdict counted, as [`Metrics::record_call`] counts it.
    struct Verdict<'a>(&'a str, Outcome, &'a [&'a str], &'a [&'a str]);

    impl Metrics {
        fn count(&self, verdict: Verdict<'_>, latency: Duration) {
            let Verdict(tool, outcome, codes, rules) = verdict;
            let owned = |names: &[&str]| names.iter().map(|n| (*n).to_owned()).collect::<Vec<_>>();
            self.count_call(
                tool,
                outcome.as_str(),
                &owned(codes),
                &owned(rules),
                latency,
            );
        }
    }

    /// The value of the sample `series` (its name and labels as written) in `text`.
    fn sample(text: &str, series: &str) -> Option<f64> {
        text.lines()
            .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
            .and_then(|value| value.parse().ok())
    }

    #[test]
    fn verdicts_count_by_tool_outcome_code_and_rule() {
        let metrics = Metrics::new();
        let micros = Duration::from_micros;
        metrics.count(
            Verdict("refund", Outcome::Repaired, &[], &["string_to_integer"]),
            micros(30),
        );
        metrics.count(
            Verdict(
                "refund",
                Outcome::Rejected,
                &["unknown_field", "out_of_range"],
                &[],
            ),
            micros(40),
        );
        metrics.count(
            Verdict("refund", Outcome::Rejected, &["out_of_range"], &[]),
            micros(2_000),
        );
        metrics.count(Verdict("lookup", Outcome::Clean, &[], &[]), micros(5));
        metrics.held();
        metrics.unlisted();
        metrics.unlisted();
        metrics.upstream_errors(3);
        metrics.set_sessions(7);
        let text = metrics.encode();
        let expect = [
            (
                r#"toolargs_gate_calls_total{tool="refund",outcome="repaired"}"#,
                1.0,
            ),
            (
                r#"toolargs_gate_calls_total{tool="refund",outcome="rejected"}"#,
                2.0,
            ),
            (
                r#"toolargs_gate_calls_total{tool="lookup",outcome="clean"}"#,
                1.0,
            ),
            (r#"toolargs_gate_errors_total{code="out_of_range"}"#, 2.0),
            (r#"toolargs_gate_errors_total{code="unknown_field"}"#, 1.0),
            (
                r#"toolargs_gate_repairs_total{rule="string_to_integer"}"#,
                1.0,
            ),
            ("toolargs_gate_held_calls_total", 1.0),
            ("toolargs_gate_unlisted_calls_total", 2.0),
            ("toolargs_gate_upstream_errors_total", 3.0),
            ("toolargs_gate_sessions", 7.0),
            ("toolargs_gate_added_latency_seconds_count", 4.0),
            (
                r#"toolargs_gate_added_latency_seconds_bucket{le="1e-05"}"#,
                1.0,
            ),
            (
                r#"toolargs_gate_added_latency_seconds_bucket{le="0.001"}"#,
                3.0,
            ),
            (
                r#"toolargs_gate_added_latency_seconds_bucket{le="+Inf"}"#,
                4.0,
            ),
        ];
        for (series, value) in expect {
            assert_eq!(sample(&text, series), Some(value), "{series} in\n{text}");
        }
        assert!(text.contains("# TYPE toolargs_gate_added_latency_seconds histogram"));
    }

    #[test]
    fn tool_names_beyond_the_bound_count_as_other() {
        let metrics = Metrics::new();
        for i in 0..MAX_TOOL_LABELS + 5 {
            let name = format!("tool_{i}");
            metrics.count(Verdict(&name, Outcome::Clean, &[], &[]), Duration::ZERO);
        }
        // A name that took a label keeps it.
        metrics.count(Verdict("tool_0", Outcome::Clean, &[], &[]), Duration::ZERO);
        let text = metrics.encode();
        let series = text
            .lines()
            .filter(|l| l.starts_with("toolargs_gate_calls_total{"))
            .count();
        assert_eq!(series, MAX_TOOL_LABELS + 1);
        assert_eq!(
            sample(
                &text,
                r#"toolargs_gate_calls_total{tool="_other",outcome="clean"}"#
            ),
            Some(5.0)
        );
        assert_eq!(
            sample(
                &text,
                r#"toolargs_gate_calls_total{tool="tool_0",outcome="clean"}"#
            ),
            Some(2.0)
        );
    }

    #[test]
    fn label_values_from_the_upstream_are_escaped() {
        let metrics = Metrics::new();
        let tool = "a\"b\\c\nd";
        metrics.count(Verdict(tool, Outcome::Clean, &[], &[]), Duration::ZERO);
        let text = metrics.encode();
        assert!(
            text.contains(r#"toolargs_gate_calls_total{tool="a\"b\\c\nd",outcome="clean"} 1"#),
            "{text}"
        );
    }

    #[test]
    fn meaning_counts_decisions_and_findings_by_tool_and_field() {
        let policy = "[[tools]]\nname = \"issue_refund\"\n[tools.meaning]\n\
            amount_cents = { semantic = \"money\", currency = \"currency\", minor_units = true, critical = true }\n";
        let mut gate = Gate::new().with_policy(crate::Policy::from_toml(policy).unwrap());
        gate.from_client(r#"{"jsonrpc":"2.0","id":0,"method":"tools/list"}"#);
        gate.from_server(
            r#"{"jsonrpc":"2.0","id":0,"result":{"tools":[{"name":"issue_refund",
            "annotations":{"destructiveHint":true},"inputSchema":{"type":"object","properties":{
            "order_id":{"type":"string"},"amount_cents":{"type":"integer"},
            "currency":{"type":"string"}},"required":["order_id","amount_cents","currency"]}}]}}"#,
        );
        let metrics = Metrics::new();
        // Dollars where cents go; a correction 100 times the amount; the one meant; again.
        for (id, arguments) in [
            r#"{"order_id":"o","amount_cents":"19.99","currency":"USD"}"#,
            r#"{"order_id":"o","amount_cents":199900,"currency":"USD"}"#,
            r#"{"order_id":"o","amount_cents":1999,"currency":"USD"}"#,
            r#"{"order_id":"o","amount_cents":1999,"currency":"USD"}"#,
        ]
        .into_iter()
        .enumerate()
        {
            let call = format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"issue_refund","arguments":{arguments}}}}}"#
            );
            let verdict = gate.from_client(&call).verdict.unwrap();
            metrics.record_call(&verdict, Duration::ZERO);
        }
        let text = metrics.encode();
        let expect = [
            (
                r#"toolargs_gate_meaning_decisions_total{tool="issue_refund",decision="reject"}"#,
                1.0,
            ),
            (
                r#"toolargs_gate_meaning_decisions_total{tool="issue_refund",decision="proceed"}"#,
                1.0,
            ),
            (
                r#"toolargs_gate_meaning_decisions_total{tool="issue_refund",decision="duplicate"}"#,
                1.0,
            ),
            (
                r#"toolargs_gate_meaning_findings_total{tool="issue_refund",field="$.amount_cents",verdict="changed"}"#,
                1.0,
            ),
            (r#"toolargs_gate_errors_total{code="meaning_changed"}"#, 1.0),
        ];
        for (series, value) in expect {
            assert_eq!(sample(&text, series), Some(value), "{series} in\n{text}");
        }
        assert!(
            text.contains("# TYPE toolargs_gate_meaning_findings_total counter"),
            "{text}"
        );
    }

    #[test]
    fn fields_fold_their_indices_and_beyond_the_bound_count_as_other() {
        assert_eq!(fold_indices("$.items[12].amount"), "$.items[*].amount");
        assert_eq!(fold_indices("$.a[0][3]"), "$.a[*][*]");
        assert_eq!(fold_indices("$[\"x[\"]"), "$[\"x[\"]");
        let metrics = Metrics::new();
        let review = |path: &str| {
            json!({"correction": {"decision": "confirm",
                "findings": [{"path": path, "verdict": "unverified"}]}})
        };
        for i in 0..MAX_FIELD_LABELS + 3 {
            metrics.count_meaning("t", &review(&format!("$.f{i}")));
        }
        // A field that took a label keeps it; indices fold into one.
        metrics.count_meaning("t", &review("$.f0"));
        metrics.count_meaning("u", &review("$.list[1]"));
        metrics.count_meaning("u", &review("$.list[2]"));
        metrics.count_meaning(
            "u",
            &json!({"duplicate_of": {"label": "1", "seconds_ago": 3}}),
        );
        let text = metrics.encode();
        let series = text
            .lines()
            .filter(|l| l.starts_with("toolargs_gate_meaning_findings_total{"))
            .count();
        // The labelled fields, and `_other` of each tool.
        assert_eq!(series, MAX_FIELD_LABELS + 2);
        let finding = |tool: &str, field: &str| {
            sample(
                &text,
                &format!(
                    r#"toolargs_gate_meaning_findings_total{{tool="{tool}",field="{field}",verdict="unverified"}}"#
                ),
            )
        };
        assert_eq!(finding("t", "$.f0"), Some(2.0));
        assert_eq!(finding("t", "_other"), Some(3.0));
        // The bound was reached: the new tool's field is `_other` too.
        assert_eq!(finding("u", "_other"), Some(2.0));
        assert_eq!(
            sample(
                &text,
                r#"toolargs_gate_meaning_decisions_total{tool="t",decision="confirm"}"#
            ),
            Some(MAX_FIELD_LABELS as f64 + 4.0)
        );
        assert_eq!(
            sample(
                &text,
                r#"toolargs_gate_meaning_decisions_total{tool="u",decision="duplicate"}"#
            ),
            Some(1.0)
        );
    }

    fn get(address: SocketAddr, path: &str) -> (u16, String, String) {
        let mut answer = ureq::get(&format!("http://{address}{path}"))
            .config()
            .http_status_as_error(false)
            .build()
            .call()
            .unwrap();
        let content_type = answer
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned();
        let body = answer.body_mut().read_to_string().unwrap();
        (answer.status().as_u16(), content_type, body)
    }

    #[test]
    fn the_server_answers_metrics_and_health() {
        let metrics = Arc::new(Metrics::new());
        let server = MetricsServer::start("127.0.0.1:0".parse().unwrap(), metrics.clone()).unwrap();
        metrics.unlisted();
        let (status, content_type, body) = get(server.local_addr(), "/metrics");
        assert_eq!(status, 200);
        assert_eq!(content_type, CONTENT_TYPE);
        assert_eq!(
            sample(&body, "toolargs_gate_unlisted_calls_total"),
            Some(1.0)
        );
        assert_eq!(
            get(server.local_addr(), "/healthz"),
            (
                200,
                "text/plain; charset=utf-8".to_owned(),
                "ok\n".to_owned()
            )
        );
        metrics.set_serving(false);
        assert_eq!(get(server.local_addr(), "/healthz?probe=1").0, 503);
        assert_eq!(get(server.local_addr(), "/other").0, 404);
    }

    #[test]
    fn the_http_gate_counts_its_502s() {
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = closed.local_addr().unwrap().port();
        drop(closed);
        let metrics = Arc::new(Metrics::new());
        let gate = HttpGate::bind(
            "127.0.0.1:0".parse().unwrap(),
            &format!("http://127.0.0.1:{port}/mcp"),
            Gate::new,
            None,
        )
        .unwrap()
        .with_metrics(metrics.clone());
        let endpoint = gate.endpoint();
        std::thread::spawn(move || gate.serve());
        let post = |body: &str| {
            let mut answer = ureq::post(&endpoint)
                .config()
                .http_status_as_error(false)
                .build()
                .header("Content-Type", "application/json")
                .send(body)
                .unwrap();
            let mut text = String::new();
            answer
                .body_mut()
                .as_reader()
                .read_to_string(&mut text)
                .unwrap();
            answer.status().as_u16()
        };
        let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#;
        assert_eq!(post(initialize), 502);
        assert_eq!(post(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#), 502);
        let text = metrics.encode();
        assert_eq!(
            sample(&text, "toolargs_gate_upstream_errors_total"),
            Some(2.0)
        );
        assert_eq!(
            sample(&text, "toolargs_gate_added_latency_seconds_count"),
            Some(0.0)
        );
    }
}
