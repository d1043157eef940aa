//! Replay: run recorded tool calls through the gate and count what happened.
//!
//! Unit tests prove the policy; replay shows how it meets real traffic: how many calls were
//! clean, how many needed which repair, which rejections dominate, grouped by any field of the
//! log (model, prompt version). A [`Gate`] is anything that parses one call: a derived type
//! ([`Typed`]) or a loaded [`Spec`]. [`Replayer`] reads JSON Lines logs, in
//! parallel and in constant memory, into a [`Report`].

mod log;
mod tally;

use std::collections::BTreeSet;
use std::marker::PhantomData;

pub use log::{BadRecord, Replayer, ToolSet};
pub use tally::{GroupKey, Report, Tally};

use serde_json::Value;
use toolargs_core::decode::RawArgs;
use toolargs_core::options::ParseOptions;
use toolargs_dynamic::Spec;

use toolargs_core::report::{Code, Parsed, Rejection, Repair, Rule};
use toolargs_core::tool::{parse_with, ToolArgs};

/// What the gate did with one call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Accepted without any repair.
    Clean,
    /// Accepted after these repairs (one entry per repair, in order).
    Repaired(Vec<Rule>),
    /// Rejected with these codes (each distinct code once).
    Rejected(Vec<Code>),
}

impl Outcome {
    fn from_result(result: Result<Vec<Repair>, Rejection>) -> Outcome {
        match result {
            Ok(repairs) if repairs.is_empty() => Outcome::Clean,
            Ok(repairs) => Outcome::Repaired(repairs.into_iter().map(|r| r.rule).collect()),
            Err(rejection) => {
                let codes: BTreeSet<Code> = rejection.errors().iter().map(|e| e.code).collect();
                Outcome::Rejected(codes.into_iter().collect())
            }
        }
    }
}

/// Something that can judge one call: a derived type or a loaded spec.
pub trait Gate: Send + Sync {
    /// Parses one call, giving the arguments in canonical JSON.
    fn parse_json(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Parsed<Value>, Rejection>;

    /// Parses one call and reports only the outcome.
    fn outcome(&self, raw: &RawArgs<'_>, options: &ParseOptions) -> Outcome {
        Outcome::from_result(self.parse_json(raw, options).map(|p| p.repairs))
    }
}

impl Gate for Spec {
    fn parse_json(
        &self,
        raw: &RawArgs<'_>,
        options: &ParseOptions,
    ) -> Result<Parsed<Value>, Rejection> {
        self.parse_with(raw, options)
    }

    fn outcome(&self, raw: &RawArgs<'_>, options: &ParseOptions) -> Outcome {
        Outcome::from_result(self.check_with(raw, options))
    }
}

/// A derived [`ToolArgs`] type as a [`Gate`]: `Typed::<IssueRefund>::new()`.
pub struct Typed<T>(PhantomData<fn() -> T>);

impl<T> Typed<T> {
    /// The gate of `T`.
    pub fn new() -> Self {
        Typed(PhantomData)
    }
}

impl<T> Default for Typed<T> {
    fn default() -> Self {
        Typed::new()
    }
}

impl<T: ToolArgs> Gate for Typed<T> {
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

    // Skips writing the canonical JSON, which an outcome does not need.
    fn outcome(&self, raw: &RawArgs<'_>, options: &ParseOptions) -> Outcome {
        Outcome::from_result(parse_with::<T>(raw, options).map(|p| p.repairs))
    }
}
