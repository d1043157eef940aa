//! The toolargs replay gate as an [Apache DataFusion](https://datafusion.apache.org) scalar
//! function: check recorded tool calls with SQL, over Parquet or JSON logs of any size.
//!
//! `toolargs replay` (the `toolargs-cli` crate) reads JSON Lines. When the calls already sit in
//! a table (Parquet files written by a logging pipeline, a data lake), this crate brings the
//! gate to the data instead: [`register`] adds the function `toolargs_check(tool, arguments)`
//! to a [`SessionContext`], and every query can judge calls, count outcomes, group them by any
//! column, or pick out the rejected calls of one model.
//!
//! The policy is exactly replay's: the function looks the tool's judge up with
//! [`ToolSet::judge`] and judges the arguments with
//! [`Judge::check`](toolargs_replay::Judge::check), with the same
//! [`ParseOptions`] ([`ParseOptions::DEFAULT`] unless set with [`ToolargsCheck::with_options`],
//! and, as in replay, errors judged without their messages, which the function never returns:
//! [`ParseOptions::omit_messages`]).
//! The tool definitions are loaded once, into a [`ToolSet`] that the function holds in an
//! [`Arc`]; every partition of every query shares it.
//!
//! # The function
//!
//! `toolargs_check(tool, arguments)` takes two string columns (`Utf8`, `LargeUtf8` or
//! `Utf8View`; a `NULL` literal is accepted for either):
//!
//! - `tool`: the tool's name. `NULL` picks the only tool when the set holds exactly one, as a
//!   log record without `tool` does in replay.
//! - `arguments`: the arguments as the model sent them, JSON text (a fenced or double-encoded
//!   payload is text too, and repaired or rejected as replay would). Arguments a log holds as
//!   an already-decoded object belong here as that object's JSON text.
//!
//! It returns, for every row, a struct:
//!
//! | field | type | what |
//! |---|---|---|
//! | `outcome` | `Utf8` | `clean`, `repaired` or `rejected` for a judged call; `unchecked` for a call to a tool whose definition was refused ([`ToolSet::refused`]); `unknown_tool`, `missing_tool` or `missing_arguments` for a row that is not a call, named as replay's bad records ([`BadRecord::as_str`]) |
//! | `codes` | `List<Utf8>` | a rejected call's error codes, each distinct code once (empty otherwise) |
//! | `rules` | `List<Utf8>` | an accepted call's repair rules, one entry per repair, in order (empty otherwise) |
//!
//! A `NULL` `arguments` is `missing_arguments`; arguments that are not JSON are a call the
//! gate rejects, with the code it gives. No row makes the function fail or panic; a column
//! that is not a string is refused when the query is planned.
//!
//! Counting `outcome`, and the unnested `codes` and `rules`, gives the counters of a replay
//! [`Report`](toolargs_replay::Report): `ok_clean`, `ok_repaired`, `rejected`, `unchecked`,
//! `bad_records` by reason, `rejections` by code and `repairs` by rule. The crate's tests
//! check exactly that on the replay fixtures of the `toolargs` command.
//!
//! The struct's fields are read with `get_field(c, 'outcome')`, which any build of DataFusion
//! has. The shorter `c['outcome']` needs DataFusion's feature `nested_expressions` (one of its
//! default features; this crate does not enable it, to build faster); an application that
//! depends on DataFusion with its default features has it.
//!
//! ```no_run
//! use std::sync::Arc;
//! use datafusion::prelude::{ParquetReadOptions, SessionContext};
//! use toolargs_replay::ToolSet;
//!
//! # async fn run() -> datafusion::error::Result<()> {
//! let tools = ToolSet::from_json_lenient(&std::fs::read_to_string("tools.json")?)
//!     .map_err(|e| datafusion::error::DataFusionError::External(e.into()))?;
//! let ctx = SessionContext::new();
//! toolargs_datafusion::register(&ctx, Arc::new(tools));
//! ctx.register_parquet("calls", "calls/", ParquetReadOptions::default()).await?;
//! ctx.sql(
//!     "CREATE VIEW checked AS \
//!      SELECT *, toolargs_check(tool, arguments) AS c FROM calls",
//! )
//! .await?;
//!
//! // Outcomes per model.
//! ctx.sql(
//!     "SELECT model, get_field(c, 'outcome') AS outcome, count(*) AS n \
//!      FROM checked GROUP BY model, outcome ORDER BY model, outcome",
//! )
//! .await?
//! .show()
//! .await?;
//!
//! // Rejections by code: a rejected call counts once per distinct code.
//! ctx.sql(
//!     "SELECT code, count(*) AS n \
//!      FROM (SELECT unnest(get_field(c, 'codes')) AS code FROM checked) \
//!      GROUP BY code ORDER BY n DESC",
//! )
//! .await?
//! .show()
//! .await?;
//!
//! // The rejected calls of one model, with their codes.
//! ctx.sql(
//!     "SELECT arguments, get_field(c, 'codes') AS codes FROM checked \
//!      WHERE model = 'model-a' AND get_field(c, 'outcome') = 'rejected' LIMIT 20",
//! )
//! .await?
//! .show()
//! .await?;
//! # Ok(())
//! # }
//! ```
//!
//! DataFusion reads a directory of Parquet files as one table, a file in parallel by row
//! groups, and streams: memory stays bounded by the batches in flight, whatever the size of
//! the log. JSON Lines logs whose `arguments` are always strings can be read with
//! `SessionContext::register_json`; a log that mixes strings and decoded objects in one field
//! has no single Arrow type for it, so convert it first (the decoded objects as their JSON
//! text, as the tests and the throughput example of this crate do).
//!
//! # Distributed
//!
//! The function is an ordinary [`ScalarUDF`], so an engine that runs DataFusion plans on
//! several machines can run it, provided every process that plans or executes the query has
//! it registered, with the same tool definitions (read from a file each process can reach).
//! A plan sent to another process names the function; it does not carry the function or its
//! tool set, and the receiving process resolves the name in its own registry, so a process
//! without the function fails the query with an unknown-function error rather than
//! judging calls differently.
//!
//! What is verified and what is only documented:
//!
//! - **Verified** by this crate's tests: in one process, over several Parquet files with
//!   several row groups each, on several target partitions, the counts equal replay's.
//! - **Documented, not tested here**: [Apache DataFusion
//!   Ballista](https://datafusion.apache.org/ballista/). Its extension points, as its
//!   documentation describes them: the client registers the function on the `SessionState`
//!   it connects with (`SessionContext::remote_with_state`); the scheduler, which plans,
//!   builds each session's state in a session builder
//!   (`SchedulerConfig::with_override_session_builder`), where the function is added like
//!   any other; each executor takes its functions from
//!   `ExecutorProcessConfig::override_function_registry`, a `BallistaFunctionRegistry` whose
//!   `scalar_functions` map gets `toolargs_check` ⇒ `Arc::new(toolargs_check_udf(tools))`
//!   next to the defaults. That means building the scheduler and executor binaries with this
//!   crate linked in, rather than running Ballista's prebuilt ones.
//! - **Documented, not tested here**: `datafusion-distributed`, which runs stages of a
//!   DataFusion plan on workers over Arrow Flight. Its documentation has each worker build
//!   its `SessionState` in a session builder (`Worker::from_session_builder`), which receives
//!   a `SessionStateBuilder`: add the function there with
//!   `with_scalar_functions(vec![Arc::new(toolargs_check_udf(tools))])`, and on the context
//!   that plans the query with [`register`].
//!
//! Neither runner is a dependency of this crate, and their names above are as their
//! documentation gives them, not compiled against here. Each release of either is built on one
//! DataFusion version; pair it with a build of this crate on the same version (this crate is
//! on DataFusion 55).
//!
//! Scaling out needs no runner when only counts are wanted: the function keeps no state from
//! one row to the next, so separate processes over separate sets of files give counts that
//! add up to the counts of the whole.

