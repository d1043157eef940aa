//! The gate's own `tools/list`: a call the gate cannot judge yet (its tool was never listed
//! to it, or the server said its tools changed) waits while the gate asks the server for
//! every page of its tools, and is judged once they are in. A client that never lists tools
//! gets the verdicts of one that does.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde_json::value::RawValue;

use crate::message::{Message, Params};
use crate::trace::CallSpan;
use crate::{reply, CallVerdict, Gate, Handled, Outcome, Released, Route};

/// The prefix of the ids of the gate's own `tools/list` requests, which the server's answers
/// carry back; as for confirmations, a string no numbered id can be, holding nothing a
/// client could write escaped.
const LISTING_ID_PREFIX: &str = "toolargs-gate-list-";

/// The most pages one listing reads: a server whose cursors never end fails the listing
/// instead of holding the call for ever.
pub(crate) const MAX_PAGES: usize = 1000;

/// How long a listing answers for the tools it does not name: within it, calls to invented
/// names are refused at once, and cost the server no listing each.
pub(crate) const LISTING_WINDOW: Duration = Duration::from_secs(5);

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

impl Gate {
    /// The server's answer to a page of the gate's own listing: the next page's request, or,
    /// with the last page in, the routes of the calls that waited, judged now; refused when
    /// the server did not list its tools.
    pub(crate) fn listed(&mut self, mut listing: Listing, answer: &Message<'_>) -> Handled {
        let Some(result) = answer.result.filter(|_| answer.error.is_none()) else {
            let why = match answer.error {
                Some(error) => format!(
                    "the server answered the gate's tools/list with an error: {}",
                    error.get()
                ),
                None => "the server's answer to the gate's tools/list holds no result".to_owned(),
            };
            return self.listing_failed(listing, &why);
        };
        if serde_json::from_str::<serde::de::IgnoredAny>(result.get()).is_err()
            || !result.get().trim_start().starts_with('{')
        {
            return self.listing_failed(
                listing,
                "the server's answer to the gate's tools/list is not a tool list",
            );
        }
        self.learn(result.get(), listing.pages == 0);
        listing.pages += 1;
        if let Some(cursor) = next_cursor(result) {
            let pending = &self.pending;
            return match self
                .listings
                .next_page(listing, cursor, |id| pending.contains(id))
            {
                Ok(request) => Handled {
                    routes: vec![Route::ToServer(request)],
                    verdict: None,
                    listing: true,
                },
                Err(listing) => self.listing_failed(
                    listing,
                    &format!("the server's tool list runs past {} pages", MAX_PAGES),
                ),
            };
        }
        let mut handled = Handled::default();
        for waiting in listing.waiting {
            handled.routes.extend(self.release(waiting, Ok(())));
        }
        handled
    }

    /// The gate's own listing failed, for `why`: every call that waited for it is refused.
    pub(crate) fn listing_failed(&mut self, listing: Listing, why: &str) -> Handled {
        let mut handled = Handled::default();
        for waiting in listing.waiting {
            handled.routes.extend(self.release(waiting, Err(why)));
        }
        handled
    }

    /// The gate's own listing `request` got no answer, for `why` (a transport that sends it
    /// itself could not): every call that waited for it is refused.
    pub(crate) fn listing_unanswered(&mut self, request: &str, why: &str) -> Handled {
        let listing = Message::read(request)
            .ok()
            .and_then(|message| message.id)
            .and_then(|id| self.listings.answered(id.get()));
        match listing {
            Some(listing) => self.listing_failed(listing, why),
            None => Handled::default(),
        }
    }

    /// Judges a call that waited for a listing, now that it is in (or failed, for the
    /// reason given): its routes; its verdict goes to [`Gate::take_released`].
    pub(crate) fn release(&mut self, waiting: Waiting, listed: Result<(), &str>) -> Vec<Route> {
        let Waiting {
            line,
            id,
            arrived,
            span,
        } = waiting;
        let message = Message::read(&line).ok();
        let params = message.as_ref().and_then(Message::params);
        let (Some(params), Some(name)) = (
            params.as_ref(),
            params.as_ref().and_then(|p| p.name.clone()),
        ) else {
            return Vec::new();
        };
        let mut handled = span.in_scope(|| match listed {
            Ok(()) => self.judge(&line, &id, &name, params, true),
            Err(why) => {
                let verdict = CallVerdict::new(&name, params, self.tools.get(&name).is_some());
                let reply =
                    reply::tools_unavailable(&id, &name, why, self.shape(&name, params.tagged));
                self.refuse(&id, Outcome::ToolsUnavailable, reply, verdict)
            }
        });
        if let Some(verdict) = &mut handled.verdict {
            verdict.held = true;
        }
        self.track(&id, span, &handled);
        if let Some(verdict) = handled.verdict.take() {
            self.released.push(Released { verdict, arrived });
        }
        handled.routes
    }

    /// Whether a call to `name` waits for a listing: the gate never learned the tool, the
    /// server said its tools changed, or (on a transport with one answer channel, where
    /// calls keep their order) a listing is in flight already.
    pub(crate) fn must_wait(&self, name: &str) -> bool {
        let unknown = self.tools.get(name).is_none() && !self.listed_lately();
        self.stale || unknown || (!self.per_exchange && self.listings.any())
    }

    /// Whether the server's tools were listed less than [`LISTING_WINDOW`] ago: a call to a
    /// tool they do not name is refused without another listing.
    pub(crate) fn listed_lately(&self) -> bool {
        self.listed_at
            .is_some_and(|listed| listed.elapsed() < self.listing_window.unwrap_or(LISTING_WINDOW))
    }

    /// Holds a call until the server's tools are in: it joins the listing in flight, or
    /// starts one (one per call on a transport that matches answers itself, which sends the
    /// request and hands its answer back).
    pub(crate) fn hold(
        &mut self,
        line: &str,
        id: &str,
        params: &Params<'_>,
        span: CallSpan,
    ) -> Handled {
        let mut waiting = Waiting {
            line: line.to_owned(),
            id: id.to_owned(),
            arrived: Instant::now(),
            span,
        };
        if !self.per_exchange {
            match self.listings.join(waiting) {
                Ok(()) => return Handled::default(),
                Err(call) => waiting = call,
            }
        }
        let pending = &self.pending;
        let request = self
            .listings
            .start(waiting, Some(params.raw), |id| pending.contains(id));
        Handled {
            routes: vec![Route::ToServer(request)],
            verdict: None,
            listing: true,
        }
    }
}
