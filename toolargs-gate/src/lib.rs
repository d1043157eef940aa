//! The toolargs policy in front of any MCP server: the message handling behind
//! `toolargs gate`.
//!
//! A [`Gate`] sits between an MCP client and a server and sees every JSON-RPC message, one per
//! line, as the stdio transport carries them. It learns each tool from the server's
//! `tools/list` results (every page; a first page replaces what an earlier listing said),
//! loading its `inputSchema` leniently with the dynamic spec and its effect from its
//! annotations (none means destructive, as MCP says). Then it judges every `tools/call`:
//!
//! - clean: forwarded unchanged, byte for byte;
//! - repaired: forwarded with the repaired arguments put in place of the ones sent (the rest of
//!   the message is kept as written), every repair recorded;
//! - unknown keys: stripped for read-only tools, rejected otherwise;
//! - rejected: never forwarded; the client gets a tool result with `isError: true`, the
//!   model-facing `{"ok":false,"errors":[...]}` as `structuredContent` and as text, as MCP says
//!   input errors are reported (as text only for a tool that declares an `outputSchema`, which
//!   any `structuredContent` of its results must match);
//! - a tool whose definition did not load: passed on (the server owns that answer), or
//!   refused with [`Unchecked::Block`].
//!
//! No call passes unjudged. A call the gate cannot judge yet (the client never listed the
//! tools, as a client that cached the list or reconnected does; the tool is not among those
//! listed; the server sent `notifications/tools/list_changed` since) waits while the gate
//! asks the server for its tools itself, every page, with a `tools/list` of its own whose
//! answer never reaches the client; then it is judged as usual ([`Gate::take_released`]
//! gives its verdict). A tool the server does not list even then is refused (`unknown_tool`),
//! or passed on unchecked with [`Unlisted::Pass`]; a listing the server fails is a refusal
//! (`tools_unavailable`).
//!
//! A [`Policy`] ([`Gate::with_policy`]) says what the server does not: per tool, or per glob
//! of names, the effect (over the annotations), the unknown-key policy (over the effect),
//! the fields never repaired (`strict`), and whether a call needs the user's confirmation.
//! A call of the 2026-07-28 revision to such a tool that passed the gate is answered
//! `input_required`, with an elicitation for the user and a `requestState` of the gate's;
//! the client's retry with the user's acceptance goes on as gated. In earlier revisions the
//! call is held while the gate asks the user through an MCP elicitation
//! (`elicitation/create`, with an id of the gate's own, whose answer never reaches the
//! server). Accepted, the call goes on as gated; declined, cancelled or failed, the client
//! gets an `isError` result with `not_confirmed`. A client that did not declare the
//! elicitation capability gets `confirmation_unavailable` instead. A held call the client
//! cancels (`notifications/cancelled`) is never made, whatever the answer.
//!
//! The arguments are judged as the client wrote them: a key sent twice is `duplicate_key`,
//! and digits beyond a double are not rounded. Everything else passes through unchanged, ids
//! preserved. A line that is not JSON gets a `-32700` error and the connection goes on; when
//! the server ends, every request it left unanswered gets an error ([`Gate::server_closed`]).
//!
//! Two transports carry the messages: [`run_stdio`], in front of a server the gate starts,
//! and [`HttpGate`], a Streamable HTTP endpoint in front of a server's endpoint.
//!
//! With the `telemetry` feature each `tools/call` has the toolbox's `tracing` span
//! (`toolargs_core::telemetry`), `execute_tool {tool}`, from its arrival to its answer: the
//! verdict as `toolargs.outcome`, `toolargs.codes` and `toolargs.rules`, and `error.type` for
//! a call the gate did not forward (`invalid_arguments` for a rejection, or the outcome) or
//! whose answer was a failure (`tool_error`, `server_error`, `server_gone`, `cancelled`).
//!
//! ```
//! use toolargs_gate::{Gate, Route};
//!
//! let mut gate = Gate::new();
//! // The client lists the tools; the server answers.
//! let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
//! assert_eq!(gate.from_client(list).routes, [Route::ToServer(list.to_owned())]);
//! gate.from_server(r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"refund",
//!     "inputSchema":{"type":"object","properties":{"amount_cents":{"type":"integer","maximum":50000}},
//!     "required":["amount_cents"]}}]}}"#);
//!
//! // A repairable call goes on repaired; a rejected one comes back to the client.
//! let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"refund","arguments":{"amount_cents":"1999"}}}"#;
//! let judged = gate.from_client(call);
//! assert_eq!(judged.routes, [Route::ToServer(call.replace(r#""1999""#, "1999"))]);
//! let call = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"refund","arguments":{"amount_cents":90000}}}"#;
//! let Route::ToClient(reply) = &gate.from_client(call).routes[0] else { panic!() };
//! assert!(reply.contains(r#""isError":true"#) && reply.contains("out_of_range"));
//! ```

