"""A FastMCP server with typed tools, for the gate's end-to-end tests.

Every call a tool receives is appended to the JSON-lines file named by `SHOP_RECORD`, with the
values as the tool got them (after FastMCP's own validation), so a test can tell what reached
the tool and in which type.
"""

import json
import os
from typing import Annotated, Literal

from fastmcp import FastMCP
from pydantic import Field

mcp = FastMCP("shop")


def record(tool: str, **arguments) -> None:
    with open(os.environ["SHOP_RECORD"], "a", encoding="utf-8") as out:
        out.write(json.dumps({"tool": tool, "arguments": arguments}) + "\n")


@mcp.tool
def refund(order_id: str, amount_cents: int, notify: bool = False) -> dict:
    """Refund part of an order, in cents; optionally tell the customer."""
    record("refund", order_id=order_id, amount_cents=amount_cents, notify=notify)
    return {"order_id": order_id, "refunded_cents": amount_cents, "notified": notify}


@mcp.tool(annotations={"destructiveHint": True})
def issue_refund(
    order_id: str, amount_cents: int, currency: Annotated[str, Field(pattern="^[A-Z]{3}$")]
) -> dict:
    """Refund part of an order, in cents of `currency`."""
    record("issue_refund", order_id=order_id, amount_cents=amount_cents, currency=currency)
    return {"order_id": order_id, "refunded_cents": amount_cents, "currency": currency}


@mcp.tool(annotations={"destructiveHint": False})
def create_invoice(
    amount: float = 0,
    currency: Annotated[str, Field(pattern="^[A-Z]{3}$")] = "USD",
    due_date: str = "",
    duration: float = 0,
    unit: str = "h",
    speed: Literal["standard", "overnight"] = "standard",
    recipient: str = "",
) -> dict:
    """Invoice work: an amount, when it is due, how long it took, how fast, and for whom."""
    arguments = dict(amount=amount, currency=currency, due_date=due_date, duration=duration)
    record("create_invoice", **arguments, unit=unit, speed=speed, recipient=recipient)
    return {"invoiced": True}


@mcp.tool(annotations={"readOnlyHint": True})
def quote(order_id: str, quantity: int = 1) -> dict:
    """The price of an order line, in cents."""
    record("quote", order_id=order_id, quantity=quantity)
    return {"order_id": order_id, "total_cents": 250 * quantity}


if os.environ.get("SHOP_CHANGES"):
    # A server whose tools change while a client is connected: `tighten` replaces `quote` with
    # one that takes at most 10, and says so with `notifications/tools/list_changed`.
    import mcp_types
    from fastmcp import Context

    @mcp.tool
    async def tighten(ctx: Context) -> str:
        """Lower the most a quote may ask for to 10."""
        mcp.local_provider.remove_tool("quote")

        @mcp.tool(annotations={"readOnlyHint": True})
        def quote(order_id: str, quantity: Annotated[int, Field(ge=1, le=10)] = 1) -> dict:
            """The price of an order line, in cents (at most 10)."""
            record("quote", order_id=order_id, quantity=quantity)
            return {"order_id": order_id, "total_cents": 250 * quantity}

        await ctx.send_notification(mcp_types.ToolListChangedNotification())
        return "quote takes at most 10 now"


if __name__ == "__main__":
    import sys

    # `fastmcp_server.py --http PORT [--stateless]`: Streamable HTTP on 127.0.0.1:PORT/mcp
    # (stateless: no session, a fresh transport per request), else stdio.
    if sys.argv[1:2] == ["--http"]:
        mcp.run(transport="http", host="127.0.0.1", port=int(sys.argv[2]), show_banner=False, log_level="warning",
                stateless_http="--stateless" in sys.argv[3:])
    else:
        mcp.run(show_banner=False)
