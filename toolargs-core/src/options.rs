//! Parse options, and bounds on hostile input checked before the expensive work.

use crate::spec::UnknownPolicy;

/// Bounds on hostile input, enforced while the payload is decoded, before any coercion.
///
/// Each exceeded limit is a rejection with its own stable code. The defaults are far above what
/// a tool call needs and keep a hostile payload cheap to refuse. Start from
/// [`Limits::DEFAULT`] and change what you need with the `with_*` methods, which are `const`:
///
/// ```
/// use toolargs_core::Limits;
///
/// const TIGHT: Limits = Limits::DEFAULT.with_max_depth(8).with_max_string_bytes(4096);
/// assert_eq!(TIGHT.max_depth, 8);
/// assert_eq!(TIGHT.max_items, Limits::DEFAULT.max_items);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Deepest nesting of arrays and objects accepted (the payload object is level 1):
    /// `too_deep`.
    pub max_depth: usize,
    /// Largest payload accepted, in bytes of JSON text: `too_large`. Checked before reading.
    pub max_payload_bytes: usize,
    /// Longest string value or object key, in bytes of UTF-8 after unescaping: `too_long`.
    /// A payload that is itself one JSON string (double encoding) is bounded by
    /// `max_payload_bytes` instead.
    pub max_string_bytes: usize,
    /// Most items in one array: `too_many_items`.
    pub max_items: usize,
    /// Most keys in one object: `too_many_keys`.
    pub max_keys: usize,
}

impl Limits {
    /// The defaults: 128 levels (as `serde_json`), 16 MiB of text, strings of 1 MiB,
    /// 100 000 items per array and 10 000 keys per object.
    pub const DEFAULT: Limits = Limits {
        max_depth: 128,
        max_payload_bytes: 16 << 20,
        max_string_bytes: 1 << 20,
        max_items: 100_000,
        max_keys: 10_000,
    };

    /// These limits with [`Limits::max_depth`] set.
    #[must_use]
    pub const fn with_max_depth(mut self, levels: usize) -> Limits {
        self.max_depth = levels;
        self
    }

    /// These limits with [`Limits::max_payload_bytes`] set.
    #[must_use]
    pub const fn with_max_payload_bytes(mut self, bytes: usize) -> Limits {
        self.max_payload_bytes = bytes;
        self
    }

    /// These limits with [`Limits::max_string_bytes`] set.
    #[must_use]
    pub const fn with_max_string_bytes(mut self, bytes: usize) -> Limits {
        self.max_string_bytes = bytes;
        self
    }

    /// These limits with [`Limits::max_items`] set.
    #[must_use]
    pub const fn with_max_items(mut self, items: usize) -> Limits {
        self.max_items = items;
        self
    }

    /// These limits with [`Limits::max_keys`] set.
    #[must_use]
    pub const fn with_max_keys(mut self, keys: usize) -> Limits {
        self.max_keys = keys;
        self
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// How to parse one call: the limits, and how to read `null`.
///
/// Start from [`ParseOptions::DEFAULT`] (or [`ParseOptions::new`]) and change what you need
/// with the `with_*` methods, which are `const`:
///
/// ```
/// use toolargs_core::{Limits, ParseOptions, UnknownPolicy};
///
/// const REPLAY: ParseOptions = ParseOptions::DEFAULT
///     .with_limits(Limits::DEFAULT.with_max_depth(32))
///     .with_unknown(UnknownPolicy::Reject)
///     .with_omit_messages(true);
/// assert_eq!(REPLAY.unknown, Some(UnknownPolicy::Reject));
/// assert!(!REPLAY.null_as_absent);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
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
    /// Write no message for any error: a rejection still lists each error with its path and
    /// code ([`ArgumentError::message`](crate::ArgumentError::message) is `None`), and repairs
    /// are recorded in full. For callers that count outcomes and
    /// never show a message (replay does), and would otherwise pay for writing one per error.
    pub omit_messages: bool,
}

impl ParseOptions {
    /// The defaults: [`Limits::DEFAULT`], `null` recorded as a `null_to_absent` repair, and
    /// every error with its message.
    pub const DEFAULT: ParseOptions = ParseOptions {
        limits: Limits::DEFAULT,
        null_as_absent: false,
        unknown: None,
        omit_messages: false,
    };

    /// The defaults, [`ParseOptions::DEFAULT`].
    pub const fn new() -> ParseOptions {
        ParseOptions::DEFAULT
    }

    /// These options with other [`Limits`].
    #[must_use]
    pub const fn with_limits(mut self, limits: Limits) -> ParseOptions {
        self.limits = limits;
        self
    }

    /// These options with [`ParseOptions::null_as_absent`] set.
    #[must_use]
    pub const fn with_null_as_absent(mut self, null_as_absent: bool) -> ParseOptions {
        self.null_as_absent = null_as_absent;
        self
    }

    /// These options with the tool's unknown-key policy overridden by `policy`.
    #[must_use]
    pub const fn with_unknown(mut self, policy: UnknownPolicy) -> ParseOptions {
        self.unknown = Some(policy);
        self
    }

    /// These options with [`ParseOptions::omit_messages`] set.
    #[must_use]
    pub const fn with_omit_messages(mut self, omit_messages: bool) -> ParseOptions {
        self.omit_messages = omit_messages;
        self
    }
}
