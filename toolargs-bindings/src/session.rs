//! One conversation's calls ("Decide by meaning at every door"): each judged by its tool's
//! schema and then, for a tool whose meaning is declared, by
//! [`toolargs_semantic::Session`], which decides; the tools a session's calls go to (a set's,
//! one spec's, or the spec given with each call); and what ran, recorded.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use toolargs_core::decode::RawArgs;
use toolargs_core::{Judge, ParseOptions, Parsed, Rejection};
use toolargs_semantic::{Fingerprint, SessionOptions};

use crate::set::ToolSet;
use crate::tool::Tool;
use crate::verdict::Verdict;

/// The options of a session, each given one laid over the defaults (two corrections per
/// tool, twenty per session, a duplicate window of ten minutes), as a package takes them: the
/// corrections per tool and per session, read by `count` with the name the package gives
/// each (`names`), then the duplicate window, read by `window`; the first that does not read
/// is the error.
pub fn options<C, W, E>(
    (corrections_per_tool, corrections_per_session, duplicate_window): (
        Option<C>,
        Option<C>,
        Option<W>,
    ),
    names: [&str; 2],
    count: impl Fn(C, &str) -> Result<u32, E>,
    window: impl FnOnce(W) -> Result<Duration, E>,
) -> Result<SessionOptions, E> {
    let mut options = SessionOptions::default();
    if let Some(given) = corrections_per_tool {
        options = options.with_corrections_per_tool(count(given, names[0])?);
    }
    if let Some(given) = corrections_per_session {
        options = options.with_corrections_per_session(count(given, names[1])?);
    }
    if let Some(given) = duplicate_window {
        options = options.with_duplicate_window(window(given)?);
    }
    Ok(options)
}

/// What a session's calls go to.
#[derive(Debug)]
pub enum Scope {
    /// The tools of a set, by name.
    Set(Arc<ToolSet>),
    /// One tool, by its name or none.
    One(Tool),
    /// None in particular: each call comes with its tool.
    Given,
}

/// Why a call names no tool of its session's [`Scope`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unnamed {
    /// A session over a set takes a tool's name.
    NameNeeded,
    /// The name is not a tool of the set: why, in one sentence starting with the name.
    NotInSet(String),
    /// The name is not the one tool's.
    NotTheTool(String),
    /// A session over no tools in particular takes each call's tool, not a name.
    ToolNeeded,
}

impl Scope {
    /// The tool a call names (`name`, or none over one tool).
    pub fn tool(&self, name: Option<&str>) -> Result<&Tool, Unnamed> {
        match (self, name) {
            (Scope::Set(tools), Some(name)) => tools
                .get(name)
                .ok_or_else(|| Unnamed::NotInSet(tools.why_not(name))),
            (Scope::Set(_), None) => Err(Unnamed::NameNeeded),
            (Scope::One(tool), None) => Ok(tool),
            (Scope::One(tool), Some(name)) if tool.spec.name() == Some(name) => Ok(tool),
            (Scope::One(_), Some(name)) => Err(Unnamed::NotTheTool(name.to_owned())),
            (Scope::Given, _) => Err(Unnamed::ToolNeeded),
        }
    }
}

/// A call's arguments as received.
pub enum Sent<'a> {
    /// JSON text.
    Text(&'a str),
    /// Bytes, UTF-8 or not (then rejected as the gate rejects them).
    Bytes(&'a [u8]),
    /// The rejection of a value of the caller's language that is not JSON.
    NotJson(Rejection),
}

/// A call as sent, judged by its tool's spec: the session keeps its text as the original of
/// the corrections that follow.
struct Call<'a> {
    spec: &'a toolargs_dynamic::Spec,
    sent: &'a Sent<'a>,
}

impl Judge for Call<'_> {
    type Output = Value;

    fn parse(&self, raw: &RawArgs<'_>, options: &ParseOptions) -> Result<Parsed<Value>, Rejection> {
        self.parse_json(raw, options)
    }

    fn parse_json(
        &self,
        _text: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Parsed<Value>, Rejection> {
        self.verdict(options)
    }
}

impl Call<'_> {
    /// The spec's verdict on the call as sent.
    fn verdict(&self, options: &ParseOptions) -> Result<Parsed<Value>, Rejection> {
        match self.sent {
            Sent::Text(text) => self.spec.parse_with(&RawArgs::from(*text), options),
            Sent::Bytes(bytes) => self
                .spec
                .parse_with(&RawArgs::Bytes(Cow::Borrowed(bytes)), options),
            Sent::NotJson(rejection) => Err(rejection.clone()),
        }
    }
}

impl Sent<'_> {
    /// The text the session keeps of the call.
    fn text(&self) -> Cow<'_, str> {
        match self {
            Sent::Text(text) => Cow::Borrowed(text),
            Sent::Bytes(bytes) => String::from_utf8_lossy(bytes),
            Sent::NotJson(_) => Cow::Borrowed("null"),
        }
    }
}