mod http;
mod listing;
mod log;
mod message;
pub mod metrics;
mod params;
mod policy;
mod reply;
mod rounds;
mod signals;
mod sse;
mod stdio;
mod tools;
mod trace;

#[cfg(test)]
mod tests;

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use serde_json::Value;
use toolargs_core::judge::Judge;
use toolargs_core::options::ParseOptions;

pub use http::{DrainHandle, HttpGate, HttpOptions, DRAIN_TIMEOUT, MAX_REQUESTS, MAX_SESSIONS};
use listing::{Listing, Listings, Waiting};
pub use log::{line_hash, verify_chain, ChainBreak, LogOptions, VerdictLog};
use message::{Message, Params};
pub use metrics::{Metrics, MetricsServer};
pub use policy::{Policy, PolicyError, StrictFieldMissing, ToolRule};
pub use stdio::{run_stdio, run_stdio_with_metrics, MAX_LINE_BYTES};
pub use tools::{Tools, UncheckedTool};
use trace::{Answer, CallSpan};

/// Where a message goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// To the server, as this line.
    ToServer(String),
    /// Back to the client, as this line.
    ToClient(String),
}

/// What the gate did with a `tools/call`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// Forwarded unchanged.
    Clean,
    /// Forwarded with repaired arguments.
    Repaired,
    /// Answered with the errors; not forwarded.
    Rejected,
    /// Forwarded unchecked: a tool the server did not list, or whose definition did not load.
    Unchecked,
    /// Refused unchecked ([`Unchecked::Block`]).
    Blocked,
    /// Refused: the server does not list the tool, even when the gate asked it
    /// ([`Unlisted::Refuse`]).
    UnknownTool,
    /// Refused: the gate asked the server for its tools to judge the call, and did not get
    /// them (the server answered an error, or its answer was not a tool list).
    ToolsUnavailable,
    /// Needed the user's confirmation, and did not get it (declined, cancelled, or the
    /// client's answer was an error); not forwarded.
    NotConfirmed,
    /// Needed the user's confirmation, and the client cannot ask for it; not forwarded.
    ConfirmationUnavailable,
}

impl Outcome {
    /// The outcome's stable name, as the verdict log writes it.
    pub fn as_str(&self) -> &'static str {
        match self {
            Outcome::Clean => "clean",
            Outcome::Repaired => "repaired",
            Outcome::Rejected => "rejected",
            Outcome::Unchecked => "unchecked",
            Outcome::Blocked => "blocked",
            Outcome::UnknownTool => "unknown_tool",
            Outcome::ToolsUnavailable => "tools_unavailable",
            Outcome::NotConfirmed => "not_confirmed",
            Outcome::ConfirmationUnavailable => "confirmation_unavailable",
        }
    }
}

/// The verdict on one `tools/call`, for the log.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallVerdict {
    /// The tool called.
    pub tool: String,
    /// What the gate did.
    pub outcome: Outcome,
    /// The error codes of a rejection or a refusal.
    pub codes: Vec<String>,
    /// The rules of the repairs.
    pub rules: Vec<String>,
    /// The paths of the repairs or errors.
    pub paths: Vec<String>,
    /// The arguments as the client sent them (the raw JSON text).
    pub arguments: String,
    /// Whether the call was forwarded after the user confirmed it.
    pub confirmed: bool,
    /// Whether the call waited while the gate asked the server for its tools.
    pub held: bool,
}

/// What [`Gate::from_client`] made of one line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Handled {
    /// Where the line (or the answer to it) goes.
    pub routes: Vec<Route>,
    /// The verdict, when the line was a `tools/call`, or the client's answer to the
    /// confirmation of one (a call that waits for it has its verdict then).
    pub verdict: Option<CallVerdict>,
    /// The route to the server is the gate's own `tools/list` request, for a call that waits
    /// for its answer (a transport that matches answers itself sends it and hands the answer
    /// to [`Gate::from_server`]).
    pub(crate) listing: bool,
}

/// The verdict on a call that waited while the gate asked the server for its tools, decided
/// when their list came in ([`Gate::take_released`]).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Released {
    /// The verdict.
    pub verdict: CallVerdict,
    /// When the call arrived: its latency counts the wait.
    pub arrived: Instant,
}

/// What to do with a call to a tool whose definition did not load.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Unchecked {
    /// Pass it on: the server owns the answer.
    #[default]
    Pass,
    /// Refuse it with an error result.
    Block,
}