use std::borrow::Cow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use datafusion::arrow::array::{
    Array, ArrayAccessor, ArrayRef, LargeStringArray, ListBuilder, StringArray, StringBuilder,
    StringViewArray, StructArray,
};
use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::common::{exec_err, plan_err, Result};
use datafusion::logical_expr::{
    ColumnarValue, ScalarFunctionArgs, ScalarUDF, ScalarUDFImpl, Signature, Volatility,
};
use datafusion::prelude::SessionContext;
use toolargs_core::{ParseOptions, RawArgs};
use toolargs_replay::{BadRecord, Outcome, ToolSet};

/// The name the function is registered under.
pub const FUNCTION_NAME: &str = "toolargs_check";

/// `outcome` of a call a tool's refused definition could not judge (replay's `unchecked`).
pub const UNCHECKED: &str = "unchecked";

/// Registers `toolargs_check(tool, arguments)` on `ctx`, judging calls against `tools`.
pub fn register(ctx: &SessionContext, tools: impl Into<Arc<ToolSet>>) {
    ctx.register_udf(toolargs_check_udf(tools));
}

/// The function as a [`ScalarUDF`], to register on any function registry (a `SessionState`
/// built by hand, a distributed runner's scheduler and executors).
pub fn toolargs_check_udf(tools: impl Into<Arc<ToolSet>>) -> ScalarUDF {
    ScalarUDF::from(ToolargsCheck::new(tools))
}

