//! Tools for [rig](https://docs.rs/rig-core) agents: a derived type as a rig tool's arguments
//! and its schema.
//!
//! rig deserializes a tool's arguments with serde and answers a failure with the text of that
//! one serde error. [`Args<T>`] runs [`ToolArgs::parse`] inside `Deserialize` and never
//! fails, so the tool receives the parsed arguments with their repairs, or the [`Rejection`];
//! [`Args::parsed`] turns a rejection into a rig [`ToolExecutionError`] of kind `invalid_args`
//! whose model-visible output is [`Rejection::for_model`], every error at once.
//!
//! ```
//! use rig::tool::{ErasedTool, Tool, ToolContext, ToolExecutionError};
//! use toolargs::rig::Args;
//! use toolargs::ToolArgs;
//!
//! /// Refund part of an order.
//! #[derive(ToolArgs, Debug)]
//! #[toolargs(name = "issue_refund", effect = "external")]
//! struct IssueRefund {
//!     #[arg(pattern = r"ord_[A-Za-z0-9]{8}")]
//!     order_id: String,
//!     #[arg(min = 1, max = 50000)]
//!     amount_cents: i64,
//! }
//!
//! struct Refunds;
//!
//! impl Tool for Refunds {
//!     const NAME: &'static str = IssueRefund::NAME;
//!     type Args = Args<IssueRefund>;
//!     type Output = String;
//!     type Error = ToolExecutionError;
//!
//!     fn description(&self) -> String {
//!         toolargs::rig::description::<IssueRefund>()
//!     }
//!
//!     fn parameters(&self) -> serde_json::Value {
//!         toolargs::rig::parameters::<IssueRefund>()
//!     }
//!
//!     async fn call(&self, _: &mut ToolContext, args: Args<IssueRefund>) -> Result<String, ToolExecutionError> {
//!         let parsed = args.parsed()?; // a rejection goes back to the model, every error listed
//!         Ok(format!("refunded {} cents", parsed.args.amount_cents))
//!     }
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let mut context = ToolContext::default();
//! let result = Refunds.execute(r#"{"order_id":"ord_A1b2C3d4","amount_cents":"1999"}"#.into(), &mut context).await;
//! assert_eq!(result.output().as_text(), Some("refunded 1999 cents"));
//!
//! let result = Refunds.execute(r#"{"order_id":"ord_A1b2C3d4","amount":1999}"#.into(), &mut context).await;
//! assert!(result.is_error());
//! assert!(result.output().as_text().unwrap().starts_with(r#"{"ok":false,"errors":[{"error":"unknown_field""#));
//! # });
//! ```
//!
//! Without a type of its own, [`dynamic_tool`] makes a rig [`DynamicTool`] from a derived type
//! and an async handler of the parsed arguments.
//!
//! # Published in OpenAI's strict mode
//!
//! Strict mode makes every property required and sends `null` for an optional field the model
//! leaves out; such a `null` conforms to the schema the model was shown, and is no repair when
//! the call is parsed with that dialect's options ([`Dialect::parse_options`]). The tool's
//! definition and the parse of its calls therefore come from one place:
//!
//! - a [`Tool`](::rig::tool::Tool) with `type Args = StrictArgs<T>` takes its `parameters`
//!   from [`StrictArgs::<T>::parameters()`](Args::parameters): the strict schema, and calls
//!   parsed as strict mode sends them;
//! - [`dynamic_tool_in`] publishes a dynamic tool in any [`Dialect`] and parses its calls with
//!   that dialect's options.
//!
//! ```
//! use rig::tool::{ErasedTool, Tool, ToolContext, ToolExecutionError};
//! use toolargs::rig::StrictArgs;
//! use toolargs::ToolArgs;
//!
//! /// Refund part of an order.
//! #[derive(ToolArgs, Debug)]
//! #[toolargs(name = "issue_refund", effect = "external")]
//! struct IssueRefund {
//!     #[arg(min = 1, max = 50000)]
//!     amount_cents: i64,
//!     note: Option<String>,
//! }
//!
//! struct Refunds;
//!
//! impl Tool for Refunds {
//!     const NAME: &'static str = IssueRefund::NAME;
//!     type Args = StrictArgs<IssueRefund>;
//!     type Output = String;
//!     type Error = ToolExecutionError;
//!
//!     fn description(&self) -> String {
//!         toolargs::rig::description::<IssueRefund>()
//!     }
//!
//!     fn parameters(&self) -> serde_json::Value {
//!         StrictArgs::<IssueRefund>::parameters() // every property required, `note` nullable
//!     }
//!
//!     async fn call(&self, _: &mut ToolContext, args: Self::Args) -> Result<String, ToolExecutionError> {
//!         let parsed = args.parsed()?;
//!         Ok(format!("{} repairs", parsed.repairs.len()))
//!     }
//! }
//!
//! let parameters = rig::tool::tool_definition(&Refunds).parameters;
//! assert_eq!(parameters["required"], serde_json::json!(["amount_cents", "note"]));
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let mut context = ToolContext::default();
//! let result = Refunds.execute(r#"{"amount_cents":1999,"note":null}"#.into(), &mut context).await;
//! assert_eq!(result.output().as_text(), Some("0 repairs")); // the null is how strict mode leaves it out
//! # });
//! ```

