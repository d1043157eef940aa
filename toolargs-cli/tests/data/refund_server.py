"""A stdio MCP server with the standard library only, whose one tool, `issue_refund`
(`order_id`, `amount_cents` an integer, `currency` three capitals; destructive), executes every
call it is sent: it appends the arguments, as it read them, to the file named by `REFUNDS`.
"""
import json
import os

from stdio_server import serve

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


def answer(method, params):
    if method == "tools/list":
        return {"tools": [TOOL]}
    if method == "tools/call":
        with open(os.environ["REFUNDS"], "a", encoding="utf-8") as out:
            out.write(json.dumps(params.get("arguments")) + "\n")
        return {"content": [{"type": "text", "text": "refunded"}]}
    return {}


serve("refunds", answer)