/// The calls judged that may run, kept by a session with tickets to record one with the
/// fingerprint its judgment computed ([`Session::executed_ticket`]); past it, the oldest is
/// forgotten (and recorded, if it runs, from its arguments).
const PENDING: usize = 1024;

/// One conversation's calls: a call after its tool's call was rejected is a correction,
/// compared with the original; an action repeated within the duplicate window is a duplicate;
/// corrections are capped, as the [`SessionOptions`] say.
pub struct Session {
    session: toolargs_semantic::Session,
    /// Whether calls that pass get a ticket.
    tickets: bool,
    /// By ticket, the calls judged that passed: their tool, and their action's fingerprint
    /// (for a tool that acts), oldest first.
    pending: VecDeque<(u32, String, Option<Fingerprint>)>,
    /// The last ticket given (0: none yet; never given).
    ticket: u32,
    /// Calls recorded as run under no label of the caller's, to label them.
    ran: u64,
}

impl Session {
    /// A session with `options`.
    pub fn new(options: SessionOptions) -> Session {
        Session {
            session: toolargs_semantic::Session::new(options),
            tickets: false,
            pending: VecDeque::new(),
            ticket: 0,
            ran: 0,
        }
    }

    /// The session, giving each call that passes a ticket to record it by when it runs
    /// ([`Meaning::ticket`](crate::verdict::Meaning::ticket)).
    pub fn with_tickets(mut self) -> Session {
        self.tickets = true;
        self
    }

    /// Judges a call to `tool` with the arguments `sent` within the session: for a tool whose
    /// meaning is declared, the session's verdict; for another, its schema's, as a parse's.
    pub fn judge(&mut self, tool: &Tool, sent: Sent<'_>) -> Verdict {
        let call = Call {
            spec: &tool.spec,
            sent: &sent,
        };
        let Some(profile) = &tool.profile else {
            return Verdict::of(call.verdict(&ParseOptions::DEFAULT));
        };
        let text = sent.text();
        let judged = self.session.judge(
            profile,
            tool.idempotent,
            &call,
            &text,
            &ParseOptions::DEFAULT,
        );
        let ticket = match &judged.weighing {
            Some(weighing) if self.tickets => {
                self.ticket = self.ticket.checked_add(1).unwrap_or(1);
                if self.pending.len() >= PENDING {
                    self.pending.pop_front();
                }
                self.pending.push_back((
                    self.ticket,
                    profile.name().to_owned(),
                    weighing.fingerprint,
                ));
                self.ticket
            }
            _ => 0,
        };
        let mut verdict = Verdict::judged(judged);
        if let Some(meaning) = &mut verdict.meaning {
            meaning.ticket = ticket;
        }
        verdict
    }

    /// A call to `tool` with `arguments` ran, under `label` (none: the tool's name and the
    /// count of such calls, `issue_refund #3`): the tool's corrections are over, and its
    /// action is remembered. Nothing for a tool whose meaning is not declared.
    pub fn executed(&mut self, tool: &Tool, arguments: &Value, label: Option<&str>) {
        let Some(profile) = &tool.profile else {
            return;
        };
        let label = match label {
            Some(label) => Cow::Borrowed(label),
            None => {
                self.ran += 1;
                let name = tool.name().unwrap_or_default();
                Cow::Owned(format!("{name} #{}", self.ran))
            }
        };
        self.session
            .executed_call(profile, tool.idempotent, arguments, &label);
    }

    /// [`Session::executed`] with the arguments `bytes` taken as the tool's schema reads them
    /// (repaired) when it accepts them, as sent otherwise.
    pub fn executed_bytes(&mut self, tool: &Tool, bytes: &[u8], label: &str) {
        if tool.profile.is_none() {
            return;
        }
        let raw = RawArgs::Bytes(Cow::Borrowed(bytes));
        let arguments = match tool.spec.parse_with(&raw, &ParseOptions::DEFAULT) {
            Ok(parsed) => parsed.args,
            Err(_) => serde_json::from_slice(bytes).unwrap_or(Value::Null),
        };
        self.executed(tool, &arguments, Some(label));
    }

    /// The call judged under `ticket` ran, with the arguments it was judged with, under
    /// `label`: recorded as [`Session::executed`] records it, with the fingerprint its
    /// judgment computed. False when the ticket is not kept (recorded already, or forgotten).
    pub fn executed_ticket(&mut self, ticket: u32, label: &str) -> bool {
        let Some(at) = self.pending.iter().rposition(|(t, _, _)| *t == ticket) else {
            return false;
        };
        let Some((_, tool, fingerprint)) = self.pending.remove(at) else {
            return false;
        };
        self.session.executed(&tool, fingerprint, label);
        true
    }
}