use std::collections::HashMap;
use std::fmt;
use std::future::Future;

use ::rig::completion::ToolDefinition;
use ::rig::message::ToolName;
use ::rig::streaming::{Part, PartKind, StreamEvent};
use ::rig::tool::{DynamicTool, IntoToolOutput, ToolExecutionError, ToolOutput};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::stream::{ArgStream, Typed};
use crate::{parse_with, Dialect, ParseOptions, Parsed, Rejection, ToolArgs};

/// Tool arguments that went through the parser: a rig tool's `type Args = Args<T>`.
///
/// Its `Deserialize` runs [`ToolArgs::parse`] on the arguments as the model wrote them and
/// never fails, so rig always calls the tool. Reading the model's text, the parser also sees
/// a key sent twice (`duplicate_key`).
///
/// What it adds to the derived type as `type Args` (feature `serde`): the tool receives the
/// [`Parsed`] arguments with their typed repairs, or the [`Rejection`] with its errors, where
/// the derived `Deserialize` gives only the value (its repairs are `tracing` events) or one
/// serde error; and the parser reads the model's text, where a decoded value has lost a key
/// sent twice.
///
/// `STRICT` says which schema the model was shown, and parses to match: `false` (the default)
/// for [`parameters`], `true` ([`StrictArgs`]) for OpenAI's strict mode, under which a `null`
/// for an optional field is no repair ([`Dialect::parse_options`]). [`Args::parameters`] and
/// [`Args::definition`] publish the schema the arguments are parsed against.
pub struct Args<T, const STRICT: bool = false>(pub Result<Parsed<T>, Rejection>);

/// The arguments of a tool published in OpenAI's strict mode: [`Args<T, true>`](Args).
/// Its `parameters` are [`StrictArgs::<T>::parameters()`](Args::parameters).
pub type StrictArgs<T> = Args<T, true>;

impl<T: ToolArgs, const STRICT: bool> Args<T, STRICT> {
    /// The dialect these arguments are published in and parsed as:
    /// [`Dialect::OpenAiChat { strict: true }`](Dialect::OpenAiChat) when `STRICT`,
    /// otherwise [`Dialect::Anthropic`] (the schema rig hands its providers, [`parameters`]).
    pub const DIALECT: Dialect = if STRICT {
        Dialect::OpenAiChat { strict: true }
    } else {
        Dialect::Anthropic
    };

    /// The arguments' schema in [`Self::DIALECT`](Args::DIALECT), for the tool's
    /// `parameters`: the schema the calls are parsed against. A type with a map or an open
    /// value field has no strict form, and its schema is OpenAI's without strict mode (as
    /// [`ToolArgs::tool_definition`] publishes it); its calls are still parsed with strict
    /// mode's options, which then leave a `null` for an optional field unrecorded.
    pub fn parameters() -> Value {
        published_parameters::<T>(Self::DIALECT).1
    }