/// What to do with a call to a tool the server does not list, even when the gate asked it
/// for its tools on the call's arrival.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Unlisted {
    /// Refuse it with an error result (`unknown_tool`): what the gate has not judged does not
    /// pass.
    #[default]
    Refuse,
    /// Pass it on unchecked: for servers whose tools are not all in their listing.
    Pass,
}

/// A call waiting for the user's confirmation.
#[derive(Debug)]
struct HeldCall {
    /// The call's id, as the client wrote it.
    id: String,
    /// The line to forward once confirmed (the call as gated).
    line: String,
    verdict: CallVerdict,
    /// The client cancelled the call while it waited.
    cancelled: bool,
    /// The call's results carry `resultType` (its revision requires it).
    tagged: bool,
}

/// The prefix of the ids of the gate's own requests to the client: a string no server's
/// numbered ids can be, and one no server has a reason to use. Ids are matched as written, so
/// it holds nothing a client could write escaped.
const CONFIRMATION_ID_PREFIX: &str = "toolargs-gate-confirm-";

/// The key of the gate's input request in the `input_required` results of the 2026-07-28
/// revision, and of the user's answer in the retried call.
const CONFIRMATION_KEY: &str = "toolargs-gate/confirm";

/// The message handling of the gate (see the [crate](self) docs).
#[derive(Debug, Default)]
pub struct Gate {
    tools: Tools,
    options: ParseOptions,
    unchecked: Unchecked,
    unlisted: Unlisted,
    policy: Policy,
    /// The gate's own listings in flight, and the calls they hold.
    listings: Listings,
    /// The verdicts on held calls decided since [`Gate::take_released`] was last called.
    released: Vec<Released>,
    /// The server said its tools changed since they were last listed: the next call waits
    /// for a listing.
    stale: bool,
    /// Whether the client declared the elicitation capability in its `initialize` request.
    client_elicits: bool,
    /// Calls waiting for the user's confirmation, by the id (as JSON text) of the gate's
    /// request that asks for it.
    held: HashMap<String, HeldCall>,
    /// The spans of the calls forwarded or held, by the call's id (as JSON text), until their
    /// answer.
    spans: HashMap<String, CallSpan>,
    /// The span of the call just forwarded on a transport that matches answers itself, for it
    /// to take ([`Gate::take_exchange_span`]).
    exchange_span: Option<CallSpan>,
    /// How many confirmations the gate asked for: the next one's id.
    confirmations: u64,
    /// The confirmations asked for in the rounds of the 2026-07-28 revision, by the state
    /// the retried call brings back.
    rounds: rounds::Rounds,
    /// `tools/list` requests on their way to the server, by id (as JSON text): true for a
    /// first page.
    listing: HashMap<String, bool>,
    /// Requests from the client not answered yet by the server, by id (as JSON text).
    pending: HashSet<String>,
    /// The transport matches each answer to its request itself ([`Gate::server_answers`]):
    /// no id is kept (the clients that share the gate may all use the same ids), and no call
    /// is held for a confirmation (its answer would come on another request).
    per_exchange: bool,
}

impl Gate {
    /// A gate that knows no tool yet, with the default parse options.
    pub fn new() -> Gate {
        Gate::default()
    }

    /// Calls are parsed with `options`.
    pub fn with_options(mut self, options: ParseOptions) -> Gate {
        self.options = options;
        self
    }

    /// What to do with calls to a tool whose definition did not load.
    pub fn with_unchecked(mut self, unchecked: Unchecked) -> Gate {
        self.unchecked = unchecked;
        self
    }

    /// What to do with calls to a tool the server does not list (refused by default).
    pub fn with_unlisted(mut self, unlisted: Unlisted) -> Gate {
        self.unlisted = unlisted;
        self
    }

    /// The verdicts on the calls that waited for the gate's own listing and were judged since
    /// the last call, in the order they were judged (their routes came out of
    /// [`Gate::from_server`]).
    pub fn take_released(&mut self) -> Vec<Released> {
        std::mem::take(&mut self.released)
    }

    /// Applies `policy` over what the server says of its tools (see [`Policy`]): the effect,
    /// the unknown-key policy and the strict fields of each tool as it is learned, and which
    /// calls wait for the user's confirmation.
    pub fn with_policy(mut self, policy: Policy) -> Gate {
        self.policy = policy;
        self
    }

    /// The tools learned so far.
    pub fn tools(&self) -> &Tools {
        &self.tools
    }

    /// The tools learned so far, to take the new unchecked ones
    /// ([`Tools::take_new_unchecked`]).
    pub fn tools_mut(&mut self) -> &mut Tools {
        &mut self.tools
    }

