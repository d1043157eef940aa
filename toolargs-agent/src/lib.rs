//! A small dispatcher for the agent loop: register tools with handlers, dispatch a model's call
//! by name, and get back what to do next.
//!
//! ```
//! use toolargs_agent::{Dispatch, Session, ToolCall, Toolbox};
//! # use toolargs_core::{ArgType, Cx, Effect, FieldSpec, Node, Path, ToolArgs, UnknownPolicy};
//! # struct Ping;
//! # impl ArgType for Ping {
//! #     fn coerce(n: &Node<'_>, _: &FieldSpec<'_>, p: &Path<'_>, cx: &mut Cx) -> Option<Self> {
//! #         matches!(n, Node::Object(_)).then_some(Ping).or_else(|| {
//! #             cx.error(p, toolargs_core::Code::Type, "expected an object");
//! #             None
//! #         })
//! #     }
//! #     fn canonical(&self) -> serde_json::Value { serde_json::json!({}) }
//! #     fn schema(_: &FieldSpec<'_>) -> serde_json::Value { serde_json::json!({"type": "object"}) }
//! # }
//! # impl ToolArgs for Ping {
//! #     const NAME: &'static str = "ping";
//! #     const DESCRIPTION: Option<&'static str> = None;
//! #     const EFFECT: Effect = Effect::ReadOnly;
//! #     const UNKNOWN: UnknownPolicy = UnknownPolicy::Strip;
//! #     const OBJECT: bool = true;
//! # }
//! let mut tools = Toolbox::new();
//! tools.register(|_: Ping| Ok(serde_json::json!("pong")));
//! let mut session = Session::new();
//! match tools.dispatch(&mut session, ToolCall::new("call_1", "ping", "{}")) {
//!     Dispatch::Ran { output, .. } => assert_eq!(output, "pong"),
//!     other => panic!("{other:?}"),
//! }
//! ```

mod budget;
pub mod observe;

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Instant;

use tracing::Instrument;

use serde_json::{json, Value};

pub use budget::{Budget, Session};
pub use observe::AuditRecord;

use toolargs_core::decode::RawArgs;
use toolargs_core::dialect::Dialect;
use toolargs_core::effect::Effect;
use toolargs_core::options::ParseOptions;
use toolargs_core::report::{Rejection, Repair};
use toolargs_core::tool::{parse_with, ToolArgs};
use toolargs_semantic::{Decision, Profile, Review, SemanticGate};

/// What a handler returns: its output as JSON, or an error.
pub type ToolResult = Result<Value, Box<dyn std::error::Error + Send + Sync>>;

type BoxFuture = Pin<Box<dyn Future<Output = ToolResult> + Send>>;
type Erased = Box<dyn Any + Send>;
type ParseFn = dyn Fn(&RawArgs<'_>, &ParseOptions) -> Result<(Erased, Value, Vec<Repair>), Rejection>
    + Send
    + Sync;

enum Handler {
    Sync(Box<dyn Fn(Erased) -> ToolResult + Send + Sync>),
    Async(Box<dyn Fn(Erased) -> BoxFuture + Send + Sync>),
}

struct Entry {
    effect: Effect,
    definition: fn(Dialect) -> Value,
    profile: fn() -> Profile,
    parse: Box<ParseFn>,
    handler: Handler,
}

/// One call from the model, built with [`ToolCall::new`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ToolCall<'a> {
    /// The id of the logical call: a corrected retry must reuse it, so that the budget can
    /// count attempts (a provider's tool-call id changes with every attempt, so callers usually
    /// key by the tool name within a turn).
    pub id: String,
    /// The tool name.
    pub name: String,
    /// The arguments as the model sent them.
    pub arguments: RawArgs<'a>,
}

impl<'a> ToolCall<'a> {
    /// A call with the given id, tool name and arguments.
    pub fn new(
        id: impl Into<String>,
        name: impl Into<String>,
        arguments: impl Into<RawArgs<'a>>,
    ) -> Self {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: arguments.into(),
        }
    }
}

