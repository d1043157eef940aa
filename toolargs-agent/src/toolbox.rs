//! The toolbox: the registered tools with their handlers, its settings (budget, parse
//! options, dialect, hooks, semantic gate) and the definitions it publishes.

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

use crate::budget::Budget;
use crate::observe::AuditRecord;
use toolargs_core::decode::RawArgs;
use toolargs_core::dialect::Dialect;
use toolargs_core::effect::Effect;
use toolargs_core::options::ParseOptions;
use toolargs_core::report::{Rejection, Repair};
use toolargs_core::tool::{parse_with, ToolArgs};
use toolargs_semantic::{Profile, SemanticGate};

/// What a handler returns: its output as JSON, or an error.
pub type ToolResult = Result<Value, Box<dyn std::error::Error + Send + Sync>>;

type BoxFuture = Pin<Box<dyn Future<Output = ToolResult> + Send>>;
pub(crate) type Erased = Box<dyn Any + Send>;
type ParseFn = dyn Fn(&RawArgs<'_>, &ParseOptions) -> Result<(Erased, Value, Vec<Repair>), Rejection>
    + Send
    + Sync;

pub(crate) enum Handler {
    Sync(Box<dyn Fn(Erased) -> ToolResult + Send + Sync>),
    Async(Box<dyn Fn(Erased) -> BoxFuture + Send + Sync>),
}

pub(crate) struct Entry {
    pub(crate) effect: Effect,
    pub(crate) definition: fn(Dialect) -> Value,
    pub(crate) profile: fn() -> Profile,
    pub(crate) parse: Box<ParseFn>,
    pub(crate) handler: Handler,
}

type Redact = Box<dyn Fn(&mut Value) + Send + Sync>;
type Audit = Box<dyn Fn(&AuditRecord) + Send + Sync>;

/// Registered tools, a retry budget, and the observability hooks.
#[derive(Default)]
pub struct Toolbox {
    pub(crate) tools: BTreeMap<&'static str, Entry>,
    pub(crate) budget: Budget,
    pub(crate) options: ParseOptions,
    /// The dialect the tools are shown to the model in, when set by [`Toolbox::published_in`].
    pub(crate) dialect: Option<Dialect>,
    pub(crate) redact: Option<Redact>,
    pub(crate) audit: Option<Audit>,
    pub(crate) semantic: Option<SemanticGate<'static>>,
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
    /// may mean something else come back as [`Dispatch::Confirm`](crate::Dispatch::Confirm)
    /// or [`Dispatch::Refused`](crate::Dispatch::Refused) according to the tool's effect and
    /// its critical fields.
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
}