/// The `toolargs_check` function: a [`ToolSet`] shared by every call, and the parse options.
#[derive(Clone)]
pub struct ToolargsCheck {
    tools: Arc<ToolSet>,
    options: ParseOptions,
    signature: Signature,
}

impl ToolargsCheck {
    /// The function over `tools`, with [`ParseOptions::DEFAULT`] as replay uses (errors
    /// without their messages).
    pub fn new(tools: impl Into<Arc<ToolSet>>) -> ToolargsCheck {
        ToolargsCheck {
            tools: tools.into(),
            options: ParseOptions::DEFAULT,
            signature: Signature::user_defined(Volatility::Immutable),
        }
        .with_options(ParseOptions::DEFAULT)
    }

    /// Parses calls with these options instead of the defaults (as
    /// [`Replayer::with_options`](toolargs_replay::Replayer::with_options) does, messages
    /// omitted).
    pub fn with_options(mut self, options: ParseOptions) -> ToolargsCheck {
        self.options = options.with_omit_messages(true);
        self
    }

    /// The tools calls are judged against.
    pub fn tools(&self) -> &Arc<ToolSet> {
        &self.tools
    }

    /// The type of the result: `Struct(outcome Utf8, codes List<Utf8>, rules List<Utf8>)`.
    pub fn result_type() -> DataType {
        DataType::Struct(result_fields())
    }

    /// What `tool` and `arguments` amount to, as replay's record reader decides it.
    fn verdict(&self, tool: Option<&str>, arguments: Option<&str>) -> Verdict {
        let Some(arguments) = arguments else {
            return Verdict::NotACall(BadRecord::MissingArguments);
        };
        match self.tools.judge(tool) {
            Ok(judge) => Verdict::Judged(Outcome::from_result(
                judge.check(&RawArgs::Text(Cow::Borrowed(arguments)), &self.options),
            )),
            Err(reason) => match self.tools.refusal(tool) {
                Some(_) => Verdict::Unchecked,
                None => Verdict::NotACall(reason),
            },
        }
    }
}

/// What became of one row.
enum Verdict {
    Judged(Outcome),
    Unchecked,
    NotACall(BadRecord),
}

fn result_fields() -> Fields {
    let list = || DataType::List(Arc::new(Field::new_list_field(DataType::Utf8, false)));
    Fields::from(vec![
        Field::new("outcome", DataType::Utf8, false),
        Field::new("codes", list(), false),
        Field::new("rules", list(), false),
    ])
}

impl fmt::Debug for ToolargsCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolargsCheck")
            .field("tools", &self.tools.names().collect::<Vec<_>>())
            .field("refused", &self.tools.refused().len())
            .field("options", &self.options)
            .finish()
    }
}

// Two instances are the same function when they share the tool set and the options.
impl PartialEq for ToolargsCheck {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.tools, &other.tools) && self.options == other.options
    }
}

impl Eq for ToolargsCheck {}

impl Hash for ToolargsCheck {
    fn hash<H: Hasher>(&self, state: &mut H) {
        Arc::as_ptr(&self.tools).hash(state);
    }
}