    /// rig's [`ToolDefinition`] of `T` in [`Self::DIALECT`](Args::DIALECT).
    pub fn definition() -> ToolDefinition {
        definition_in::<T>(Self::DIALECT)
    }

    /// The options the arguments are parsed with: those of [`Self::DIALECT`](Args::DIALECT).
    pub const fn options() -> ParseOptions {
        Self::DIALECT.parse_options()
    }
}

impl<T, const STRICT: bool> Args<T, STRICT> {
    /// The outcome of the parse: the arguments with their repairs, or the rejection.
    pub fn into_inner(self) -> Result<Parsed<T>, Rejection> {
        self.0
    }

    /// The parsed arguments, or the rejection as a rig error for the model
    /// ([`rejection_error`]). Made for `?` in a tool whose `Error` is [`ToolExecutionError`].
    pub fn parsed(self) -> Result<Parsed<T>, ToolExecutionError> {
        self.0.map_err(|rejection| rejection_error(&rejection))
    }

    /// The rejection, if the arguments were rejected.
    pub fn rejection(&self) -> Option<&Rejection> {
        self.0.as_ref().err()
    }
}

impl<T: fmt::Debug, const STRICT: bool> fmt::Debug for Args<T, STRICT> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Args").field(&self.0).finish()
    }
}

impl<T: Clone, const STRICT: bool> Clone for Args<T, STRICT> {
    fn clone(&self) -> Self {
        Args(self.0.clone())
    }
}

impl<'de, T: ToolArgs, const STRICT: bool> Deserialize<'de> for Args<T, STRICT> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Args(super::serde_parse::deserialize(
            deserializer,
            &Args::<T, STRICT>::options(),
        )))
    }
}

/// A rejection as a rig error: kind `invalid_args`, [`Rejection::for_model`] as what the model
/// reads, the [`Rejection`]'s display as the message for operators, and the rejection itself as
/// the source (`error.downcast_ref::<Rejection>()` gives every error back).
pub fn rejection_error(rejection: &Rejection) -> ToolExecutionError {
    ToolExecutionError::invalid_args(rejection.to_string())
        .with_model_output(ToolOutput::text(rejection.for_model()))
        .with_source(rejection.clone())
}

/// The tool's description for rig (the doc comment of `T`, empty when it has none).
pub fn description<T: ToolArgs>() -> String {
    T::DESCRIPTION.unwrap_or_default().to_owned()
}

/// The arguments' JSON Schema as rig passes it to every provider: the schema of
/// [`ToolArgs::json_schema`] without the root's `$schema`, `title` and a `description` that
/// repeats the tool's (rig's providers adapt it further, for instance to OpenAI's strict mode
/// when asked to).
pub fn parameters<T: ToolArgs>() -> Value {
    Dialect::Anthropic.parameters(&T::json_schema(), T::DESCRIPTION)
}

/// rig's [`ToolDefinition`] of `T`: its name, description and [`parameters`].
pub fn definition<T: ToolArgs>() -> ToolDefinition {
    ToolDefinition::new(tool_name::<T>(), description::<T>(), parameters::<T>())
}

/// rig's [`ToolDefinition`] of `T` with the schema in a provider's dialect
/// ([`Dialect::parameters`]), for a provider rig hands the schema to unchanged.
///
/// Parse the calls made against it with that dialect's options: [`dynamic_tool_in`] does both
/// for a dynamic tool, and [`Args::definition`] is this definition for the dialect its
/// arguments are parsed as (OpenAI's strict mode with [`StrictArgs`]).
///
/// A type with a map or an open value field has no form in OpenAI's strict mode, and is
/// published without it, as [`ToolArgs::tool_definition`] publishes it.
pub fn definition_in<T: ToolArgs>(dialect: Dialect) -> ToolDefinition {
    let (_, parameters) = published_parameters::<T>(dialect);
    ToolDefinition::new(tool_name::<T>(), description::<T>(), parameters)
}

