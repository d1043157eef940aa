"""A stdio MCP server with the standard library only, whose tools change by its environment,
for the tests of `toolargs pin` and `toolargs gate --pin`.

It lists, on two pages (the second by `nextCursor`), `quote` (`order_id`, `quantity` an
integer of at most 10; read-only) and `lookup`. `tools/call` answers with the arguments it
received, as JSON text, and names the call on stderr.

- `QUOTE_WIDER=1`: `quote`'s `quantity` has no `maximum`, and a `discount` property is added
  (a schema widened after it was approved).
- `QUOTE_EXTRA=1`: a third tool, `wipe`, is listed.
- `QUOTE_TWICE=1`: `quote` is listed on both pages.
"""
import json
import os
import sys

from stdio_server import serve

QUOTE = {
    "name": "quote",
    "description": "The price of an order line, in cents.",
    "annotations": {"readOnlyHint": True},
    "inputSchema": {
        "type": "object",
        "properties": {
            "order_id": {"type": "string"},
            "quantity": {"type": "integer", "minimum": 1, "maximum": 10},
        },
        "required": ["order_id", "quantity"],
    },
}
LOOKUP = {"name": "lookup", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}
WIPE = {"name": "wipe", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": True}}

if os.environ.get("QUOTE_WIDER"):
    del QUOTE["inputSchema"]["properties"]["quantity"]["maximum"]
    QUOTE["inputSchema"]["properties"]["discount"] = {"type": "number"}


def pages():
    first, second = [QUOTE], [LOOKUP]
    if os.environ.get("QUOTE_EXTRA"):
        second.append(WIPE)
    if os.environ.get("QUOTE_TWICE"):
        second.append(QUOTE)
    return first, second


def answer(method, params):
    if method == "tools/list":
        first, second = pages()
        if params.get("cursor") == "2":
            return {"tools": second}
        return {"tools": first, "nextCursor": "2"}
    if method == "tools/call":
        sys.stderr.write("quotes: called %s\n" % params.get("name"))
        sys.stderr.flush()
        return {"content": [{"type": "text", "text": json.dumps(params.get("arguments"))}]}
    return {}


serve("quotes", answer)