    /// Handles one line from the client.
    pub fn from_client(&mut self, line: &str) -> Handled {
        let message = match Message::read(line) {
            Ok(message) => message,
            Err(reason) => {
                return Handled {
                    routes: vec![Route::ToClient(reply::parse_error(&reason))],
                    verdict: None,
                    listing: false,
                }
            }
        };
        let forward = || Handled {
            routes: vec![Route::ToServer(line.to_owned())],
            verdict: None,
            listing: false,
        };
        let Some(method) = message.method.as_deref() else {
            if let Some(held) = message.id.and_then(|id| self.held.remove(id.get())) {
                let id = held.id.clone();
                let handled = self.confirmed(held, &message);
                if let Some(span) = self.spans.remove(&id) {
                    self.track(&id, span, &handled);
                }
                return handled;
            }
            // A response to a request of the server's (sampling, elicitation, ...).
            return forward();
        };
        if method == "initialize" {
            self.client_elicits = message
                .params()
                .and_then(|params| params.capabilities)
                .is_some_and(message::declares_elicitation);
        }
        if method == "notifications/cancelled" {
            // A held call the client gave up on is never made, whatever the user answers.
            let cancelled = message.params().and_then(|p| p.request_id);
            if let Some(cancelled) = cancelled.map(|id| id.get()) {
                for held in self.held.values_mut().filter(|held| held.id == cancelled) {
                    held.cancelled = true;
                }
                self.pending.remove(cancelled);
                if let Some(span) = self.spans.remove(cancelled) {
                    span.answered(|| Answer::Cancelled);
                }
                // A call waiting for a listing is dropped, never judged or made.
                for waiting in self.listings.cancel(cancelled) {
                    waiting.span.answered(|| Answer::Cancelled);
                }
            }
        }
        if let Some(id) = message.id.filter(|_| !self.per_exchange) {
            self.pending.insert(id.get().to_owned());
            if method == "tools/list" {
                let first = message.params().is_none_or(|p| p.cursor.is_none());
                self.listing.insert(id.get().to_owned(), first);
            }
        }
        match (method, message.id, message.params()) {
            ("tools/call", Some(id), Some(params)) => self.call(line, id.get(), &params),
            _ => forward(),
        }
    }

    /// Handles one line from the server: learns the tools a `tools/list` result lists, and
    /// passes every line on to the client, but the answers to the gate's own listings: those
    /// judge the calls that waited for them (their verdicts are [`Gate::take_released`]), or
    /// ask for the next page.
    pub fn from_server(&mut self, line: &str) -> Vec<Route> {
        self.server_line(line).routes
    }

    /// [`Gate::from_server`], saying whether the route to the server is a listing request.
    pub(crate) fn server_line(&mut self, line: &str) -> Handled {
        if let Ok(message) = Message::read(line) {
            if message.method.as_deref() == Some("notifications/tools/list_changed") {
                self.stale = true;
            }
            if let (None, Some(id)) = (message.method.as_deref(), message.id) {
                if let Some(listing) = self.listings.answered(id.get()) {
                    return self.listed(listing, &message);
                }
                self.pending.remove(id.get());
                if let Some(span) = self.spans.remove(id.get()) {
                    span.answered(|| Answer::of(&message));
                }
                if let (Some(first), Some(result)) = (self.listing.remove(id.get()), message.result)
                {
                    self.learn(result.get(), first);
                }
            }
        }
        Handled {
            routes: vec![Route::ToClient(line.to_owned())],
            ..Handled::default()
        }
    }

    /// Learns a page of a `tools/list` result; a first page replaces what was known, and
    /// makes it current.
    fn learn(&mut self, result: &str, first: bool) {
        self.tools.learn(result, first, &self.policy);
        if first {
            self.stale = false;
        }
    }

    /// The server's answer to a page of the gate's own listing: the next page's request, or,
    /// with the last page in, the routes of the calls that waited, judged now; refused when
    /// the server did not list its tools.
    fn listed(&mut self, mut listing: Listing, answer: &Message<'_>) -> Handled {
        let Some(result) = answer.result.filter(|_| answer.error.is_none()) else {
            let why = match answer.error {
                Some(error) => format!(
                    "the server answered the gate's tools/list with an error: {}",
                    error.get()
                ),
                None => "the server's answer to the gate's tools/list holds no result".to_owned(),
            };
            return self.listing_failed(listing, &why);
        };
        if serde_json::from_str::<serde::de::IgnoredAny>(result.get()).is_err()
            || !result.get().trim_start().starts_with('{')
        {
            return self.listing_failed(
                listing,
                "the server's answer to the gate's tools/list is not a tool list",
            );
        }
        self.learn(result.get(), listing.pages == 0);
        listing.pages += 1;
        if let Some(cursor) = listing::next_cursor(result) {
            let pending = &self.pending;
            return match self
                .listings
                .next_page(listing, cursor, |id| pending.contains(id))
            {
                Ok(request) => Handled {
                    routes: vec![Route::ToServer(request)],
                    verdict: None,
                    listing: true,
                },
                Err(listing) => self.listing_failed(
                    listing,
                    &format!(
                        "the server's tool list runs past {} pages",
                        listing::MAX_PAGES
                    ),
                ),
            };
        }
        let mut handled = Handled::default();
        for waiting in listing.waiting {
            handled.routes.extend(self.release(waiting, Ok(())));
        }
        handled
    }

