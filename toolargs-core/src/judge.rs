//! What judges a call: the one contract every front door offers and every consumer uses.
//!
//! A [`Judge`] is a tool's argument contract made callable: a derived type as
//! [`Typed<T>`](crate::tool::Typed), or a schema loaded at run time
//! (`toolargs_dynamic::Spec`). Streams judge a call against one as it arrives
//! ([`crate::stream::ArgStream`]), replay judges recorded calls against a set of them
//! (`toolargs_replay::ToolSet`, which holds them as `dyn Judge`), and the MCP gate and the
//! Python package judge live calls with one.

use std::fmt;

use serde_json::Value;

use crate::cx::Cx;
use crate::decode::{LoggedPayload, RawArgs};
use crate::node::Node;
use crate::options::ParseOptions;
use crate::report::{ArgumentError, Parsed, Rejection, Repair};
use crate::spec::UnknownPolicy;

/// Something that judges one tool's calls: a derived type ([`Typed`](crate::tool::Typed)) or a
/// loaded schema (`toolargs_dynamic::Spec`, or a reference to one).
///
/// Usable as `dyn Judge` for a set of tools of different kinds (what replay holds): the typed
/// [`parse`](Judge::parse) and [`Output`](Judge::Output) are left out of the object, and
/// [`parse_json`](Judge::parse_json) and [`check`](Judge::check) stay.
pub trait Judge: Send + Sync {
    /// What a parse gives: the typed arguments, or a JSON value for a loaded schema.
    type Output
    where
        Self: Sized;

