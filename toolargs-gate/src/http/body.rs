//! The body of an answer to a client: whole, the upstream's relayed as it comes, or the
//! upstream's event stream with each event's data through the gate. It holds its request's
//! place among those in flight (an open stream counts) until it is done with and its last
//! bytes are written to the client's socket.

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use bytes::Bytes;
use hyper::body::{Body, Frame, Incoming, SizeHint};

use super::{through_gate, Busy, Judged};
use crate::{sse, MAX_LINE_BYTES};

/// The body of an answer.
pub(super) struct Answer {
    out: Out,
    /// Dropped with the body, once hyper is done with it (the answer ended, or its client
    /// went away).
    _busy: Busy,
}

enum Out {
    /// All of it, sent in one piece.
    Whole(Option<Bytes>),
    /// The upstream's body, unread.
    Relayed(Incoming),
    /// The upstream's event stream, through the gate.
    Events(Box<Events>),
}

/// An event stream being relayed: what is left to read of it, the events read so far
/// (`None` once it ended), and the gate its messages go through.
struct Events {
    upstream: Incoming,
    reader: Option<sse::Reader>,
    judged: Judged,
}

impl Answer {
    pub(super) fn whole(bytes: Bytes, busy: Busy) -> Answer {
        Answer {
            out: Out::Whole(Some(bytes)),
            _busy: busy,
        }
    }

    pub(super) fn relayed(upstream: Incoming, busy: Busy) -> Answer {
        Answer {
            out: Out::Relayed(upstream),
            _busy: busy,
        }
    }

    pub(super) fn events(upstream: Incoming, judged: Judged, busy: Busy) -> Answer {
        let events = Events {
            upstream,
            reader: Some(sse::Reader::default()),
            judged,
        };
        Answer {
            out: Out::Events(Box::new(events)),
            _busy: busy,
        }
    }
}

impl Body for Answer {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        let this = self.get_mut();
        match &mut this.out {
            Out::Whole(bytes) => Poll::Ready(
                bytes
                    .take()
                    .filter(|b| !b.is_empty())
                    .map(|b| Ok(Frame::data(b))),
            ),
            Out::Relayed(upstream) => loop {
                match ready!(Pin::new(&mut *upstream).poll_frame(cx)) {
                    Some(Ok(frame)) if frame.is_data() => return Poll::Ready(Some(Ok(frame))),
                    // Trailers are the upstream connection's.
                    Some(Ok(_)) => continue,
                    // A body cut short ends here.
                    Some(Err(_)) | None => {
                        this.out = Out::Whole(None);
                        return Poll::Ready(None);
                    }
                }
            },
            Out::Events(events) => events.poll(cx),
        }
    }

    fn is_end_stream(&self) -> bool {
        match &self.out {
            Out::Whole(bytes) => bytes.as_ref().is_none_or(Bytes::is_empty),
            Out::Relayed(upstream) => upstream.is_end_stream(),
            Out::Events(events) => events.reader.is_none(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match &self.out {
            Out::Whole(bytes) => SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64)),
            Out::Relayed(upstream) => upstream.size_hint(),
            Out::Events(_) => SizeHint::default(),
        }
    }
}

impl Events {
    /// The next events the upstream completed, through the gate, as soon as there are any.
    fn poll(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        loop {
            let Some(reader) = self.reader.as_mut() else {
                return Poll::Ready(None);
            };
            let read = match ready!(Pin::new(&mut self.upstream).poll_frame(cx)) {
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(read) => read,
                    Err(_) => continue,
                },
                Some(Err(e)) => {
                    note!("toolargs gate: the upstream's event stream failed: {e}");
                    return Poll::Ready(self.finish());
                }
                None => return Poll::Ready(self.finish()),
            };
            let Ok(complete) = reader.feed(&read) else {
                note!("toolargs gate: the upstream sent an event longer than {MAX_LINE_BYTES} bytes; its stream is closed");
                self.reader = None;
                // Not ended as a stream ends: the client sees it cut.
                let why = "an event longer than the gate reads";
                return Poll::Ready(Some(Err(io::Error::new(io::ErrorKind::InvalidData, why))));
            };
            let mut relayed = Vec::new();
            for event in complete {
                relayed.extend(through_gate(event, &mut self.judged));
            }
            if !relayed.is_empty() {
                return Poll::Ready(Some(Ok(Frame::data(Bytes::from(relayed)))));
            }
        }
    }

    /// The end of the stream: what is left of an event not ended, as written.
    fn finish(&mut self) -> Option<Result<Frame<Bytes>, io::Error>> {
        let rest = self.reader.take()?.finish();
        (!rest.is_empty()).then(|| Ok(Frame::data(Bytes::from(rest))))
    }
}
