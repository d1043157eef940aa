//! Server-sent events read as they arrive, each kept as written: the Streamable HTTP
//! transport hands an event's data (one JSON-RPC message) to the gate and passes the event on.

use crate::MAX_LINE_BYTES;

/// One event as read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Event {
    /// Its bytes as written, up to and including the blank line that ends it.
    pub raw: Vec<u8>,
    /// Its `data` lines joined by line feeds, when it has any and they are UTF-8.
    pub data: Option<String>,
    /// Its other lines (`id:`, `event:`, `retry:`, comments), as written with their line
    /// endings: what is kept when the data is written anew.
    pub fields: Vec<u8>,
}

impl Event {
    /// The event with `data` in place of its data (`data:` lines, one per line of it), its
    /// other fields kept.
    pub(crate) fn with_data(&self, data: &str) -> Vec<u8> {
        let mut out = self.fields.clone();
        for line in data.split('\n') {
            out.extend_from_slice(b"data: ");
            out.extend_from_slice(line.as_bytes());
            out.push(b'\n');
        }
        out.push(b'\n');
        out
    }
}

/// An event longer than [`MAX_LINE_BYTES`]: the stream is not followed further.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct TooLong;

/// Splits a stream into events, across reads that cut lines or events anywhere.
#[derive(Debug, Default)]
pub(crate) struct Reader {
    /// Bytes read and not yet part of a complete line.
    partial: Vec<u8>,
    /// How much of `partial` holds no line ending (not scanned again).
    scanned: usize,
    /// The complete lines of the event being read, as written.
    raw: Vec<u8>,
    fields: Vec<u8>,
    data: Option<Vec<u8>>,
}

impl Reader {
    /// Reads `bytes`, the next part of the stream: the events it completes.
    pub(crate) fn feed(&mut self, bytes: &[u8]) -> Result<Vec<Event>, TooLong> {
        self.partial.extend_from_slice(bytes);
        let mut events = Vec::new();
        let mut start = 0;
        let mut at = self.scanned;
        loop {
            let Some(offset) = self.partial[at..]
                .iter()
                .position(|&b| b == b'\n' || b == b'\r')
            else {
                at = self.partial.len();
                break;
            };
            let end = at + offset;
            let ending = match (self.partial[end], self.partial.get(end + 1)) {
                (b'\r', Some(b'\n')) => 2,
                // A carriage return last in what was read: a line feed may follow.
                (b'\r', None) => {
                    at = end;
                    break;
                }
                _ => 1,
            };
            let line = self.partial[start..end + ending].to_vec();
            if let Some(event) = self.line(&line, end - start) {
                events.push(event);
            }
            start = end + ending;
            at = start;
        }
        self.partial.drain(..start);
        self.scanned = at - start;
        if self.raw.len() + self.partial.len() > MAX_LINE_BYTES {
            return Err(TooLong);
        }
        Ok(events)
    }

    /// What is left at the end of the stream: an event not ended by a blank line, as written
    /// (a client drops it; the gate does not judge it).
    pub(crate) fn finish(mut self) -> Vec<u8> {
        self.raw.append(&mut self.partial);
        self.raw
    }

    /// Takes one line, `length` bytes long before its line ending: the event it ends, if any.
    fn line(&mut self, line: &[u8], length: usize) -> Option<Event> {
        self.raw.extend_from_slice(line);
        let content = &line[..length];
        if content.is_empty() {
            let data = self.data.take().and_then(|mut data| {
                // Each value was followed by a line feed; the last one is not part of it.
                data.pop();
                String::from_utf8(data).ok()
            });
            return Some(Event {
                raw: std::mem::take(&mut self.raw),
                data,
                fields: std::mem::take(&mut self.fields),
            });
        }
        let (name, value) = match content.iter().position(|&b| b == b':') {
            Some(colon) => {
                let value = &content[colon + 1..];
                (&content[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (content, &b""[..]),
        };
        if name == b"data" {
            let data = self.data.get_or_insert_with(Vec::new);
            data.extend_from_slice(value);
            data.push(b'\n');
        } else {
            self.fields.extend_from_slice(line);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(parts: &[&str]) -> (Vec<Event>, Vec<u8>) {
        let mut reader = Reader::default();
        let mut events = Vec::new();
        for part in parts {
            events.extend(reader.feed(part.as_bytes()).unwrap());
        }
        (events, reader.finish())
    }

    #[test]
    fn an_event_is_its_bytes_as_written_and_its_data() {
        let stream = "event: message\r\nid: 7\r\ndata: {\"id\":1}\r\n\r\n";
        let (events, rest) = events(&[stream]);
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].raw, stream.as_bytes());
        assert_eq!(events[0].data.as_deref(), Some(r#"{"id":1}"#));
        assert_eq!(events[0].fields, b"event: message\r\nid: 7\r\n");
        assert!(rest.is_empty());
    }

    #[test]
    fn an_event_split_anywhere_across_reads_reads_the_same() {
        let stream = "id: a\ndata: {\"x\":\n\ndata: 2\r\n\r\n: ping\r\rdata:3\r\r\n";
        let (whole, _) = events(&[stream]);
        assert_eq!(whole.len(), 4);
        for cut in 0..stream.len() {
            for second in cut..stream.len() {
                let (split, rest) =
                    events(&[&stream[..cut], &stream[cut..second], &stream[second..]]);
                assert_eq!(split, whole, "cut at {cut} and {second}");
                assert!(rest.is_empty());
            }
        }
        assert_eq!(whole[1].data.as_deref(), Some("2"));
        assert_eq!(whole[2].data, None);
        assert_eq!(whole[2].raw, b": ping\r\r");
        assert_eq!(whole[3].data.as_deref(), Some("3"));
    }

    #[test]
    fn data_lines_are_joined_by_line_feeds() {
        let (events, _) = events(&["data: {\"a\":\ndata:  1}\ndata\ndata:\n\n"]);
        assert_eq!(events[0].data.as_deref(), Some("{\"a\":\n 1}\n\n"));
    }

    #[test]
    fn comments_and_fields_are_kept_and_written_back_with_new_data() {
        let (events, _) = events(&[": keep-alive\nid: 12\nretry: 500\ndata: old\n\n"]);
        assert_eq!(events[0].fields, b": keep-alive\nid: 12\nretry: 500\n");
        assert_eq!(
            events[0].with_data("{\"a\":1}\n{\"b\":2}"),
            b": keep-alive\nid: 12\nretry: 500\ndata: {\"a\":1}\ndata: {\"b\":2}\n\n"
        );
    }

    #[test]
    fn an_event_not_ended_is_left_as_written() {
        let (events, rest) = events(&["data: 1\n\ndata: 2\nid: 3"]);
        assert_eq!(events.len(), 1);
        assert_eq!(rest, b"data: 2\nid: 3");
    }

    #[test]
    fn an_event_longer_than_the_bound_stops_the_stream() {
        let mut reader = Reader::default();
        let chunk = vec![b'x'; 1 << 20];
        assert!(reader.feed(b"data: ").is_ok());
        let mut failed = false;
        for _ in 0..=(MAX_LINE_BYTES >> 20) {
            if reader.feed(&chunk) == Err(TooLong) {
                failed = true;
                break;
            }
        }
        assert!(failed);
    }
}
