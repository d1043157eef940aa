//! A client's connection, which says when its answers have left: a request counts as in
//! flight until its answer is written to the socket, not just until hyper is done with its
//! body (then the answer may still sit in hyper's buffer, and a drain that ends there would
//! end the process before it is sent).

use std::io::{self, IoSlice};
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use hyper::rt::{Read, ReadBufCursor, Write};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use super::Control;

/// The answers of one connection whose bodies are done with and not yet flushed.
pub(super) struct Connection {
    control: Arc<Control>,
    /// The client's address.
    peer: IpAddr,
    unflushed: AtomicUsize,
    closed: AtomicBool,
}

impl Connection {
    pub(super) fn new(control: Arc<Control>, peer: IpAddr) -> Connection {
        Connection {
            control,
            peer,
            unflushed: AtomicUsize::new(0),
            closed: AtomicBool::new(false),
        }
    }

    pub(super) fn control(&self) -> &Arc<Control> {
        &self.control
    }

    /// The client's address.
    pub(super) fn peer(&self) -> IpAddr {
        self.peer
    }

    /// An answer's body is done with: it counts until the next flush.
    pub(super) fn answered(&self) {
        if self.closed.load(Ordering::SeqCst) {
            self.control.finished(1);
            return;
        }
        self.unflushed.fetch_add(1, Ordering::SeqCst);
        // Closed meanwhile: nothing will flush it.
        if self.closed.load(Ordering::SeqCst) {
            self.release();
        }
    }

    /// What was written reached the socket.
    fn flushed(&self) {
        if self.unflushed.load(Ordering::Relaxed) > 0 {
            self.release();
        }
    }

    /// The connection ended: nothing more leaves on it.
    fn closed(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.release();
    }

    fn release(&self) {
        let answers = self.unflushed.swap(0, Ordering::SeqCst);
        if answers > 0 {
            self.control.finished(answers);
        }
    }
}

/// The connection's socket, as hyper reads and writes it.
pub(super) struct Socket {
    io: TokioIo<TcpStream>,
    connection: Arc<Connection>,
}

impl Socket {
    pub(super) fn new(stream: TcpStream, connection: Arc<Connection>) -> Socket {
        Socket {
            io: TokioIo::new(stream),
            connection,
        }
    }
}

impl Drop for Socket {
    fn drop(&mut self) {
        self.connection.closed();
    }
}

impl Read for Socket {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl Write for Socket {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    /// hyper flushes once its buffer is written: the answers done with before have left.
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let flushed = Pin::new(&mut this.io).poll_flush(cx);
        if matches!(flushed, Poll::Ready(Ok(()))) {
            this.connection.flushed();
        }
        flushed
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}