/// What the dispatcher decided.
#[derive(Debug)]
#[non_exhaustive]
// One value per call, matched right away and never stored in bulk: boxing the review would
// cost an allocation and a less direct pattern for no gain.
#[allow(clippy::large_enum_variant)]
pub enum Dispatch {
    /// The tool ran.
    Ran {
        /// Its output.
        output: Value,
        /// The repairs its arguments needed.
        repairs: Vec<Repair>,
        /// The attempt that succeeded, from 1.
        attempt: u32,
    },
    /// The arguments were rejected; send `message` back to the model as the tool result.
    Rejected {
        /// The model-facing error JSON (`Rejection::for_model`).
        message: String,
        /// This attempt's number, from 1.
        attempt: u32,
        /// Every error.
        rejection: Rejection,
    },
    /// The budget is spent: stop looping and escalate (a human, a fallback, a failed task).
    Exhausted {
        /// Why, for a log line.
        reason: String,
        /// The last rejection, when the arguments were the problem.
        rejection: Option<Rejection>,
    },
    /// The tool ran and failed on its own terms.
    Failed {
        /// The handler's error message.
        error: String,
        /// The attempt, from 1.
        attempt: u32,
    },
    /// No tool has this name; send `message` back to the model.
    UnknownTool {
        /// The model-facing message, naming the tools that exist.
        message: String,
    },
    /// The corrected call may mean something else than the original, and the tool writes,
    /// deletes, pays or notifies: a human or a policy hook decides. Run it with
    /// [`Toolbox::run_confirmed`], or drop it.
    Confirm {
        /// The semantic gate's findings, with a prompt for the person asked.
        review: Review,
        /// The call, parsed and held until someone decides.
        pending: Pending,
    },
    /// A field marked critical changed meaning in the correction: the call does not run.
    Refused {
        /// The semantic gate's findings.
        review: Review,
    },
}

impl Dispatch {
    /// How the call ended, for its span and duration histogram.
    fn outcome(&self) -> toolargs_core::telemetry::SpanOutcome<'_> {
        use toolargs_core::telemetry::SpanOutcome;
        let stopped = |error_type, outcome| SpanOutcome::Stopped {
            error_type,
            outcome,
        };
        match self {
            Dispatch::Ran { repairs, .. } => SpanOutcome::Accepted(repairs),
            Dispatch::Rejected { rejection, .. } => SpanOutcome::Rejected(rejection),
            Dispatch::Exhausted { .. } => stopped("retry_budget_exhausted", "exhausted"),
            Dispatch::Failed { .. } => stopped("tool_error", "failed"),
            Dispatch::UnknownTool { .. } => stopped("unknown_tool", "unknown_tool"),
            Dispatch::Confirm { .. } => stopped("confirmation_required", "confirm"),
            Dispatch::Refused { .. } => stopped("semantic_refusal", "refused"),
        }
    }
}

/// A parsed call held for confirmation.
pub struct Pending {
    tool: String,
    call_id: String,
    args: Erased,
    canonical: Value,
    repairs: Vec<Repair>,
    attempt: u32,
    raw: Value,
}

impl fmt::Debug for Pending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pending")
            .field("tool", &self.tool)
            .field("call_id", &self.call_id)
            .field("arguments", &self.canonical)
            .finish_non_exhaustive()
    }
}

impl Dispatch {
    /// What to send back to the model as the tool result, when the loop goes on.
    pub fn tool_result(&self) -> Option<String> {
        match self {
            Dispatch::Ran { output, .. } => Some(output.to_string()),
            Dispatch::Rejected { message, .. } | Dispatch::UnknownTool { message } => {
                Some(message.clone())
            }
            Dispatch::Failed { error, .. } => {
                Some(json!({"ok": false, "tool_error": error}).to_string())
            }
            Dispatch::Refused { review } => Some(review.for_model()),
            Dispatch::Exhausted { .. } | Dispatch::Confirm { .. } => None,
        }
    }
}

type Redact = Box<dyn Fn(&mut Value) + Send + Sync>;
type Audit = Box<dyn Fn(&AuditRecord) + Send + Sync>;

/// Registered tools, a retry budget, and the observability hooks.
#[derive(Default)]
pub struct Toolbox {
    tools: BTreeMap<&'static str, Entry>,
    budget: Budget,
    options: ParseOptions,
    /// The dialect the tools are shown to the model in, when set by [`Toolbox::published_in`].
    dialect: Option<Dialect>,
    redact: Option<Redact>,
    audit: Option<Audit>,
    semantic: Option<SemanticGate<'static>>,
}

impl fmt::Debug for Toolbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Toolbox")
            .field("tools", &self.tools.keys().collect::<Vec<_>>())
            .field("budget", &self.budget)
            .finish_non_exhaustive()
    }
}

impl Toolbox {
    /// An empty toolbox with the default [`Budget`].
    pub fn new() -> Toolbox {
        Toolbox::default()
    }

    /// Sets the retry budget.
    pub fn with_budget(mut self, budget: Budget) -> Toolbox {
        self.budget = budget;
        self
    }

