//! Bounds on hostile input, checked before the expensive work.

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
