//! One call's arguments judged while they arrive, as the packages hand a stream out: it may be
//! fed and read after it finished, and then it holds nothing.

use serde_json::Value;
use toolargs_core::stream::ArgStream;
use toolargs_core::{ParseOptions, Parsed, Rejection};

use crate::tool::Tool;

/// One call judged while it arrives: the early rejection, the members accepted so far, and at
/// the end the verdict `parse` gives on the whole text.
pub struct Stream {
    /// `None` once finished.
    stream: Option<ArgStream<toolargs_dynamic::Spec>>,
}

impl Stream {
    /// A stream of one call to `tool`.
    pub fn of(tool: &Tool) -> Stream {
        Stream {
            // A copy of its own (sharing the loaded schema): the stream outlives no borrow.
            stream: Some(ArgStream::new(
                toolargs_dynamic::Spec::clone(&tool.spec),
                ParseOptions::DEFAULT,
            )),
        }
    }

    /// Takes the next piece of the text: the rejection once the call cannot be accepted;
    /// nothing after it finished.
    pub fn feed(&mut self, piece: &str) -> Option<Rejection> {
        self.stream.as_mut()?.feed(piece).err()
    }

    /// [`Stream::feed`] for bytes, which may end inside a character.
    pub fn feed_bytes(&mut self, piece: &[u8]) -> Option<Rejection> {
        self.stream.as_mut()?.feed_bytes(piece).err()
    }

    /// The members complete and accepted so far; an empty object after it finished.
    pub fn partial(&self) -> Value {
        match &self.stream {
            Some(stream) => stream.partial(),
            None => Value::Object(serde_json::Map::new()),
        }
    }

    /// Bytes received so far; 0 after it finished.
    pub fn received(&self) -> usize {
        self.stream.as_ref().map_or(0, ArgStream::received)
    }

    /// The verdict on the whole text, and how many bytes it was; nothing when the stream was
    /// finished before.
    pub fn finish(&mut self) -> Option<(Result<Parsed<Value>, Rejection>, usize)> {
        self.stream.take().map(|stream| {
            let size = stream.received();
            (stream.finish(), size)
        })
    }
}
