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
//!   input errors are reported;
//! - a tool the server did not list, or whose definition did not load: passed on (the server
//!   owns that answer), or refused with [`Unchecked::Block`].
//!
//! The arguments are judged as the client wrote them: a key sent twice is `duplicate_key`,
//! and digits beyond a double are not rounded. Everything else passes through unchanged, ids
//! preserved. A line that is not JSON gets a `-32700` error and the connection goes on; when
//! the server ends, every request it left unanswered gets an error ([`Gate::server_closed`]).
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

mod message;
mod reply;
mod stdio;
mod tools;

#[cfg(test)]
mod tests;

use std::collections::{HashMap, HashSet};

use serde_json::Value;
use toolargs_core::options::ParseOptions;

use message::{Message, Params};
pub use stdio::{run_stdio, VerdictLog, MAX_LINE_BYTES};
pub use tools::{Tools, UncheckedTool};

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
    /// The error codes of a rejection.
    pub codes: Vec<String>,
    /// The rules of the repairs.
    pub rules: Vec<String>,
    /// The paths of the repairs or errors.
    pub paths: Vec<String>,
    /// The arguments as the client sent them (the raw JSON text).
    pub arguments: String,
}

/// What [`Gate::from_client`] made of one line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Handled {
    /// Where the line (or the answer to it) goes.
    pub routes: Vec<Route>,
    /// The verdict, when the line was a `tools/call`.
    pub verdict: Option<CallVerdict>,
}

/// What to do with a call to a tool that is not checked: one the server did not list, or
/// whose definition did not load.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Unchecked {
    /// Pass it on: the server owns the answer.
    #[default]
    Pass,
    /// Refuse it (a tool whose definition did not load) with an error result.
    Block,
}

/// The message handling of the gate (see the [crate](self) docs).
#[derive(Debug, Default)]
pub struct Gate {
    tools: Tools,
    options: ParseOptions,
    unchecked: Unchecked,
    /// `tools/list` requests on their way to the server, by id (as JSON text): true for a
    /// first page.
    listing: HashMap<String, bool>,
    /// Requests from the client not answered yet by the server, by id (as JSON text).
    pending: HashSet<String>,
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
                }
            }
        };
        let forward = || Handled {
            routes: vec![Route::ToServer(line.to_owned())],
            verdict: None,
        };
        let Some(method) = message.method.as_deref() else {
            // A response to a request of the server's (sampling, elicitation, ...).
            return forward();
        };
        if let Some(id) = message.id {
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
    /// passes every line on to the client.
    pub fn from_server(&mut self, line: &str) -> Vec<Route> {
        if let Ok(message) = Message::read(line) {
            if let (None, Some(id)) = (message.method.as_deref(), message.id) {
                self.pending.remove(id.get());
                if let (Some(first), Some(result)) = (self.listing.remove(id.get()), message.result)
                {
                    self.tools.learn(result.get(), first);
                }
            }
        }
        vec![Route::ToClient(line.to_owned())]
    }

    /// The server ended: an error for every request it left unanswered.
    pub fn server_closed(&mut self) -> Vec<Route> {
        let mut ids: Vec<String> = self.pending.drain().collect();
        ids.sort();
        self.listing.clear();
        ids.into_iter()
            .map(|id| Route::ToClient(reply::server_gone(&id)))
            .collect()
    }

    /// Judges a `tools/call` request.
    fn call(&mut self, line: &str, id: &str, params: &Params<'_>) -> Handled {
        let Some(name) = params.name.as_deref() else {
            return Handled {
                routes: vec![Route::ToServer(line.to_owned())],
                verdict: None,
            };
        };
        let sent = params.arguments.map_or("{}", |raw| raw.get());
        let mut verdict = CallVerdict {
            tool: name.to_owned(),
            outcome: Outcome::Unchecked,
            codes: Vec::new(),
            rules: Vec::new(),
            paths: Vec::new(),
            arguments: sent.to_owned(),
        };
        let spec = match self.tools.get(name) {
            Some(Ok(spec)) => spec,
            Some(Err(_)) if self.unchecked == Unchecked::Block => {
                self.pending.remove(id);
                verdict.outcome = Outcome::Blocked;
                return Handled {
                    routes: vec![Route::ToClient(reply::blocked(id, name))],
                    verdict: Some(verdict),
                };
            }
            _ => {
                return Handled {
                    routes: vec![Route::ToServer(line.to_owned())],
                    verdict: Some(verdict),
                }
            }
        };
        let route = match spec.parse_with(&sent.into(), &self.options) {
            Ok(parsed) if parsed.repairs.is_empty() => {
                verdict.outcome = Outcome::Clean;
                Route::ToServer(line.to_owned())
            }
            Ok(parsed) => {
                verdict.outcome = Outcome::Repaired;
                for repair in &parsed.repairs {
                    verdict.rules.push(repair.rule.to_string());
                    verdict.paths.push(repair.path.clone());
                }
                Route::ToServer(message::with_arguments(line, params, &parsed.args))
            }
            Err(rejection) => {
                self.pending.remove(id);
                verdict.outcome = Outcome::Rejected;
                for error in rejection.errors() {
                    verdict.codes.push(error.code.to_string());
                    verdict.paths.push(error.path.clone());
                }
                Route::ToClient(reply::rejected(id, &rejection))
            }
        };
        Handled {
            routes: vec![route],
            verdict: Some(verdict),
        }
    }
}

impl CallVerdict {
    /// The verdict as a line of the log: `tool`, `outcome`, `codes`, `rules`, `paths`, and
    /// `arguments` when asked for (then `toolargs replay` reads the log as calls).
    pub fn to_log(&self, arguments: bool) -> Value {
        let mut line = serde_json::json!({
            "tool": self.tool,
            "outcome": self.outcome.as_str(),
            "codes": self.codes,
            "rules": self.rules,
            "paths": self.paths,
        });
        if arguments {
            line["arguments"] = Value::String(self.arguments.clone());
        }
        line
    }
}
