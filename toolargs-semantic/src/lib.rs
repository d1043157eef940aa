//! The semantic gate: after a call was corrected (by a repair or a retry) and before it runs,
//! check that it still means what the original meant.
//!
//! A schema proves the envelope, not the meaning: `"CAD"` passes a currency pattern when the
//! user meant US dollars, `2026-03-04` passes a date format when `04/03/2026` meant April, and
//! `36` passes a type check when one and a half hours became thirty-six. Retries regenerate a
//! call, so text comparison cannot tell a correction from a substitution either. The gate
//! works in five steps:
//!
//! 1. **Preserve the original** ([`Attempt`], [`Correction`]): the raw arguments of every
//!    attempt, with its canonical arguments and repairs or the errors that triggered a retry.
//! 2. **Schema**: the parser's repair-or-reject policy ([`ToolArgs::parse`](toolargs_core::ToolArgs::parse)).
//! 3. **Canonicalize** ([`Canonical`]): money to minor units with an ISO 4217 currency (the
//!    number of minor units from [`Currency`]'s table), dates to days, date-times to UTC
//!    instants with their offset kept, quantities to the base unit of their [`UnitFamily`],
//!    entity references to ids through a [`Resolver`]. An original with several readings
//!    (`04/03/2026`, `1,500`, `1.5` with no unit, `Bob` when two Bobs exist) keeps them all.
//! 4. **Compare** ([`Finding`], [`Verdict`]): each corrected value against the original's
//!    readings, per kind: money exactly (across currencies only at a pinned [`Rate`]), dates to
//!    the day unless a time was given, quantities exactly, entities by id. Numbers are exact
//!    decimals ([`CanonicalDecimal`], computed by `rust_decimal`), never floats.
//! 5. **Decide** ([`Decision`]) from the tool's [`Effect`](toolargs_core::Effect): read-only tools
//!    proceed, reporting any difference; tools that write, delete, pay or notify need a
//!    confirmation for any difference or doubt; a difference on a critical field rejects.
//!
//! The gate works on JSON values (the raw original and the canonical `to_json()` of the
//! corrected call), so it serves derived tools ([`Profile::of`]) and tools loaded from a JSON
//! Schema ([`Profile::from_schema`]) alike. Each [`Review`] carries a [`Fingerprint`] of the
//! corrected call: equal for calls that mean the same action, whatever their byte layout.
//!
//! Declare canonical kinds on the struct (the `toolargs` crate's attribute guide lists every key):
//!
//! ```text
//! #[derive(ToolArgs)]
//! #[toolargs(effect = "external")]
//! struct IssueRefund {
//!     #[arg(semantic = "money", currency = "currency", minor_units, critical)]
//!     amount_cents: i64,
//!     currency: String,
//!     #[arg(semantic = "entity", entity = "person", critical)]
//!     recipient: String,
//! }
//! ```

mod attempt;
mod canonical;
mod compare;
pub mod currency;
mod dates;
mod decimal;
mod decision;
mod declared;

mod entity;
mod fingerprint;
mod gate;
mod numbers;
mod profile;
mod session;
pub mod units;

use std::fmt;

pub use attempt::{Attempt, AttemptOutcome, Correction};
pub use canonical::Canonical;
pub use currency::{Currency, Rate};
pub use decimal::CanonicalDecimal;
pub use decision::{decide, Decision, Finding, Review, Verdict};
pub use declared::{Declared, Meanings, SCHEMA_KEYWORD};
pub use entity::{EntityId, ResolveError, Resolver};
pub use fingerprint::{canonical_json, Fingerprint};
pub use gate::SemanticGate;
pub use profile::{FieldProfile, Meaning, Profile};
pub use session::{Actions, Judged, Session, SessionOptions, Weighing};
pub use toolargs_core::declare::{Declaration, Kind, Semantics, Source};
pub use units::{Unit, UnitFamily};

/// A semantic declaration or setting that cannot hold: a field the schema lacks, an unknown
/// currency code, a unit its family does not have, a rate that is not a positive decimal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SemanticError {
    message: String,
}

impl SemanticError {
    pub(crate) fn new(message: impl Into<String>) -> SemanticError {
        SemanticError {
            message: message.into(),
        }
    }

    /// What is wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for SemanticError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SemanticError {}