    /// Sets the parse options used for every call.
    pub fn with_options(mut self, options: ParseOptions) -> Toolbox {
        self.options = options;
        self
    }

    /// A hook that redacts values (in place) before they reach an audit record: the raw and
    /// repaired arguments and every repair's `before` and `after`.
    pub fn with_redaction(
        mut self,
        redact: impl Fn(&mut Value) + Send + Sync + 'static,
    ) -> Toolbox {
        self.redact = Some(Box::new(redact));
        self
    }

    /// A hook that receives one [`AuditRecord`] per attempt.
    pub fn with_audit(mut self, audit: impl Fn(&AuditRecord) + Send + Sync + 'static) -> Toolbox {
        self.audit = Some(Box::new(audit));
        self
    }

    /// Runs the semantic gate on every corrected call (a repaired one, or a retry after a
    /// rejection) before it executes, comparing it with the call's first attempt: calls that
    /// may mean something else come back as [`Dispatch::Confirm`] or [`Dispatch::Refused`]
    /// according to the tool's effect and its critical fields.
    pub fn with_semantic_gate(mut self, gate: SemanticGate<'static>) -> Toolbox {
        self.semantic = Some(gate);
        self
    }

    /// Registers tool `T` with a synchronous handler.
    pub fn register<T, F>(&mut self, handler: F) -> &mut Self
    where
        T: ToolArgs + Send + 'static,
        F: Fn(T) -> ToolResult + Send + Sync + 'static,
    {
        let run = move |args: Erased| match args.downcast::<T>() {
            Ok(args) => handler(*args),
            Err(_) => Err("arguments of another type".into()),
        };
        self.insert::<T>(Handler::Sync(Box::new(run)))
    }

    /// Registers tool `T` with an asynchronous handler (run by [`Toolbox::dispatch_async`]).
    pub fn register_async<T, F, Fut>(&mut self, handler: F) -> &mut Self
    where
        T: ToolArgs + Send + 'static,
        F: Fn(T) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ToolResult> + Send + 'static,
    {
        let run = move |args: Erased| -> BoxFuture {
            match args.downcast::<T>() {
                Ok(args) => Box::pin(handler(*args)),
                Err(_) => Box::pin(async { Err("arguments of another type".into()) }),
            }
        };
        self.insert::<T>(Handler::Async(Box::new(run)))
    }