    /// The gate's own listing failed, for `why`: every call that waited for it is refused.
    pub(crate) fn listing_failed(&mut self, listing: Listing, why: &str) -> Handled {
        let mut handled = Handled::default();
        for waiting in listing.waiting {
            handled.routes.extend(self.release(waiting, Err(why)));
        }
        handled
    }

    /// The gate's own listing `request` got no answer, for `why` (a transport that sends it
    /// itself could not): every call that waited for it is refused.
    pub(crate) fn listing_unanswered(&mut self, request: &str, why: &str) -> Handled {
        let listing = Message::read(request)
            .ok()
            .and_then(|message| message.id)
            .and_then(|id| self.listings.answered(id.get()));
        match listing {
            Some(listing) => self.listing_failed(listing, why),
            None => Handled::default(),
        }
    }

    /// Judges a call that waited for a listing, now that it is in (or failed, for the
    /// reason given): its routes; its verdict goes to [`Gate::take_released`].
    fn release(&mut self, waiting: Waiting, listed: Result<(), &str>) -> Vec<Route> {
        let Waiting {
            line,
            id,
            arrived,
            span,
        } = waiting;
        let message = Message::read(&line).ok();
        let params = message.as_ref().and_then(Message::params);
        let (Some(params), Some(name)) = (
            params.as_ref(),
            params.as_ref().and_then(|p| p.name.clone()),
        ) else {
            return Vec::new();
        };
        let mut handled = span.in_scope(|| match listed {
            Ok(()) => self.judge(&line, &id, &name, params, true),
            Err(why) => {
                let verdict = CallVerdict::new(&name, params);
                let reply =
                    reply::tools_unavailable(&id, &name, why, self.shape(&name, params.tagged));
                self.refuse(&id, Outcome::ToolsUnavailable, reply, verdict)
            }
        });
        if let Some(verdict) = &mut handled.verdict {
            verdict.held = true;
        }
        self.track(&id, span, &handled);
        if let Some(verdict) = handled.verdict.take() {
            self.released.push(Released { verdict, arrived });
        }
        handled.routes
    }

    /// A gate for a transport that matches each answer to the request it answers, as
    /// Streamable HTTP does (it comes on the response to the POST that carried the request).
    pub(crate) fn per_exchange(mut self) -> Gate {
        self.per_exchange = true;
        self
    }

    /// Handles one message from the server that came on the channel of the client's message
    /// `request` (the line the gate forwarded; `None` for a channel of the server's own, as
    /// the GET stream of Streamable HTTP): as [`Gate::from_server`], with a `tools/list`
    /// result matched to its request by the channel, not by an id that other clients of the
    /// gate may be using too. The answer to a call ends `span`, the call's.
    pub(crate) fn server_answers(
        &mut self,
        request: Option<&str>,
        line: &str,
        span: &mut Option<CallSpan>,
    ) -> Vec<Route> {
        let request = request.and_then(|request| Message::read(request).ok());
        if let (Some(request), Ok(message)) = (request, Message::read(line)) {
            let answers = match (request.id, message.id) {
                (Some(asked), Some(answered)) => {
                    asked.get() == answered.get() && message.method.is_none()
                }
                _ => false,
            };
            if answers {
                if let Some(span) = span.take() {
                    span.answered(|| Answer::of(&message));
                }
            }
            if answers && request.method.as_deref() == Some("tools/list") {
                if let Some(result) = message.result {
                    let first = request.params().is_none_or(|p| p.cursor.is_none());
                    self.learn(result.get(), first);
                }
            }
        }
        if Message::read(line)
            .is_ok_and(|m| m.method.as_deref() == Some("notifications/tools/list_changed"))
        {
            self.stale = true;
        }
        vec![Route::ToClient(line.to_owned())]
    }

