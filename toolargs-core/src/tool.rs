//! The [`ToolArgs`] trait: what `#[derive(ToolArgs)]` gives a type, and the parse entry point.

use std::marker::PhantomData;

use serde_json::Value;

use crate::coerce::ArgType;
use crate::cx::Cx;
use crate::declare::Semantics;
use crate::decode::{
    decoding_rejection, with_logged_payload, with_payload, LoggedPayload, RawArgs,
};
use crate::dialect::{self, Dialect};
use crate::effect::Effect;
use crate::judge::{Judge, MemberSlots};
use crate::node::Node;
use crate::options::ParseOptions;
use crate::path::Path;
use crate::report::{ArgumentError, Parsed, Rejection, Repair};
use crate::spec::{FieldSpec, UnknownPolicy};
use crate::stream::ArgStream;

/// The arguments of a tool: parse them from a model's payload under the repair-or-reject
/// policy, write their canonical JSON, and describe them as JSON Schema.
///
/// Derive it with `#[derive(ToolArgs)]`; the struct is the single source of the contract.
pub trait ToolArgs: ArgType {
    /// The tool's name (the `name` container attribute, or the type name in snake_case).
    const NAME: &'static str;
    /// The tool's description (the doc comment or the `description` container attribute).
    const DESCRIPTION: Option<&'static str>;
    /// What the tool does (`effect` container attribute; [`Effect::Destructive`] when undeclared).
    const EFFECT: Effect;
    /// The policy for keys the tool does not declare, applied at every depth (`unknown`
    /// container attribute; otherwise [`Effect::default_unknown_policy`]).
    const UNKNOWN: UnknownPolicy;
    /// True for types whose payload is a JSON object (structs); enums read a bare string.
    const OBJECT: bool;

    /// Parses a payload with the default [`ParseOptions`]: every repair is recorded in the
    /// result, and a rejection lists every error of the call.
    fn parse<'a>(input: impl Into<RawArgs<'a>>) -> Result<Parsed<Self>, Rejection> {
        parse_with(&input.into(), &ParseOptions::DEFAULT)
    }

    /// A stream of one call, judged while it arrives (see [`crate::stream`]): `feed` each
    /// piece, `finish` for the verdict, exactly [`parse`](ToolArgs::parse)'s on the whole
    /// text.
    fn stream() -> ArgStream<Typed<Self>> {
        Self::stream_with(ParseOptions::DEFAULT)
    }

    /// [`stream`](ToolArgs::stream) with explicit options.
    fn stream_with(options: ParseOptions) -> ArgStream<Typed<Self>> {
        ArgStream::new(Typed::new(), options)
    }

    /// The canonical form: it parses back with zero repairs to an equal value.
    fn to_json(&self) -> Value {
        self.canonical()
    }

    /// The JSON Schema (2020-12) of the arguments.
    fn json_schema() -> Value {
        let schema = crate::coerce::recursive::root(|| Self::schema(&FieldSpec::NONE));
        let Value::Object(body) = schema else {
            return schema;
        };
        // The header first, then the body in the order the type wrote it.
        let mut map = serde_json::Map::with_capacity(body.len() + 3);
        map.insert(
            "$schema".to_owned(),
            Value::from("https://json-schema.org/draft/2020-12/schema"),
        );
        map.insert("title".to_owned(), Value::from(Self::NAME));
        if let (Some(d), false) = (Self::DESCRIPTION, body.contains_key("description")) {
            map.insert("description".to_owned(), Value::from(d));
        }
        map.extend(body);
        Value::Object(map)
    }

    /// The fields of a struct, to be read one member at a time (a stream reads each member
    /// of a call once, as it completes, and assembles the struct from them). `None` for
    /// every other type, and by default. Written by the derive; not a public API.
    #[doc(hidden)]
    fn member_slots() -> Option<Box<dyn MemberSlots<Self>>> {
        None
    }

    /// What the struct declares about the meaning of its fields (`#[arg(semantic = ...)]`,
    /// `#[arg(critical)]`, `#[arg(synonym = ...)]` on enum variants), read by the semantic gate.
    /// Empty unless declared.
    fn semantics() -> Semantics {
        Semantics::new()
    }

    /// The tool's definition in a provider's dialect: name, description and
    /// [`json_schema`](ToolArgs::json_schema) as that provider reads them (see
    /// [`dialect::tool_definition`]).
    fn tool_definition(dialect: Dialect) -> Value {
        dialect::tool_definition(
            dialect,
            Self::NAME,
            Self::DESCRIPTION,
            Self::EFFECT,
            &Self::json_schema(),
        )
    }
}