/// The dialect `T` is published in when asked for `dialect`, and its schema there: OpenAI's
/// strict mode becomes its plain form for a schema with open parts (a map, an open value),
/// which strict mode cannot express (see [`has_open_parts`](crate::dialect::has_open_parts)).
fn published_parameters<T: ToolArgs>(dialect: Dialect) -> (Dialect, Value) {
    let schema = T::json_schema();
    let dialect = match dialect {
        Dialect::OpenAiChat { strict: true } if crate::dialect::has_open_parts(&schema) => {
            Dialect::OpenAiChat { strict: false }
        }
        Dialect::OpenAiResponses { strict: true } if crate::dialect::has_open_parts(&schema) => {
            Dialect::OpenAiResponses { strict: false }
        }
        other => other,
    };
    let parameters = dialect.parameters(&schema, T::DESCRIPTION);
    (dialect, parameters)
}

/// A rig [`DynamicTool`] named, described and typed by `T`, whose `handler` receives the
/// parsed arguments; a rejected call never reaches it and returns [`rejection_error`].
///
/// rig hands a dynamic tool its arguments already decoded, so a key sent twice arrives with
/// its last value; a [`Tool`](::rig::tool::Tool) with `type Args = Args<T>` reads the model's
/// text and rejects it (`duplicate_key`).
///
/// ```
/// use rig::tool::ToolExecutionError;
/// use toolargs::ToolArgs;
///
/// /// Look an order up.
/// #[derive(ToolArgs)]
/// #[toolargs(name = "get_order", effect = "read_only")]
/// struct GetOrder {
///     order_id: String,
/// }
///
/// let tool = toolargs::rig::dynamic_tool(|call: toolargs::Parsed<GetOrder>| async move {
///     Ok::<_, ToolExecutionError>(format!("order {} is shipped", call.args.order_id))
/// });
/// assert_eq!(tool.name().as_str(), "get_order");
/// assert_eq!(tool.definition(), toolargs::rig::definition::<GetOrder>());
/// ```
pub fn dynamic_tool<T, F, Fut, O>(handler: F) -> DynamicTool
where
    T: ToolArgs + Send + 'static,
    F: Fn(Parsed<T>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<O, ToolExecutionError>> + Send + 'static,
    O: IntoToolOutput,
{
    dynamic_tool_in(Dialect::Anthropic, handler)
}

/// [`dynamic_tool`] published in `dialect`: its definition is [`definition_in`]`(dialect)`,
/// and its calls are parsed with [`Dialect::parse_options`] of the dialect it is published in,
/// so that under OpenAI's strict mode the `null` sent for an optional field is no repair (a
/// type with no strict form is published, and parsed, without strict mode).
///
/// ```
/// use rig::tool::ToolExecutionError;
/// use toolargs::{Dialect, ToolArgs};
///
/// /// Look an order up.
/// #[derive(ToolArgs)]
/// #[toolargs(name = "get_order", effect = "read_only")]
/// struct GetOrder {
///     order_id: String,
///     fields: Option<Vec<String>>,
/// }
///
/// let strict = Dialect::OpenAiChat { strict: true };
/// let tool = toolargs::rig::dynamic_tool_in(strict, |call: toolargs::Parsed<GetOrder>| async move {
///     Ok::<_, ToolExecutionError>(format!("{} repairs", call.repairs.len()))
/// });
/// assert_eq!(tool.definition(), toolargs::rig::definition_in::<GetOrder>(strict));
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let output = tool.execute(serde_json::json!({"order_id": "ord_1", "fields": null})).await.unwrap();
/// assert_eq!(output.as_text(), Some("0 repairs"));
/// # });
/// ```
pub fn dynamic_tool_in<T, F, Fut, O>(dialect: Dialect, handler: F) -> DynamicTool
where
    T: ToolArgs + Send + 'static,
    F: Fn(Parsed<T>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<O, ToolExecutionError>> + Send + 'static,
    O: IntoToolOutput,
{
    let (dialect, parameters) = published_parameters::<T>(dialect);
    let options = dialect.parse_options();
    DynamicTool::new(
        tool_name::<T>(),
        description::<T>(),
        parameters,
        move |arguments: Value| {
            let call = parse_with(&arguments.into(), &options).map(&handler);
            Box::pin(async move {
                match call {
                    Ok(running) => running.await?.into_tool_output(),
                    Err(rejection) => Err(rejection_error(&rejection)),
                }
            })
        },
    )
}

fn tool_name<T: ToolArgs>() -> ToolName {
    const { assert!(!T::NAME.is_empty(), "a tool name cannot be empty") };
    ToolName::new(T::NAME).expect("the name was checked not to be empty")
}

/// What [`StreamedCalls::push`] found in an event.
#[derive(Debug)]
pub enum CallEvent<T> {
    /// A call to the tool is certain to be rejected, before it is complete: stop the
    /// generation, or tell the user. Its end still comes as [`CallEvent::Finished`].
    Rejected {
        /// The call's part of the response.
        part: Part,
        /// What is certain so far.
        rejection: Rejection,
    },
    /// A call to the tool is complete: the strict verdict, exactly `T::parse` on its
    /// arguments.
    Finished {
        /// The call's part of the response.
        part: Part,
        /// The verdict.
        verdict: Result<Parsed<T>, Rejection>,
    },
}

/// The calls of a tool in a rig completion stream, judged while their arguments arrive: one
/// [`ArgStream`] for each tool call a [`StreamEvent::Start`] opens under `T::NAME`, fed by its
/// [`StreamEvent::Arguments`] and finished by its [`StreamEvent::End`] (see
/// [`crate::guide::streaming`]). Events of other parts and other tools are passed over.
///
/// ```
/// use rig::streaming::StreamEvent;
/// use toolargs::rig::{CallEvent, StreamedCalls};
/// use toolargs::ToolArgs;
///
/// #[derive(ToolArgs, Debug)]
/// #[toolargs(name = "issue_refund", effect = "external")]
/// struct IssueRefund {
///     #[arg(min = 1, max = 50000)]
///     amount_cents: i64,
/// }
///
/// let events: Vec<StreamEvent> = serde_json::from_value(serde_json::json!([
///     {"event": "start", "part": 0, "kind": "tool_call", "name": "issue_refund"},
///     {"event": "arguments", "part": 0, "json": "{\"amount_cents\": 90000, "},
/// ])).unwrap();
/// let mut calls = StreamedCalls::<IssueRefund>::new();
/// assert!(calls.push(&events[0]).is_none());
/// let Some(CallEvent::Rejected { rejection, .. }) = calls.push(&events[1]) else { panic!() };
/// assert_eq!(rejection.errors()[0].code, "out_of_range");
/// ```
pub struct StreamedCalls<T: ToolArgs> {
    open: HashMap<Part, ArgStream<Typed<T>>>,
    options: ParseOptions,
}

impl<T: ToolArgs> StreamedCalls<T> {
    /// No call yet; calls are parsed with the default options.
    pub fn new() -> Self {
        Self::with_options(ParseOptions::DEFAULT)
    }

    /// No call yet; calls are parsed with `options` (such as a dialect's
    /// [`parse_options`](Dialect::parse_options)).
    pub fn with_options(options: ParseOptions) -> Self {
        StreamedCalls {
            open: HashMap::new(),
            options,
        }
    }

    /// Reads one event of the stream.
    pub fn push(&mut self, event: &StreamEvent) -> Option<CallEvent<T>> {
        match event {
            StreamEvent::Start {
                part,
                kind: PartKind::ToolCall,
                name: Some(name),
            } if name.as_ref() == T::NAME => {
                self.open.insert(*part, T::stream_with(self.options));
                None
            }
            StreamEvent::Arguments { part, json } => {
                let stream = self.open.get_mut(part)?;
                let known = stream.is_rejected();
                match stream.feed(json) {
                    Err(rejection) if !known => Some(CallEvent::Rejected {
                        part: *part,
                        rejection,
                    }),
                    _ => None,
                }
            }
            StreamEvent::End { part, .. } => {
                let verdict = self.open.remove(part)?.finish();
                Some(CallEvent::Finished {
                    part: *part,
                    verdict,
                })
            }
            _ => None,
        }
    }
}

impl<T: ToolArgs> Default for StreamedCalls<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: ToolArgs> fmt::Debug for StreamedCalls<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamedCalls")
            .field("open", &self.open.len())
            .finish_non_exhaustive()
    }
}