    /// The server ended: an error for every request it left unanswered.
    pub fn server_closed(&mut self) -> Vec<Route> {
        let mut ids: Vec<String> = self.pending.drain().collect();
        ids.sort();
        self.listing.clear();
        for listing in self.listings.clear() {
            for waiting in listing.waiting {
                waiting.span.answered(|| Answer::Gone);
            }
        }
        self.held.clear();
        for (_, span) in self.spans.drain() {
            span.answered(|| Answer::Gone);
        }
        ids.into_iter()
            .map(|id| Route::ToClient(reply::server_gone(&id)))
            .collect()
    }

    /// How the gate writes its own error results for `tool`: with the errors as
    /// `structuredContent` too, unless the tool declares an `outputSchema`, which MCP holds
    /// every `structuredContent` of its results to; `tagged` for a call of a revision that
    /// requires `resultType`.
    fn shape(&self, tool: &str, tagged: bool) -> reply::Shape {
        reply::Shape {
            structured: !self.tools.declares_output_schema(tool),
            tagged,
        }
    }

    /// Judges a `tools/call` request, in its span.
    fn call(&mut self, line: &str, id: &str, params: &Params<'_>) -> Handled {
        let Some(name) = params.name.as_deref() else {
            return Handled {
                routes: vec![Route::ToServer(line.to_owned())],
                verdict: None,
                listing: false,
            };
        };
        let span = CallSpan::start(name, id);
        if self.must_wait(name) {
            return self.hold(line, id, params, span);
        }
        let handled = span.in_scope(|| self.judge(line, id, name, params, false));
        self.track(id, span, &handled);
        handled
    }

    /// Whether a call to `name` waits for a listing: the gate never learned the tool, the
    /// server said its tools changed, or (on a transport with one answer channel, where
    /// calls keep their order) a listing is in flight already.
    fn must_wait(&self, name: &str) -> bool {
        self.stale || self.tools.get(name).is_none() || (!self.per_exchange && self.listings.any())
    }

    /// Holds a call until the server's tools are in: it joins the listing in flight, or
    /// starts one (one per call on a transport that matches answers itself, which sends the
    /// request and hands its answer back).
    fn hold(&mut self, line: &str, id: &str, params: &Params<'_>, span: CallSpan) -> Handled {
        let mut waiting = Waiting {
            line: line.to_owned(),
            id: id.to_owned(),
            arrived: Instant::now(),
            span,
        };
        if !self.per_exchange {
            match self.listings.join(waiting) {
                Ok(()) => return Handled::default(),
                Err(call) => waiting = call,
            }
        }
        let pending = &self.pending;
        let request = self
            .listings
            .start(waiting, Some(params.raw), |id| pending.contains(id));
        Handled {
            routes: vec![Route::ToServer(request)],
            verdict: None,
            listing: true,
        }
    }

    /// Records the verdict of a call on its span, and keeps the span of a call forwarded or
    /// held until its answer; the span of a call the gate answered itself ends here.
    fn track(&mut self, id: &str, span: CallSpan, handled: &Handled) {
        if let Some(verdict) = &handled.verdict {
            span.judged(verdict);
        }
        let forwarded = handled
            .routes
            .iter()
            .any(|route| matches!(route, Route::ToServer(_)));
        // Waiting for the answer to the gate's elicitation request.
        let held = handled.verdict.is_none() && self.held.values().any(|held| held.id == id);
        if forwarded && self.per_exchange {
            self.exchange_span = Some(span);
        } else if forwarded || held {
            self.spans.insert(id.to_owned(), span);
        }
    }

    /// The span of the call [`Gate::from_client`] just forwarded, for a transport that
    /// matches each answer to its request itself; it ends when dropped.
    pub(crate) fn take_exchange_span(&mut self) -> Option<CallSpan> {
        self.exchange_span.take()
    }

