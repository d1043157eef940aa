//! The retry budget: how many corrections a call gets, and how much help a session gets.

use std::collections::HashMap;

use serde_json::Value;

/// Limits on retries. A rejected call costs a round trip that replays the whole history, so
/// cost grows with every round: a model that cannot fix its call after a clear message rarely
/// fixes it on attempt five.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Corrections allowed per call id after the first attempt (default 2: three attempts).
    pub corrections_per_call: u32,
    /// Repairs plus rejected attempts allowed per session before every call escalates
    /// (default 20).
    pub per_session: u32,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            corrections_per_call: 2,
            per_session: 20,
        }
    }
}

/// The state of one conversation: attempts per call id and the help spent so far.
#[derive(Clone, Debug, Default)]
pub struct Session {
    attempts: HashMap<String, u32>,
    originals: HashMap<String, Value>,
    spent: u32,
}

impl Session {
    /// A fresh session.
    pub fn new() -> Session {
        Session::default()
    }

    /// Repairs plus rejected attempts so far.
    pub fn spent(&self) -> u32 {
        self.spent
    }

    /// Attempts made so far for `call_id`.
    pub fn attempts(&self, call_id: &str) -> u32 {
        self.attempts.get(call_id).copied().unwrap_or(0)
    }

    /// Starts the next attempt of `call_id` and returns its number (from 1).
    pub(crate) fn begin(&mut self, call_id: &str) -> u32 {
        let n = self.attempts.entry(call_id.to_owned()).or_default();
        *n += 1;
        *n
    }

    /// The call is settled (ran or escalated): a later call with the same id starts afresh.
    pub(crate) fn settle(&mut self, call_id: &str) {
        self.attempts.remove(call_id);
        self.originals.remove(call_id);
    }

    /// Keeps the arguments of a call's first attempt, which corrections are compared with.
    pub(crate) fn keep_original(&mut self, call_id: &str, raw: &Value) {
        self.originals.insert(call_id.to_owned(), raw.clone());
    }

    /// The arguments of the call's first attempt, as received.
    pub fn original(&self, call_id: &str) -> Option<&Value> {
        self.originals.get(call_id)
    }

    pub(crate) fn spend(&mut self, amount: u32) {
        self.spent = self.spent.saturating_add(amount);
    }
}
