"""The MCP server of `scripts/gate_bench.py`: one refund tool, answered as cheaply as it can be.

Standard library only. Two transports:

- `gate_bench_server.py` (stdio): newline-delimited JSON-RPC on stdin and stdout. It reads
  what has arrived with one `os.read`, answers every complete line of it, and writes the
  answers with one `os.write` (so that it is cheap both for one call at a time and for many
  calls written ahead);
- `gate_bench_server.py --http PORT`: Streamable HTTP at `http://127.0.0.1:PORT/mcp`
  (`http.server.ThreadingHTTPServer`, HTTP/1.1 keep-alive, `application/json` answers).
  `initialize` opens a session (an `Mcp-Session-Id` header), notifications get
  `202 Accepted`, and `GET /stats` gives how many connections and requests it has served
  (`{"connections": C, "requests": R}`). It names its port on stderr once it listens (port 0
  picks a free one).

Both answer `initialize`, `tools/list` (the refund tool) and `tools/call`. A call's result is
one text block naming the type `amount_cents` arrived as (`int` or `str`), so that a client
can tell a repaired call from one passed as sent; other requests are answered `{}`.
"""

import json
import os
import signal
import sys
import threading
import uuid

REFUND = {
    "name": "refund",
    "description": "Refund part of an order, in cents.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "order_id": {"type": "string"},
            "amount_cents": {"type": "integer", "minimum": 1, "maximum": 50000},
            "notify": {"type": "boolean"},
        },
        "required": ["order_id", "amount_cents"],
    },
}

def compact(value):
    return json.dumps(value, separators=(",", ":"))


INITIALIZED = compact({
    "protocolVersion": "2025-11-25",
    "capabilities": {"tools": {}},
    "serverInfo": {"name": "gate-bench", "version": "1"},
})
LISTED = compact({"tools": [REFUND]})
CALLED = {
    kind: compact({"content": [{"type": "text", "text": kind}]})
    for kind in ("int", "str", "other")
}
EMPTY = "{}"


def answer(message):
    """The answer to one message as a string, or None for a notification or an answer."""
    id_ = message.get("id")
    method = message.get("method")
    if id_ is None or method is None:
        return None
    if method == "tools/call":
        amount = message["params"]["arguments"].get("amount_cents")
        result = CALLED["int" if type(amount) is int else "str" if type(amount) is str else "other"]
    elif method == "initialize":
        result = INITIALIZED
    elif method == "tools/list":
        result = LISTED
    else:
        result = EMPTY
    return '{"jsonrpc":"2.0","id":%s,"result":%s}' % (json.dumps(id_), result)


def serve_stdio():
    loads = json.loads
    pending = b""
    while True:
        chunk = os.read(0, 1 << 16)
        if not chunk:
            return
        pending += chunk
        *lines, pending = pending.split(b"\n")
        out = []
        for line in lines:
            if line.strip():
                reply = answer(loads(line))
                if reply is not None:
                    out.append(reply)
        if out:
            data = ("\n".join(out) + "\n").encode()
            while data:
                data = data[os.write(1, data):]


def serve_http(port):
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    counts = {"connections": 0, "requests": 0}
    counted = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # The head and the body in one write, sent at once (no Nagle delay).
        wbufsize = 1 << 16
        disable_nagle_algorithm = True

        def setup(self):
            super().setup()
            with counted:
                counts["connections"] += 1

        def log_message(self, *args):
            pass

        def do_POST(self):
            with counted:
                counts["requests"] += 1
            if self.path.split("?", 1)[0] != "/mcp":
                return self.reply(404, b"")
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            message = json.loads(body)
            text = answer(message)
            if text is None:
                return self.reply(202, b"")
            extra = {}
            if message.get("method") == "initialize":
                extra["Mcp-Session-Id"] = uuid.uuid4().hex
            self.reply(200, text.encode(), extra)

        def do_DELETE(self):
            self.reply(200, b"")

        def do_GET(self):
            # `GET /stats`: the counts so far (the MCP endpoint has no event stream: 405).
            if self.path == "/stats":
                with counted:
                    body = json.dumps(counts).encode()
                return self.reply(200, body)
            self.reply(405, b"")

        def reply(self, status, body, extra=None):
            self.send_response(status)
            for name, value in (extra or {}).items():
                self.send_header(name, value)
            if body:
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if body:
                self.wfile.write(body)

    class Server(ThreadingHTTPServer):
        daemon_threads = True
        request_queue_size = 1024

    server = Server(("127.0.0.1", port), Handler)

    def stop(*_):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    sys.stderr.write("gate_bench_server: listening on http://127.0.0.1:%d/mcp\n" % server.server_address[1])
    sys.stderr.flush()
    server.serve_forever()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--http"]:
        serve_http(int(sys.argv[2]))
    else:
        serve_stdio()
