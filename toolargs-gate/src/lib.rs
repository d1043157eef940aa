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
//! - a tool whose definition did not load: refused (`unchecked_tool`, [`Unchecked::Block`],
//!   the default), or passed on with [`Unchecked::Pass`] (the server owns that answer).
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
//! [`Pins`] ([`Gate::with_pins`]; the file `toolargs pin` writes) hold each tool to the
//! definition approved: a call to a tool whose listed `inputSchema`, `annotations` or
//! `description` is not the one pinned is refused (`tool_changed`; its verdict's
//! [`CallVerdict::changed`] says what changed, a property added, a `maximum` dropped, ...),
//! and a call to a tool not pinned is refused too (`tool_unpinned`).
//!
//! For the tools whose meaning is declared (the policy's `meaning`, or `x-toolargs` on a
//! property of the schema), the gate judges meaning within the session too ([`SessionOptions`]):
//! a call after the tool's call was rejected is compared with that original by what its
//! arguments mean, and refused (`meaning_changed`) or held for the user's confirmation
//! (`confirmation_required` when the client cannot be asked); an action repeated within a
//! window is held or refused (`duplicate_action`); and corrections are capped
//! (`retry_budget_exhausted`).
//!
//! A message is judged, answered by the gate, or refused ([`Outcome::Refused`]): one with a
//! member written twice, or a string that is not Unicode, anywhere outside a call's arguments
//! (`duplicate_key`, `invalid_unicode`), is never forwarded, whatever its method, since
//! another reader could take it for another message; nor is a `tools/call` without an id or
//! with a `null` one (`invalid_request`), or whose params are not an object naming the tool
//! (`invalid_params`), nor a call to a tool the server listed twice (`duplicate_tool`). A
//! request refused gets a JSON-RPC error, a notification nothing; each refusal has a verdict.
//! Within 5 seconds of a listing, a call to a tool it did not name is refused without
//! another listing.
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

mod confirm;
mod door;
mod http;
mod judge;
mod listing;
mod log;
mod meaning;
mod message;
pub mod metrics;
mod params;
mod pin;
mod policy;
mod present;
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
use toolargs_core::options::ParseOptions;
use toolargs_core::Dialect;

use confirm::HeldCall;
pub use http::{
    list_upstream_tools, DrainHandle, HttpGate, HttpOptions, BODY_TIMEOUT, DRAIN_TIMEOUT,
    HEADER_TIMEOUT, MAX_REQUESTS, MAX_REQUESTS_PER_CLIENT, MAX_SESSIONS,
};
use listing::Listings;
pub use log::{line_hash, verify_chain, ChainBreak, LogOptions, VerdictLog};
use message::Message;
pub use metrics::{Metrics, MetricsServer};
pub use pin::{
    definition_digest, describe_changes, DefinitionChange, PinCheck, PinError, PinMismatch, Pins,
    PIN_FILE_VERSION,
};
pub use policy::{Policy, PolicyError, StrictFieldMissing, ToolRule};
pub use stdio::{run_stdio, run_stdio_with_metrics, MAX_LINE_BYTES};
pub use toolargs_semantic::{Actions, SessionOptions};
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
    /// Refused at the door: a message the gate cannot read one way only, a `tools/call` it
    /// cannot judge (no id, params that are not an object, no tool name), a call to a tool
    /// the server listed twice, or, with pins, to a tool whose definition is not the one
    /// pinned or that is not pinned. The code says which.
    Refused,
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
            Outcome::Refused => "refused",
        }
    }
}