    /// Parses a whole call, as the contract's own `parse` does.
    fn parse(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Parsed<Self::Output>, Rejection>
    where
        Self: Sized;

    /// Parses a whole call, giving the arguments in canonical JSON.
    fn parse_json(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Parsed<Value>, Rejection>;

    /// Judges a call: its repairs, or its rejection, as [`parse_json`](Judge::parse_json)
    /// gives them, without building the arguments where the contract need not (replay counts
    /// verdicts, under [`ParseOptions::omit_messages`]). The default reads them from
    /// `parse_json`.
    fn check(&self, raw: &RawArgs<'_>, options: &ParseOptions) -> Result<Vec<Repair>, Rejection> {
        self.parse_json(raw, options).map(|p| p.repairs)
    }

    /// Judges arguments read from a log's text as they stand there: inside a JSON string,
    /// without being unescaped ([`read_logged`](crate::decode::read_logged)), or as a JSON
    /// object ([`read_embedded`](crate::decode::read_embedded)). `None` when the contract does
    /// not judge them so: the caller hands their text (unescaped) to
    /// [`check`](Judge::check), which gives the same verdict. The default judges none so.
    fn check_logged(
        &self,
        payload: &LoggedPayload<'_>,
        options: &ParseOptions,
    ) -> Option<Result<Vec<Repair>, Rejection>> {
        let _ = (payload, options);
        None
    }

    /// Judges an object holding one member of a call alone
    /// ([`judge_node`](crate::tool::judge_node)): its repairs and errors. A stream judges
    /// each member so as it completes. `None` when the contract's members are not judged one
    /// by one (a union, a schema whose root applies other schemas to the whole object), and
    /// by default: then only the text and the limits give a stream an early rejection.
    ///
    /// Only errors at the member's own path (or below it) are taken as certain: the errors
    /// of the other members missing from the object are not.
    fn judge_member(
        &self,
        member: &Node<'_>,
        options: &ParseOptions,
    ) -> Option<(Vec<Repair>, Vec<ArgumentError>)> {
        let _ = (member, options);
        None
    }

    /// The contract's fields, read one member at a time and assembled at the end: when
    /// given, a stream reads each member once, when it is complete, and assembles the verdict
    /// from them instead of parsing the whole text again. `None` by default: members are
    /// judged alone ([`Judge::judge_member`]) and the whole call parsed when the object
    /// closes.
    #[doc(hidden)]
    fn member_slots(&self) -> Option<Box<dyn MemberSlots<Self::Output>>>
    where
        Self: Sized,
    {
        None
    }

    /// What loading the contract's definition noticed but did not refuse
    /// (`toolargs_dynamic::Spec::warnings`); none for a derived type, and by default.
    fn load_warnings(&self) -> &[LoadWarning] {
        &[]
    }

    /// The JSON Schema of the arguments the contract enforces, for showing it to a provider
    /// ([`dialect::lower`](crate::dialect::lower)); `None` by default, when the contract has
    /// none to give.
    fn schema(&self) -> Option<Value> {
        None
    }
}

/// A reference judges as what it points at: `spec.stream()` borrows its spec. Each method
/// forwards, inlined: a stream over `&Spec` makes the calls it made over `Spec`.
impl<J: Judge> Judge for &J {
    type Output = J::Output;

    #[inline]
    fn parse(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Parsed<J::Output>, Rejection> {
        (**self).parse(raw, options)
    }

    #[inline]
    fn parse_json(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Parsed<Value>, Rejection> {
        (**self).parse_json(raw, options)
    }

    #[inline]
    fn check(&self, raw: &RawArgs<'_>, options: &ParseOptions) -> Result<Vec<Repair>, Rejection> {
        (**self).check(raw, options)
    }

    #[inline]
    fn check_logged(
        &self,
        payload: &LoggedPayload<'_>,
        options: &ParseOptions,
    ) -> Option<Result<Vec<Repair>, Rejection>> {
        (**self).check_logged(payload, options)
    }

    #[inline]
    fn judge_member(
        &self,
        member: &Node<'_>,
        options: &ParseOptions,
    ) -> Option<(Vec<Repair>, Vec<ArgumentError>)> {
        (**self).judge_member(member, options)
    }

    #[inline]
    fn member_slots(&self) -> Option<Box<dyn MemberSlots<J::Output>>> {
        (**self).member_slots()
    }

    #[inline]
    fn load_warnings(&self) -> &[LoadWarning] {
        (**self).load_warnings()
    }

    fn schema(&self) -> Option<Value> {
        (**self).schema()
    }
}

/// A judge's payload object read one member at a time, then assembled as its parse reads
/// the whole object: the same repairs and errors, in the same order. Written by the derive
/// for a struct (`ToolArgs::member_slots`) and offered by a loaded schema whose root is an
/// object of its own keywords alone; not a public API. `Send` and `Sync`, as a stream is: it
/// may move between threads with the task that reads a provider's stream.
#[doc(hidden)]
pub trait MemberSlots<T>: Send + Sync {
    /// The declared names, for the message about a key that names none (see
    /// [`MemberSlots::read`]).
    fn known(&self) -> &'static [&'static str];

    /// The tool's policy for keys it does not declare (the options may override it).
    fn unknown_policy(&self) -> UnknownPolicy;

    /// Reads the member `key` of the payload, recording into `cx`, a collector of its own
    /// (and into empty collectors under the same options, [`Cx::scratch`], where its parts
    /// are recorded apart): kept with the result, and given back by reference, the
    /// member's repairs and errors. `Err(cx)` when `key` names nothing, and the stream
    /// settles it as an undeclared key ([`MemberSlots::known`]).
    fn read(&mut self, key: &str, value: &Node<'_>, cx: Cx) -> Result<&[Cx], Cx>;

    /// The verdict's value: the members read (their collectors absorbed into `cx` in the
    /// order the parse records them) and the rest as absent. `None` when the members
    /// cannot give the parse's verdict: the whole text is parsed then.
    fn assemble(self: Box<Self>, cx: &mut Cx) -> Option<Option<T>>;
}

/// Something a tool's definition says that the gate reads differently from, or not at all,
/// though it loaded: an annotation it does not act on, a `default` it dropped, a repair it
/// turned off. Made by `toolargs_dynamic` when it loads a schema; here so that every
/// [`Judge`] can report its own.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadWarning {
    /// JSON pointer of the keyword the warning is about (`""` is the root).
    pub pointer: String,
    /// What the gate does with it.
    pub message: String,
}

impl LoadWarning {
    /// A warning about the keyword at `pointer` (a JSON pointer; `""` is the root).
    pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> LoadWarning {
        LoadWarning {
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for LoadWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "#"
        } else {
            &self.pointer
        };
        write!(f, "schema at {at}: {}", self.message)
    }
}
