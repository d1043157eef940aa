//! The gate's own `tools/list`: a call the gate cannot judge yet (its tool was never listed
//! to it, or the server said its tools changed) waits while the gate asks the server for
//! every page of its tools, and is judged once they are in. A client that never lists tools
//! gets the verdicts of one that does.

use std::collections::HashMap;
use std::time::Instant;

use serde_json::value::RawValue;

use crate::trace::CallSpan;

/// The prefix of the ids of the gate's own `tools/list` requests, which the server's answers
/// carry back; as for confirmations, a string no numbered id can be, holding nothing a
/// client could write escaped.
const LISTING_ID_PREFIX: &str = "toolargs-gate-list-";

/// The most pages one listing reads: a server whose cursors never end fails the listing
/// instead of holding the call for ever.
pub(crate) const MAX_PAGES: usize = 1000;

/// The `_meta` keys a listing carries over from the call that started it: the protocol
/// version and the client's capabilities, which every request of the 2026-07-28 revision
/// names.
const CARRIED_META: [&str; 2] = [
    "io.modelcontextprotocol/protocolVersion",
    "io.modelcontextprotocol/clientCapabilities",
];

/// A call waiting for a listing.
#[derive(Debug)]
pub(crate) struct Waiting {
    /// The call, as the client wrote it.
    pub line: String,
    /// Its id, as written.
    pub id: String,
    /// When it arrived: its latency counts the wait.
    pub arrived: Instant,
    pub span: CallSpan,
}

/// One listing in flight: the pages read so far and the calls it holds.
#[derive(Debug)]
pub(crate) struct Listing {
    /// Pages answered so far: the first one replaces what the gate knew.
    pub pages: usize,
    pub waiting: Vec<Waiting>,
    /// The `_meta` object its requests carry (JSON text), from the call that started it.
    meta: Option<String>,
}

/// The listings in flight, by the id (as JSON text) of the request whose answer they wait
/// for.
#[derive(Debug, Default)]
pub(crate) struct Listings {
    asked: u64,
    in_flight: HashMap<String, Listing>,
}

impl Listings {
    /// Whether any listing is in flight.
    pub(crate) fn any(&self) -> bool {
        !self.in_flight.is_empty()
    }

    /// Holds `call` in the listing in flight, if there is one; gives it back otherwise.
    pub(crate) fn join(&mut self, call: Waiting) -> Result<(), Waiting> {
        match self.in_flight.values_mut().next() {
            Some(listing) => {
                listing.waiting.push(call);
                Ok(())
            }
            None => Err(call),
        }
    }

    /// Starts a listing that holds `call`, whose params are `params` (JSON text): the
    /// request to send for its first page. `taken` says which ids the gate may not use (the
    /// client's requests in flight).
    pub(crate) fn start(
        &mut self,
        call: Waiting,
        params: Option<&RawValue>,
        taken: impl Fn(&str) -> bool,
    ) -> String {
        let listing = Listing {
            pages: 0,
            waiting: vec![call],
            meta: params.and_then(carried_meta),
        };
        self.ask(listing, None, taken)
    }

    /// Asks for the page after `listing`'s last one, at `cursor` (JSON text): the request,
    /// or the listing back when it read [`MAX_PAGES`] already.
    pub(crate) fn next_page(
        &mut self,
        listing: Listing,
        cursor: &RawValue,
        taken: impl Fn(&str) -> bool,
    ) -> Result<String, Listing> {
        if listing.pages >= MAX_PAGES {
            return Err(listing);
        }
        Ok(self.ask(listing, Some(cursor.get()), taken))
    }

    /// The listing the answer with `id` (JSON text) belongs to, if it is one.
    pub(crate) fn answered(&mut self, id: &str) -> Option<Listing> {
        self.in_flight.remove(id)
    }

    /// Forgets the calls with `id` (JSON text) that wait, when the client cancels them.
    pub(crate) fn cancel(&mut self, id: &str) -> Vec<Waiting> {
        let mut cancelled = Vec::new();
        for listing in self.in_flight.values_mut() {
            let (gone, kept) = std::mem::take(&mut listing.waiting)
                .into_iter()
                .partition(|call| call.id == id);
            listing.waiting = kept;
            cancelled.extend::<Vec<Waiting>>(gone);
        }
        cancelled
    }

    /// Every listing in flight, ended (the server is gone).
    pub(crate) fn clear(&mut self) -> Vec<Listing> {
        self.in_flight.drain().map(|(_, listing)| listing).collect()
    }

    /// Sends `listing`'s request for the page at `cursor`, keeping the listing until its
    /// answer.
    fn ask(
        &mut self,
        listing: Listing,
        cursor: Option<&str>,
        taken: impl Fn(&str) -> bool,
    ) -> String {
        let id = loop {
            self.asked += 1;
            let id = format!("\"{LISTING_ID_PREFIX}{}\"", self.asked);
            if !taken(&id) && !self.in_flight.contains_key(&id) {
                break id;
            }
        };
        let mut params = Vec::new();
        if let Some(cursor) = cursor {
            params.push(format!(r#""cursor":{cursor}"#));
        }
        if let Some(meta) = &listing.meta {
            params.push(format!(r#""_meta":{meta}"#));
        }
        let request = if params.is_empty() {
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#)
        } else {
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{{}}}}}"#,
                params.join(",")
            )
        };
        self.in_flight.insert(id, listing);
        request
    }
}

/// The `_meta` of a call's params that a listing for it carries: the entries of
/// [`CARRIED_META`], as written.
fn carried_meta(params: &RawValue) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Params<'a> {
        #[serde(rename = "_meta", borrow)]
        meta: Option<HashMap<String, &'a RawValue>>,
    }
    let meta = serde_json::from_str::<Params<'_>>(params.get())
        .ok()?
        .meta?;
    let kept: Vec<String> = CARRIED_META
        .iter()
        .filter_map(|key| Some(format!("\"{key}\":{}", meta.get(*key)?.get())))
        .collect();
    (!kept.is_empty()).then(|| format!("{{{}}}", kept.join(",")))
}

/// The `nextCursor` of a `tools/list` result (its JSON text), when there is a next page.
pub(crate) fn next_cursor(result: &RawValue) -> Option<&RawValue> {
    #[derive(serde::Deserialize)]
    struct Page<'a> {
        #[serde(rename = "nextCursor", borrow)]
        next_cursor: Option<&'a RawValue>,
    }
    serde_json::from_str::<Page<'_>>(result.get())
        .ok()?
        .next_cursor
        .filter(|cursor| cursor.get() != "null")
}