/// The [`Judge`] of a derived type `T`: `Typed::<IssueRefund>::new()` (what
/// [`ToolArgs::stream`] streams against, and what replay holds for a derived tool).
pub struct Typed<T>(PhantomData<fn() -> T>);

impl<T> Typed<T> {
    /// The judge of `T`.
    pub const fn new() -> Typed<T> {
        Typed(PhantomData)
    }
}

impl<T> Default for Typed<T> {
    fn default() -> Self {
        Typed::new()
    }
}

impl<T> std::fmt::Debug for Typed<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Typed")
    }
}

impl<T: ToolArgs> Judge for Typed<T> {
    type Output = T;

    fn schema(&self) -> Option<Value> {
        Some(T::json_schema())
    }

    fn parse(&self, raw: &RawArgs<'_>, options: &ParseOptions) -> Result<Parsed<T>, Rejection> {
        parse_with::<T>(raw, options)
    }

    fn parse_json(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Parsed<Value>, Rejection> {
        parse_with::<T>(raw, options).map(|p| Parsed {
            args: p.args.to_json(),
            repairs: p.repairs,
        })
    }

    // Skips writing the canonical JSON, which a verdict does not need.
    fn check(&self, raw: &RawArgs<'_>, options: &ParseOptions) -> Result<Vec<Repair>, Rejection> {
        parse_with::<T>(raw, options).map(|p| p.repairs)
    }

    fn member_slots(&self) -> Option<Box<dyn MemberSlots<T>>> {
        T::member_slots()
    }

    fn judge_member(
        &self,
        member: &Node<'_>,
        options: &ParseOptions,
    ) -> Option<(Vec<Repair>, Vec<ArgumentError>)> {
        // A struct reads each field alone; a union chooses its variant from the whole object.
        T::OBJECT.then(|| {
            judge_node(member, options, T::UNKNOWN, |node, cx: &mut Cx| {
                let _ = T::coerce(node, &FieldSpec::NONE, &Path::ROOT, cx);
            })
        })
    }
}

/// Parses `raw` as the arguments of `T` with explicit options.
pub fn parse_with<T: ToolArgs>(
    raw: &RawArgs<'_>,
    options: &ParseOptions,
) -> Result<Parsed<T>, Rejection> {
    parse_payload(raw, options, T::OBJECT, T::UNKNOWN, |node, cx| {
        T::coerce(node, &FieldSpec::NONE, &Path::ROOT, cx)
    })
}

/// The envelope every front door shares: decodes `raw` under `options.limits` (code fences,
/// double encoding, duplicate keys), then runs `coerce` on the payload with a context set from
/// `options` (`unknown` when the options name no policy), and turns what it collected into
/// the result. The derived parser and the dynamic spec differ only in `coerce`.
// Inlined with the decoding it calls: the envelope of every call is a few moves, not calls.
#[inline]
pub fn parse_payload<T>(
    raw: &RawArgs<'_>,
    options: &ParseOptions,
    expect_object: bool,
    unknown: UnknownPolicy,
    coerce: impl FnOnce(&Node<'_>, &mut Cx) -> Option<T>,
) -> Result<Parsed<T>, Rejection> {
    envelope(Arguments::Raw(raw), options, expect_object, unknown, coerce)
}

/// [`parse_payload`] for arguments read from a log's text as they stand there, by
/// [`read_logged`](crate::decode::read_logged) (inside a JSON string) or
/// [`read_embedded`](crate::decode::read_embedded) (a JSON object): the same result as
/// [`parse_payload`] on their text, unescaped.
///
/// ```
/// use toolargs_core::decode::read_logged;
/// use toolargs_core::tool::parse_logged_payload;
/// use toolargs_core::{Limits, Node, ParseOptions, UnknownPolicy};
///
/// let (payload, _) = read_logged(r#"{\"a\": 1, \"b\": \"x\"}""#, &Limits::DEFAULT).unwrap();
/// let members = parse_logged_payload(&payload, &ParseOptions::DEFAULT, true, UnknownPolicy::Reject,
///     |node, _| match node {
///         Node::Object(members) => Some(members.len()),
///         _ => None,
///     });
/// assert_eq!(members.unwrap().args, 2);
/// ```
#[inline]
pub fn parse_logged_payload<T>(
    payload: &LoggedPayload<'_>,
    options: &ParseOptions,
    expect_object: bool,
    unknown: UnknownPolicy,
    coerce: impl FnOnce(&Node<'_>, &mut Cx) -> Option<T>,
) -> Result<Parsed<T>, Rejection> {
    envelope(
        Arguments::Logged(payload),
        options,
        expect_object,
        unknown,
        coerce,
    )
}

/// Arguments as the two front doors of the envelope take them.
enum Arguments<'r, 'a> {
    Raw(&'r RawArgs<'a>),
    Logged(&'r LoggedPayload<'a>),
}

/// The envelope of [`parse_payload`] and [`parse_logged_payload`]: the arguments decoded (or
/// taken as read), then [`coerce_payload`], and a decoding error as the rejection.
#[inline]
fn envelope<T>(
    arguments: Arguments<'_, '_>,
    options: &ParseOptions,
    expect_object: bool,
    unknown: UnknownPolicy,
    coerce: impl FnOnce(&Node<'_>, &mut Cx) -> Option<T>,
) -> Result<Parsed<T>, Rejection> {
    let mut repairs = Vec::new();
    let then = |node: &Node<'_>, repairs: &mut Vec<Repair>| {
        coerce_payload(node, repairs, options, unknown, coerce)
    };
    let outcome = match arguments {
        Arguments::Raw(raw) => {
            with_payload(raw, &options.limits, expect_object, &mut repairs, then)
        }
        Arguments::Logged(payload) => {
            with_logged_payload(payload, expect_object, &mut repairs, then)
        }
    };
    outcome.unwrap_or_else(|error| Err(decoding_rejection(error, options)))
}

/// A node judged without a verdict: everything `coerce` recorded under a context set from
/// `options` (`unknown` when they name no policy), the repairs and the errors, whatever the
/// outcome. A stream judges each member of a call this way, alone ([`crate::stream`]).
pub fn judge_node(
    node: &Node<'_>,
    options: &ParseOptions,
    unknown: UnknownPolicy,
    coerce: impl FnOnce(&Node<'_>, &mut Cx),
) -> (Vec<Repair>, Vec<ArgumentError>) {
    let mut cx = context(&mut Vec::new(), options, unknown);
    coerce(node, &mut cx);
    cx.into_parts()
}

/// The part of the envelope after decoding: a context set from `options`, holding the
/// envelope's repairs, and `coerce` run on the payload.
#[inline]
fn coerce_payload<T>(
    node: &Node<'_>,
    repairs: &mut Vec<Repair>,
    options: &ParseOptions,
    unknown: UnknownPolicy,
    coerce: impl FnOnce(&Node<'_>, &mut Cx) -> Option<T>,
) -> Result<Parsed<T>, Rejection> {
    let mut cx = context(repairs, options, unknown);
    let value = coerce(node, &mut cx);
    cx.finish(value)
}

/// A context set from `options` (`unknown` when they name no policy), holding the envelope's
/// repairs.
#[inline]
fn context(repairs: &mut Vec<Repair>, options: &ParseOptions, unknown: UnknownPolicy) -> Cx {
    // Most payloads need no envelope repair: taking the empty list allocates nothing.
    Cx::under(options, unknown, std::mem::take(repairs))
}