/// The verdict on one `tools/call`, for the log.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallVerdict {
    /// The tool called (empty when the message names none).
    pub tool: String,
    /// The message's method: `tools/call`, or that of another message the gate refused
    /// (empty when it has none).
    pub method: String,
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
    /// Whether the server listed the tool: the metrics count the calls to the others under
    /// one label.
    pub(crate) listed: bool,
    /// What the gate made of the call's meaning, when its tool's meaning is known
    /// ([`Weighing::to_json`](toolargs_semantic::Weighing::to_json)): a correction's review
    /// against its original (`correction`: `original`, `decision`, `findings`), the earlier
    /// call it repeats (`duplicate_of`: `label`, its id as written, and `seconds_ago`), and
    /// the action's `fingerprint`.
    pub meaning: Option<Value>,
    /// The fingerprint of the call's action, for a tool that writes, deletes, pays or
    /// notifies.
    pub(crate) fingerprint: Option<toolargs_semantic::Fingerprint>,
    /// For a call refused `tool_changed`: what changed from the tool's pinned definition to
    /// the one listed, as one line ([`describe_changes`]).
    pub changed: Option<String>,
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
    Pass,
    /// Refuse it with an error result (`unchecked_tool`): what the gate cannot judge does
    /// not pass unless the operator says so.
    #[default]
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
    /// When the server's tools were last listed (a first page learned).
    listed_at: Option<Instant>,
    /// The session's corrections and the actions it forwarded.
    session: toolargs_semantic::Session,
    /// How long a listing answers for the tools it does not name, when not
    /// [`listing::LISTING_WINDOW`].
    listing_window: Option<std::time::Duration>,
    /// Whether the client declared the elicitation capability in its `initialize` request.
    client_elicits: bool,
    /// The definitions the tools are held to ([`Gate::with_pins`]).
    pins: Option<Pins>,
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
    /// The dialect `tools/list` results are shown to the client in ([`Gate::presenting`]).
    present: Option<Dialect>,
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

    /// Shows the client each tool's schema lowered for `dialect` in `tools/list` results
    /// (the schema that provider accepts), while every call is judged by the full schema the
    /// server listed. Off by default: the client sees what the server sent.
    pub fn presenting(mut self, dialect: Dialect) -> Gate {
        self.present = Some(dialect);
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

    /// Holds every tool to its definition in `pins`: a call to a tool whose listed
    /// definition (its `inputSchema`, `annotations` and `description`) is not the one pinned
    /// is refused `tool_changed`, and its verdict says what changed; a call to a tool not
    /// pinned is refused `tool_unpinned`. The tools not listed are judged as without pins.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolargs_gate::{Gate, Pins, Route};
    ///
    /// let quote = json!({"name": "quote", "inputSchema": {"type": "object",
    ///     "properties": {"quantity": {"type": "integer", "maximum": 10}}}});
    /// let mut gate = Gate::new().with_pins(Pins::from_tools(&[quote])?);
    /// gate.from_client(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
    /// // The server lists `quote` without its maximum.
    /// gate.from_server(r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"quote",
    ///     "inputSchema":{"type":"object","properties":{"quantity":{"type":"integer"}}}}]}}"#);
    /// let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"quote","arguments":{"quantity":500}}}"#;
    /// let handled = gate.from_client(call);
    /// let Route::ToClient(reply) = &handled.routes[0] else { panic!() };
    /// assert!(reply.contains(r#""isError":true"#) && reply.contains("tool_changed"));
    /// let verdict = handled.verdict.unwrap();
    /// assert_eq!(verdict.codes, ["tool_changed"]);
    /// assert_eq!(verdict.changed.as_deref(), Some("$.quantity: maximum 10 dropped"));
    /// # Ok::<(), toolargs_gate::PinError>(())
    /// ```
    pub fn with_pins(mut self, pins: Pins) -> Gate {
        self.pins = Some(pins);
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
            Err(reason) => return self.refuse_message(None, reason.into()),
        };
        let is_call = message.method.as_deref() == Some("tools/call");
        if let Err(doubt) = message::certain(line, is_call) {
            return self.refuse_message(Some(&message), doubt.into());
        }
        let call = match is_call.then(|| door::call(&message)) {
            Some(Err(refusal)) => return self.refuse_message(Some(&message), refusal),
            Some(Ok(call)) => Some(call),
            None => None,
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
        match call {
            Some(call) => self.call(line, &call),
            None => forward(),
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
                    return Handled {
                        routes: vec![Route::ToClient(self.shown(line))],
                        ..Handled::default()
                    };
                }
            }
        }
        Handled {
            routes: vec![Route::ToClient(line.to_owned())],
            ..Handled::default()
        }
    }

    /// A `tools/list` answer as the client is shown it ([`Gate::presenting`]).
    fn shown(&self, line: &str) -> String {
        match self.present {
            Some(dialect) => present::presented(line, dialect, &self.tools),
            None => line.to_owned(),
        }
    }

    /// Learns a page of a `tools/list` result; a first page replaces what was known, and
    /// makes it current.
    fn learn(&mut self, result: &str, first: bool) {
        self.tools
            .learn(result, first, &self.policy, self.pins.as_ref());
        if first {
            self.stale = false;
            self.listed_at = Some(Instant::now());
        }
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
                    return vec![Route::ToClient(self.shown(line))];
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
}

impl CallVerdict {
    /// The verdict as a line of the log: `tool`, `outcome`, `codes`, `rules`, `paths`,
    /// `confirmed: true` for a call the user confirmed, `changed` for a call refused
    /// `tool_changed`, `method` for a message other than a
    /// `tools/call` that the gate refused, and `arguments` when asked for (then `toolargs
    /// replay` reads the log as calls).
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
        if let Some(meaning) = &self.meaning {
            line["meaning"] = meaning::logged(meaning, arguments);
        }
        if let Some(changed) = &self.changed {
            line["changed"] = Value::String(changed.clone());
        }
        if self.method != "tools/call" {
            // Not a call: no arguments to replay.
            line["method"] = Value::String(self.method.clone());
        } else if arguments {
            line["arguments"] = Value::String(self.arguments.clone());
        }
        line
    }
}