/// The strings of a column of any of Arrow's string types.
enum Strings<'a> {
    Utf8(&'a StringArray),
    LargeUtf8(&'a LargeStringArray),
    Utf8View(&'a StringViewArray),
    /// A column of nulls only (the type `Null`).
    Nulls,
}

impl<'a> Strings<'a> {
    fn of(array: &'a ArrayRef, what: &str) -> Result<Strings<'a>> {
        let any = array.as_any();
        let strings = match array.data_type() {
            DataType::Utf8 => any.downcast_ref().map(Strings::Utf8),
            DataType::LargeUtf8 => any.downcast_ref().map(Strings::LargeUtf8),
            DataType::Utf8View => any.downcast_ref().map(Strings::Utf8View),
            DataType::Null => Some(Strings::Nulls),
            _ => None,
        };
        match strings {
            Some(strings) => Ok(strings),
            None => exec_err!(
                "{FUNCTION_NAME}: `{what}` must be a string column, not {}",
                array.data_type()
            ),
        }
    }

    fn get(&self, row: usize) -> Option<&'a str> {
        fn at<'a, A: ArrayAccessor<Item = &'a str>>(array: A, row: usize) -> Option<&'a str> {
            (!array.is_null(row)).then(|| array.value(row))
        }
        match self {
            Strings::Utf8(a) => at(*a, row),
            Strings::LargeUtf8(a) => at(*a, row),
            Strings::Utf8View(a) => at(*a, row),
            Strings::Nulls => None,
        }
    }
}

impl ScalarUDFImpl for ToolargsCheck {
    fn name(&self) -> &str {
        FUNCTION_NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        if arg_types.len() != 2 {
            return plan_err!(
                "{FUNCTION_NAME}(tool, arguments) takes 2 arguments, not {}",
                arg_types.len()
            );
        }
        arg_types
            .iter()
            .zip(["tool", "arguments"])
            .map(|(t, what)| match t {
                DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => Ok(t.clone()),
                DataType::Null => Ok(DataType::Utf8),
                DataType::Dictionary(_, value)
                    if matches!(
                        **value,
                        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
                    ) =>
                {
                    Ok((**value).clone())
                }
                other => plan_err!("{FUNCTION_NAME}: `{what}` must be a string, not {other}"),
            })
            .collect()
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(ToolargsCheck::result_type())
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let arrays = ColumnarValue::values_to_arrays(&args.args)?;
        let [tools, arguments] = arrays.as_slice() else {
            return exec_err!(
                "{FUNCTION_NAME}(tool, arguments) takes 2 arguments, not {}",
                arrays.len()
            );
        };
        let rows = tools.len();
        if arguments.len() != rows {
            return exec_err!("{FUNCTION_NAME}: columns of different lengths");
        }
        let tool = Strings::of(tools, "tool")?;
        let arguments = Strings::of(arguments, "arguments")?;

        let mut outcome = StringBuilder::with_capacity(rows, rows * 8);
        let item = || Field::new_list_field(DataType::Utf8, false);
        let mut codes = ListBuilder::new(StringBuilder::new()).with_field(item());
        let mut rules = ListBuilder::new(StringBuilder::new()).with_field(item());
        for row in 0..rows {
            match self.verdict(tool.get(row), arguments.get(row)) {
                Verdict::Judged(Outcome::Clean) => outcome.append_value("clean"),
                Verdict::Judged(Outcome::Repaired(repairs)) => {
                    outcome.append_value("repaired");
                    for rule in repairs {
                        rules.values().append_value(rule.as_str());
                    }
                }
                Verdict::Judged(Outcome::Rejected(rejections)) => {
                    outcome.append_value("rejected");
                    for code in rejections {
                        codes.values().append_value(code.as_str());
                    }
                }
                Verdict::Unchecked => outcome.append_value(UNCHECKED),
                Verdict::NotACall(reason) => outcome.append_value(reason.as_str()),
            }
            codes.append(true);
            rules.append(true);
        }
        let columns: Vec<ArrayRef> = vec![
            Arc::new(outcome.finish()),
            Arc::new(codes.finish()),
            Arc::new(rules.finish()),
        ];
        let result = StructArray::try_new(result_fields(), columns, None)?;
        Ok(ColumnarValue::Array(Arc::new(result)))
    }
}
