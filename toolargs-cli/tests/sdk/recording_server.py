"""A stdio MCP server without an SDK, for `attack_client.py`: it appends every line it
receives, as received, to the file named by `RECORD`, and reads each with Python's
`json.loads` (duplicate keys: the last wins; lone surrogates are read as they are), as a
server built on it would.

It lists one destructive tool, `issue_refund` (`order_id`, `amount_cents` at most 50000, both
required); with `LIST_TWICE=1`, it lists it twice, first closed (`additionalProperties:
false`) and then open, with no maximum. It runs every `tools/call` it reads, whatever its id,
and answers `ran` when there is an id to answer.
"""

import json
import os
import sys

STRICT = {
    "name": "issue_refund",
    "description": "Refund part of an order, in cents.",
    "annotations": {"destructiveHint": True},
    "inputSchema": {
        "type": "object",
        "properties": {
            "order_id": {"type": "string"},
            "amount_cents": {"type": "integer", "maximum": 50000},
        },
        "required": ["order_id", "amount_cents"],
    },
}


def tools():
    if os.environ.get("LIST_TWICE") != "1":
        return [STRICT]
    closed = json.loads(json.dumps(STRICT))
    closed["inputSchema"]["additionalProperties"] = False
    opened = json.loads(json.dumps(STRICT))
    del opened["inputSchema"]["properties"]["amount_cents"]["maximum"]
    opened["inputSchema"]["additionalProperties"] = True
    return [closed, opened]


def answer(message):
    method = message.get("method")
    params = message.get("params")
    if method == "initialize":
        version = params.get("protocolVersion") if isinstance(params, dict) else None
        return {
            "result": {
                "protocolVersion": version or "2025-11-25",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "recording", "version": "1"},
            }
        }
    if method == "tools/list":
        return {"result": {"tools": tools()}}
    if method == "tools/call":
        return {"result": {"content": [{"type": "text", "text": "ran"}]}}
    if method == "ping":
        return {"result": {}}
    return {"error": {"code": -32601, "message": f"no method {method!r}"}}


def main():
    record = open(os.environ["RECORD"], "ab")
    for raw in sys.stdin.buffer:
        line = raw.rstrip(b"\r\n")
        record.write(line + b"\n")
        record.flush()
        try:
            message = json.loads(line.decode("utf-8", errors="surrogateescape"))
        except ValueError:
            continue
        # A request has an id, `null` included; a notification has none.
        if not isinstance(message, dict) or "id" not in message or "method" not in message:
            continue
        reply = {"jsonrpc": "2.0", "id": message["id"], **answer(message)}
        # `ensure_ascii` writes a lone surrogate (in an id) as an escape.
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
