//! The confirmations the gate asked for in the rounds of the 2026-07-28 revision: each
//! `requestState` it gave, with the call it stands for, until the retry brings it back.

use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasher;

/// The most confirmations kept waiting for their retry; past it, the oldest is forgotten
/// (its retry is asked about again).
const MAX_WAITING: usize = 4096;

/// A call the user was asked to confirm.
#[derive(Debug)]
pub(crate) struct Asked {
    pub tool: String,
    /// The arguments as they would be forwarded (JSON text).
    pub arguments: String,
}

/// The states given and not brought back yet, oldest first.
#[derive(Debug, Default)]
pub(crate) struct Rounds {
    asked: HashMap<String, Asked>,
    order: VecDeque<String>,
}

impl Rounds {
    /// A new state for the confirmation of a call to `tool` with `arguments`. It is 128
    /// bits no client can guess (two SipHash values under keys drawn at random for the
    /// process), so a client cannot bring back a state it was not given.
    pub(crate) fn ask(&mut self, tool: &str, arguments: &str) -> String {
        let count = self.order.len() as u64;
        let state = format!(
            "toolargs-gate:{:016x}{:016x}",
            std::collections::hash_map::RandomState::new().hash_one((count, tool)),
            std::collections::hash_map::RandomState::new().hash_one((arguments, count)),
        );
        if self.order.len() >= MAX_WAITING {
            if let Some(oldest) = self.order.pop_front() {
                self.asked.remove(&oldest);
            }
        }
        self.order.push_back(state.clone());
        self.asked.insert(
            state.clone(),
            Asked {
                tool: tool.to_owned(),
                arguments: arguments.to_owned(),
            },
        );
        state
    }

    /// The call `state` stands for.
    pub(crate) fn get(&self, state: &str) -> Option<&Asked> {
        self.asked.get(state)
    }

    /// Forgets `state`: it is brought back once.
    pub(crate) fn remove(&mut self, state: &str) {
        if self.asked.remove(state).is_some() {
            self.order.retain(|kept| kept != state);
        }
    }
}
