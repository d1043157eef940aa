//! Parse options, and bounds on hostile input checked before the expensive work.

use crate::spec::UnknownPolicy;

/// Limits applied while decoding a payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting of arrays and objects accepted (the payload object is level 1).
    pub max_depth: usize,
    /// Largest payload accepted, in bytes of JSON text.
    pub max_payload_bytes: usize,
}

impl Limits {
    /// The defaults: 128 levels (as `serde_json`), 16 MiB of text.
    pub const DEFAULT: Limits = Limits {
        max_depth: 128,
        max_payload_bytes: 16 << 20,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// How to parse one call: the limits, and how to read `null`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// Bounds on hostile input.
    pub limits: Limits,
    /// Read `null` for an optional or defaulted field as absent without recording a
    /// `null_to_absent` repair. Set it when the model was shown a schema in which `null` is how
    /// an optional field is left out (OpenAI strict mode): there a `null` is a conforming value,
    /// not a representation error.
    pub null_as_absent: bool,
    /// Overrides the tool's own unknown-key policy for this parse (for example to measure in
    /// replay what a switch from strip to reject would do). `None` keeps the tool's policy.
    pub unknown: Option<UnknownPolicy>,
}

impl ParseOptions {
    /// The defaults: [`Limits::DEFAULT`], and `null` recorded as a `null_to_absent` repair.
    pub const DEFAULT: ParseOptions = ParseOptions {
        limits: Limits::DEFAULT,
        null_as_absent: false,
        unknown: None,
    };
}