    fn insert<T: ToolArgs + Send + 'static>(&mut self, handler: Handler) -> &mut Self {
        let parse = |raw: &RawArgs<'_>, options: &ParseOptions| {
            parse_with::<T>(raw, options).map(|p| {
                let canonical = p.args.to_json();
                (Box::new(p.args) as Erased, canonical, p.repairs)
            })
        };
        self.tools.insert(
            T::NAME,
            Entry {
                effect: T::EFFECT,
                definition: T::tool_definition,
                profile: Profile::of::<T>,
                parse: Box::new(parse),
                handler,
            },
        );
        self
    }

    /// The names of the registered tools.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.tools.keys().copied()
    }

    /// The effect of a registered tool.
    pub fn effect(&self, name: &str) -> Option<Effect> {
        self.tools.get(name).map(|e| e.effect)
    }

    /// Every tool's definition in a provider's dialect, to send with the request.
    pub fn definitions(&self, dialect: Dialect) -> Vec<Value> {
        self.tools
            .values()
            .map(|e| (e.definition)(dialect))
            .collect()
    }

    /// Shows the tools to the model in `dialect` and parses their calls to match: OpenAI's
    /// strict mode sends `null` for every optional field it leaves out, so under it those
    /// nulls are read as absent and not counted as repairs. The limits and unknown-key override
    /// of [`Toolbox::with_options`] stay as they are.
    pub fn published_in(mut self, dialect: Dialect) -> Toolbox {
        self.options.null_as_absent = dialect.parse_options().null_as_absent;
        self.dialect = Some(dialect);
        self
    }

    /// The definitions in the dialect of [`Toolbox::published_in`]; `None` until it is set.
    pub fn published_definitions(&self) -> Option<Vec<Value>> {
        self.dialect.map(|dialect| self.definitions(dialect))
    }

    /// Dispatches one call to a synchronous handler.
    pub fn dispatch(&self, session: &mut Session, call: ToolCall<'_>) -> Dispatch {
        let span = toolargs_core::telemetry::tool_span(&call.name, Some(&call.id));
        let started = Instant::now();
        let dispatch = span.in_scope(|| match self.prepare(session, &call) {
            Ok(pending) => self.run_confirmed(session, pending),
            Err(done) => *done,
        });
        observe::finished(&span, &call.name, dispatch.outcome(), started.elapsed());
        dispatch
    }

    /// Dispatches one call, awaiting an asynchronous handler (synchronous ones run inline).
    pub async fn dispatch_async(&self, session: &mut Session, call: ToolCall<'_>) -> Dispatch {
        let span = toolargs_core::telemetry::tool_span(&call.name, Some(&call.id));
        let started = Instant::now();
        let dispatch = async {
            match self.prepare(session, &call) {
                Ok(pending) => self.run_confirmed_async(session, pending).await,
                Err(done) => *done,
            }
        }
        .instrument(span.clone())
        .await;
        observe::finished(&span, &call.name, dispatch.outcome(), started.elapsed());
        dispatch
    }

    /// Looks the tool up, checks the budget and parses the arguments.
    fn prepare(
        &self,
        session: &mut Session,
        call: &ToolCall<'_>,
    ) -> Result<Pending, Box<Dispatch>> {
        let attempt = session.begin(&call.id);
        let raw = raw_value(&call.arguments);
        if attempt == 1 {
            session.keep_original(&call.id, &raw);
        }
        let Some(entry) = self.tools.get(call.name.as_str()) else {
            session.spend(1);
            let names: Vec<&str> = self.names().collect();
            self.record(
                &call.name,
                &call.id,
                attempt,
                raw,
                None,
                Vec::new(),
                Vec::new(),
                "unknown_tool",
            );
            return Err(Box::new(self.over_budget(session, &call.id, attempt, None).unwrap_or_else(|| Dispatch::UnknownTool {
                message: json!({"ok": false, "errors": [{"error": "unknown_tool", "path": "$",
                    "message": format!("there is no tool named {:?}; tools: {}", call.name, names.join(", "))}]})
                .to_string(),
            })));
        };
        if session.spent() >= self.budget.per_session {
            return Err(Box::new(self.exhaust(
                session,
                call,
                format!(
                    "the session used its {} repairs and retries",
                    self.budget.per_session
                ),
                None,
            )));
        }
        match (entry.parse)(&call.arguments, &self.options) {
            Ok((args, canonical, repairs)) => {
                observe::repaired(&call.name, &repairs);
                session.spend(repairs.len() as u32);
                let pending = Pending {
                    tool: call.name.clone(),
                    call_id: call.id.clone(),
                    args,
                    canonical,
                    repairs,
                    attempt,
                    raw,
                };
                self.review(session, pending)
            }
            Err(rejection) => {
                observe::rejected(&call.name, &rejection);
                session.spend(1);
                let exhausted = self.over_budget(session, &call.id, attempt, Some(&rejection));
                let outcome = if exhausted.is_some() {
                    "exhausted"
                } else {
                    "rejected"
                };
                let errors = rejection.errors().to_vec();
                self.record(
                    &call.name,
                    &call.id,
                    attempt,
                    raw,
                    None,
                    Vec::new(),
                    errors,
                    outcome,
                );
                observe::outcome(&call.name, outcome);
                if let Some(done) = exhausted {
                    return Err(Box::new(done));
                }
                Err(Box::new(Dispatch::Rejected {
                    message: rejection.for_model(),
                    attempt,
                    rejection,
                }))
            }
        }
    }

    /// Sends a corrected call through the semantic gate, if there is one.
    fn review(&self, session: &mut Session, pending: Pending) -> Result<Pending, Box<Dispatch>> {
        let (Some(gate), Some(entry)) = (&self.semantic, self.tools.get(pending.tool.as_str()))
        else {
            return Ok(pending);
        };
        let corrected = pending.attempt > 1 || !pending.repairs.is_empty();
        if !corrected {
            return Ok(pending);
        }
        let original = session.original(&pending.call_id).unwrap_or(&pending.raw);
        let review = gate.compare(&(entry.profile)(), original, &pending.canonical);
        tracing::info!(target: "toolargs", tool = pending.tool.as_str(), decision = review.decision.as_str(), "corrected call reviewed");
        match review.decision {
            Decision::Proceed | Decision::ProceedAndReport => Ok(pending),
            Decision::Confirm => {
                session.settle(&pending.call_id);
                observe::outcome(&pending.tool, "confirm");
                Err(Box::new(Dispatch::Confirm { review, pending }))
            }
            Decision::Reject => {
                session.settle(&pending.call_id);
                observe::outcome(&pending.tool, "refused");
                Err(Box::new(Dispatch::Refused { review }))
            }
        }
    }

    /// Runs a call held by [`Dispatch::Confirm`] once someone approved it (synchronous handlers).
    pub fn run_confirmed(&self, session: &mut Session, pending: Pending) -> Dispatch {
        let result = match self.tools.get(pending.tool.as_str()).map(|e| &e.handler) {
            Some(Handler::Sync(run)) => run(pending.args),
            Some(Handler::Async(_)) => Err(format!(
                "`{}` has an async handler; use dispatch_async or run_confirmed_async",
                pending.tool
            )
            .into()),
            None => Err(format!("no tool named {:?}", pending.tool).into()),
        };
        self.finish(
            session,
            &pending.tool,
            &pending.call_id,
            pending.canonical,
            pending.repairs,
            pending.attempt,
            pending.raw,
            result,
        )
    }

    /// Runs a call held by [`Dispatch::Confirm`] once someone approved it.
    pub async fn run_confirmed_async(&self, session: &mut Session, pending: Pending) -> Dispatch {
        let result = match self.tools.get(pending.tool.as_str()).map(|e| &e.handler) {
            Some(Handler::Sync(run)) => run(pending.args),
            Some(Handler::Async(run)) => run(pending.args).await,
            None => Err(format!("no tool named {:?}", pending.tool).into()),
        };
        self.finish(
            session,
            &pending.tool,
            &pending.call_id,
            pending.canonical,
            pending.repairs,
            pending.attempt,
            pending.raw,
            result,
        )
    }

    /// `Exhausted` when this attempt used the call's last correction.
    fn over_budget(
        &self,
        session: &mut Session,
        call_id: &str,
        attempt: u32,
        rejection: Option<&Rejection>,
    ) -> Option<Dispatch> {
        if attempt <= self.budget.corrections_per_call {
            return None;
        }
        session.settle(call_id);
        let reason = format!(
            "call {call_id:?} was still wrong after {} corrections",
            self.budget.corrections_per_call
        );
        tracing::error!(target: "toolargs", call_id, attempt, "retry budget exhausted");
        Some(Dispatch::Exhausted {
            reason,
            rejection: rejection.cloned(),
        })
    }

    fn exhaust(
        &self,
        session: &mut Session,
        call: &ToolCall<'_>,
        reason: String,
        rejection: Option<Rejection>,
    ) -> Dispatch {
        session.settle(&call.id);
        tracing::error!(target: "toolargs", tool = call.name.as_str(), reason = reason.as_str(), "retry budget exhausted");
        observe::outcome(&call.name, "exhausted");
        Dispatch::Exhausted { reason, rejection }
    }

    #[allow(clippy::too_many_arguments)]
    fn finish(
        &self,
        session: &mut Session,
        tool: &str,
        call_id: &str,
        canonical: Value,
        repairs: Vec<Repair>,
        attempt: u32,
        raw: Value,
        result: ToolResult,
    ) -> Dispatch {
        session.settle(call_id);
        let outcome = match (&result, repairs.is_empty()) {
            (Err(_), _) => "failed",
            (Ok(_), true) => "clean",
            (Ok(_), false) => "repaired",
        };
        observe::outcome(tool, outcome);
        self.record(
            tool,
            call_id,
            attempt,
            raw,
            Some(canonical),
            repairs.clone(),
            Vec::new(),
            outcome,
        );
        match result {
            Ok(output) => Dispatch::Ran {
                output,
                repairs,
                attempt,
            },
            Err(error) => Dispatch::Failed {
                error: error.to_string(),
                attempt,
            },
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn record(
        &self,
        tool: &str,
        call_id: &str,
        attempt: u32,
        mut raw: Value,
        mut repaired: Option<Value>,
        mut repairs: Vec<Repair>,
        errors: Vec<toolargs_core::report::ArgumentError>,
        outcome: &'static str,
    ) {
        let Some(audit) = &self.audit else { return };
        if let Some(redact) = &self.redact {
            redact(&mut raw);
            if let Some(value) = repaired.as_mut() {
                redact(value);
            }
            for r in &mut repairs {
                redact(&mut r.before);
                redact(&mut r.after);
            }
        }
        audit(&AuditRecord {
            tool: tool.to_owned(),
            call_id: call_id.to_owned(),
            attempt,
            raw,
            repaired,
            repairs,
            errors,
            outcome,
        });
    }
}

/// The arguments as a JSON value for the audit record; text that is not JSON stays a string.
fn raw_value(raw: &RawArgs<'_>) -> Value {
    match raw {
        RawArgs::Text(text) => {
            serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_string()))
        }
        RawArgs::Bytes(bytes) => serde_json::from_slice(bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(bytes).into_owned())),
        RawArgs::Value(value) => value.as_ref().clone(),
    }
}
