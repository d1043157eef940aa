"""A stdio MCP server with the standard library only, whose one tool, `issue_refund`
(`order_id`, `amount_cents` an integer, `currency` three capitals; destructive), executes every
call it is sent: it appends the arguments, as it read them, to the file named by `REFUNDS`.
"""
import json
import os
import sys

TOOL = {
    "name": "issue_refund",
    "annotations": {"destructiveHint": True},
    "inputSchema": {
        "type": "object",
        "properties": {
            "order_id": {"type": "string"},
            "amount_cents": {"type": "integer"},
            "currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
        },
        "required": ["order_id", "amount_cents", "currency"],
    },
}


def answer(message):
    method = message.get("method")
    if method == "initialize":
        return {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                "serverInfo": {"name": "refunds", "version": "1"}}
    if method == "tools/list":
        return {"tools": [TOOL]}
    if method == "tools/call":
        with open(os.environ["REFUNDS"], "a", encoding="utf-8") as out:
            out.write(json.dumps(message["params"].get("arguments")) + "\n")
        return {"content": [{"type": "text", "text": "refunded"}]}
    return {}


for line in sys.stdin:
    message = json.loads(line)
    if "id" in message and "method" in message:
        reply = {"jsonrpc": "2.0", "id": message["id"], "result": answer(message)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