    /// The verdict on a call to `name`, and where it goes; `listed` when the gate has just
    /// asked the server for its tools for this call (a tool it does not list then is
    /// unlisted, not merely unknown to the gate).
    fn judge(
        &mut self,
        line: &str,
        id: &str,
        name: &str,
        params: &Params<'_>,
        listed: bool,
    ) -> Handled {
        let sent = params.arguments.map_or("{}", |raw| raw.get());
        let mut verdict = CallVerdict::new(name, params);
        let spec = match self.tools.get(name) {
            None if listed && self.unlisted == Unlisted::Refuse => {
                let reply = reply::unknown_tool(id, name, self.shape(name, params.tagged));
                return self.refuse(id, Outcome::UnknownTool, reply, verdict);
            }
            Some(Ok(spec)) => spec,
            Some(Err(_)) if self.unchecked == Unchecked::Block => {
                self.pending.remove(id);
                verdict.outcome = Outcome::Blocked;
                return Handled {
                    routes: vec![Route::ToClient(reply::blocked(
                        id,
                        name,
                        self.shape(name, params.tagged),
                    ))],
                    verdict: Some(verdict),
                    listing: false,
                };
            }
            _ => {
                return self.forward_call(
                    id,
                    name,
                    params,
                    line.to_owned(),
                    || sent.to_owned(),
                    verdict,
                )
            }
        };
        match spec.parse_json(&sent.into(), &self.options) {
            Ok(parsed) if parsed.repairs.is_empty() => {
                verdict.outcome = Outcome::Clean;
                self.forward_call(
                    id,
                    name,
                    params,
                    line.to_owned(),
                    || sent.to_owned(),
                    verdict,
                )
            }
            Ok(parsed) => {
                verdict.outcome = Outcome::Repaired;
                for repair in &parsed.repairs {
                    verdict.rules.push(repair.rule.to_string());
                    verdict.paths.push(repair.path.clone());
                }
                let line = message::with_arguments(line, params, &parsed.args);
                self.forward_call(id, name, params, line, || parsed.args.to_string(), verdict)
            }
            Err(rejection) => {
                self.pending.remove(id);
                verdict.outcome = Outcome::Rejected;
                for error in rejection.errors() {
                    verdict.codes.push(error.code.to_string());
                    verdict.paths.push(error.path.clone());
                }
                Handled {
                    routes: vec![Route::ToClient(reply::rejected(
                        id,
                        &rejection,
                        self.shape(name, params.tagged),
                    ))],
                    verdict: Some(verdict),
                    listing: false,
                }
            }
        }
    }

    /// Forwards a call that passed the gate as `line`, or, for a tool the policy says to
    /// confirm, asks the user first (showing `arguments()`, the JSON text forwarded, made only
    /// then): in the rounds of a 2026-07-28 call ([`Gate::confirm_in_rounds`]), or else with
    /// an elicitation request of the gate's own, holding the call until the answer. Refuses
    /// the call when the client cannot ask.
    fn forward_call(
        &mut self,
        id: &str,
        tool: &str,
        params: &Params<'_>,
        line: String,
        arguments: impl FnOnce() -> String,
        verdict: CallVerdict,
    ) -> Handled {
        if !self.policy.confirms(tool) {
            return Handled {
                routes: vec![Route::ToServer(line)],
                verdict: Some(verdict),
                listing: false,
            };
        }
        let tagged = params.tagged;
        let why = if tagged {
            let elicits = params
                .meta_capabilities
                .is_some_and(message::declares_elicitation);
            (!elicits).then_some("this client cannot ask for it (no elicitation)")
        } else if self.per_exchange {
            Some("the gate asks for it over Streamable HTTP only in the rounds of the 2026-07-28 revision")
        } else {
            (!self.client_elicits).then_some("this client cannot ask for it (no elicitation)")
        };
        if let Some(why) = why {
            let reply = reply::confirmation_unavailable(id, tool, why, self.shape(tool, tagged));
            return self.refuse(id, Outcome::ConfirmationUnavailable, reply, verdict);
        }
        if tagged {
            return self.confirm_in_rounds(id, tool, params, line, arguments(), verdict);
        }
        self.confirmations += 1;
        let request_id =
            Value::String(format!("{CONFIRMATION_ID_PREFIX}{}", self.confirmations)).to_string();
        let request = reply::confirmation_request(&request_id, tool, &arguments());
        self.held.insert(
            request_id,
            HeldCall {
                id: id.to_owned(),
                line,
                verdict,
                cancelled: false,
                tagged,
            },
        );
        // The verdict waits for the user's answer.
        Handled {
            routes: vec![Route::ToClient(request)],
            verdict: None,
            listing: false,
        }
    }

    /// A confirmation in the rounds of the 2026-07-28 revision, where a server asks for input
    /// by answering `input_required` and the client retries the call with the answers. The
    /// first call is answered so, with an elicitation under [`CONFIRMATION_KEY`] and a
    /// `requestState` of the gate's that stands for this tool with these arguments, once. The
    /// retry that brings it back goes on (without the gate's answer and state) when the user
    /// accepted, and is refused otherwise; a retry with other arguments, or a state the gate
    /// did not give, is asked about again.
    fn confirm_in_rounds(
        &mut self,
        id: &str,
        tool: &str,
        params: &Params<'_>,
        line: String,
        arguments: String,
        verdict: CallVerdict,
    ) -> Handled {
        let state = params
            .request_state
            .and_then(|raw| serde_json::from_str::<String>(raw.get()).ok());
        let approved = state
            .as_deref()
            .and_then(|state| self.rounds.get(state))
            .is_some_and(|asked| asked.tool == tool && asked.arguments == arguments);
        if let (true, Some(state)) = (approved, state) {
            self.rounds.remove(&state);
            let answer = params
                .input_responses
                .and_then(|raw| serde_json::from_str::<Value>(raw.get()).ok())
                .and_then(|answers| answers.get(CONFIRMATION_KEY).cloned())
                .unwrap_or(Value::Null);
            // `line` is the call as gated, repaired perhaps: read again.
            let forwarded = || message::without_round(&line, CONFIRMATION_KEY);
            return self.after_confirmation(id, forwarded, verdict, Some(&answer), true);
        }
        self.pending.remove(id);
        let state = self.rounds.ask(tool, &arguments);
        Handled {
            routes: vec![Route::ToClient(reply::confirmation_round(
                id,
                CONFIRMATION_KEY,
                &state,
                tool,
                &arguments,
            ))],
            // The verdict comes with the retry.
            verdict: None,
            listing: false,
        }
    }

