"""A small MCP server over stdio, with the standard library only, for the gate's tests.

It answers `initialize`, `tools/list` (two tools: `lookup`, read-only, and `refund`, with no
annotations) and `tools/call` (the result's text is the arguments it received, as JSON), and
sends a `sampling/createMessage` request of its own when called with `{"ask": true}`; it
names on stderr every answer it receives. When its input closes it exits with status 3, so
that the gate's exit status can be checked; on SIGHUP it says so and exits with status 5
(SIGTERM ends it as Python's default does).
"""
import json
import signal
import sys

TOOLS = [
    {"name": "lookup", "inputSchema": {"type": "object", "properties": {
        "q": {"type": "string"}, "ask": {"type": "boolean"}}},
     "annotations": {"readOnlyHint": True}},
    {"name": "refund", "inputSchema": {"type": "object", "properties": {
        "amount_cents": {"type": "integer", "minimum": 1, "maximum": 50000},
        "note": {"type": "string"}}, "required": ["amount_cents"]}},
]


def hang_up(signum, frame):
    sys.stderr.write("echo: got signal %d\n" % signum)
    sys.exit(5)


signal.signal(signal.SIGHUP, hang_up)


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    method, id_ = message.get("method"), message.get("id")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": id_, "result": {"protocolVersion": "2025-11-25",
              "capabilities": {"tools": {"listChanged": True}},
              "serverInfo": {"name": "echo", "version": "1"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": id_, "result": {"tools": TOOLS}})
    elif method == "tools/call":
        sys.stderr.write("echo: called %s\n" % message["params"]["name"])
        arguments = message["params"].get("arguments", {})
        if arguments.get("ask"):
            send({"jsonrpc": "2.0", "id": "s1", "method": "sampling/createMessage", "params": {}})
        send({"jsonrpc": "2.0", "id": id_, "result": {
            "content": [{"type": "text", "text": json.dumps(arguments, sort_keys=True)}]}})
    elif id_ is not None and method is not None:
        send({"jsonrpc": "2.0", "id": id_, "result": {}})
    elif method is None:
        sys.stderr.write("echo: got the answer to %s\n" % json.dumps(id_))
sys.exit(3)