    /// The client's answer to a confirmation the gate asked for: the held call goes on when
    /// the user accepted, and is refused otherwise. The answer itself goes nowhere: the
    /// request was the gate's.
    fn confirmed(&mut self, held: HeldCall, answer: &Message<'_>) -> Handled {
        let HeldCall {
            id,
            line,
            verdict,
            cancelled,
            tagged,
        } = held;
        if cancelled {
            // Nobody waits for the call any more: nothing to forward or answer.
            return Handled::default();
        }
        let result = answer
            .result
            .filter(|_| answer.error.is_none())
            .map(|result| serde_json::from_str::<Value>(result.get()).unwrap_or(Value::Null));
        self.after_confirmation(&id, || line, verdict, result.as_ref(), tagged)
    }

    /// The user's answer to the confirmation of a call (`answer`, the elicitation's result;
    /// `None` when asking failed): the call goes on as `line()` when they accepted, and is
    /// refused with `not_confirmed` otherwise.
    fn after_confirmation(
        &mut self,
        id: &str,
        line: impl FnOnce() -> String,
        mut verdict: CallVerdict,
        answer: Option<&Value>,
        tagged: bool,
    ) -> Handled {
        let action = answer.and_then(|answer| answer.get("action")?.as_str());
        if action == Some("accept") {
            verdict.confirmed = true;
            return Handled {
                routes: vec![Route::ToServer(line())],
                verdict: Some(verdict),
                listing: false,
            };
        }
        let why = match (answer, action) {
            (None, _) => "asking the user for confirmation failed",
            (_, Some("decline")) => "the user declined it",
            (_, Some("cancel")) => "the user dismissed the confirmation",
            _ => "the client's answer to the confirmation was not an acceptance",
        };
        let reply = reply::not_confirmed(id, &verdict.tool, why, self.shape(&verdict.tool, tagged));
        self.refuse(id, Outcome::NotConfirmed, reply, verdict)
    }

    /// Answers a call the gate does not forward with `reply`; its verdict is `outcome`, with
    /// the outcome's name as its code.
    fn refuse(
        &mut self,
        id: &str,
        outcome: Outcome,
        reply: String,
        mut verdict: CallVerdict,
    ) -> Handled {
        self.pending.remove(id);
        verdict.codes.push(outcome.as_str().to_owned());
        verdict.outcome = outcome;
        Handled {
            routes: vec![Route::ToClient(reply)],
            verdict: Some(verdict),
            listing: false,
        }
    }
}

impl CallVerdict {
    /// The verdict on a call to `tool` with `params`, before it is judged: unchecked.
    fn new(tool: &str, params: &Params<'_>) -> CallVerdict {
        CallVerdict {
            tool: tool.to_owned(),
            outcome: Outcome::Unchecked,
            codes: Vec::new(),
            rules: Vec::new(),
            paths: Vec::new(),
            arguments: params.arguments.map_or("{}", |raw| raw.get()).to_owned(),
            confirmed: false,
            held: false,
        }
    }

    /// The verdict as a line of the log: `tool`, `outcome`, `codes`, `rules`, `paths`,
    /// `confirmed: true` for a call the user confirmed, and `arguments` when asked for (then
    /// `toolargs replay` reads the log as calls).
    pub fn to_log(&self, arguments: bool) -> Value {
        let mut line = serde_json::json!({
            "tool": self.tool,
            "outcome": self.outcome.as_str(),
            "codes": self.codes,
            "rules": self.rules,
            "paths": self.paths,
        });
        if self.confirmed {
            line["confirmed"] = Value::Bool(true);
        }
        if self.held {
            line["held"] = Value::Bool(true);
        }
        if arguments {
            line["arguments"] = Value::String(self.arguments.clone());
        }
        line
    }
}
