"""The FastMCP middleware, with a real FastMCP server and its in-memory client."""

import asyncio
import json
import logging

import pytest
from fastmcp import Client, FastMCP
from fastmcp.tools import Tool

from toolargs.fastmcp import Gate


def shop():
    server = FastMCP("shop")
    verdicts = []
    server.add_middleware(Gate(on_verdict=lambda name, result: verdicts.append((name, result))))
    received = []

    @server.tool
    def refund(order_id: str, amount_cents: int, notify: bool = False) -> str:
        """Refund part of an order."""
        received.append(("refund", order_id, amount_cents, notify))
        return f"refunded {amount_cents}"

    @server.tool(annotations={"readOnlyHint": True})
    def lookup(order_id: str) -> str:
        """Look an order up."""
        received.append(("lookup", order_id))
        return f"order {order_id}"

    def remote(payload: dict) -> str:
        received.append(("remote", payload))
        return "ran"

    # A schema the gate cannot enforce as written: a reference it would have to fetch.
    tool = Tool.from_function(remote)
    tool.parameters["properties"]["payload"] = {"$ref": "https://example.com/payload.json"}
    server.add_tool(tool)

    return server, received, verdicts


def call(server, name, arguments):
    async def go():
        async with Client(server) as client:
            return await client.call_tool(name, arguments, raise_on_error=False)

    return asyncio.run(go())


def test_a_clean_call_reaches_the_tool_unchanged():
    server, received, verdicts = shop()
    result = call(server, "refund", {"order_id": "ord_1", "amount_cents": 1999})
    assert not result.is_error
    assert received == [("refund", "ord_1", 1999, False)]
    assert verdicts[0][0] == "refund" and verdicts[0][1].ok and not verdicts[0][1].repairs


def test_a_repaired_call_reaches_the_tool_repaired():
    server, received, verdicts = shop()
    result = call(server, "refund", {"order_id": "ord_1", "amount_cents": "1999", "notify": "true"})
    assert not result.is_error
    assert received == [("refund", "ord_1", 1999, True)]
    assert [r.rule for r in verdicts[0][1].repairs] == ["numeric_string_to_int", "string_to_bool"]


def test_a_rejected_call_never_reaches_the_tool_and_the_model_gets_the_errors():
    server, received, _ = shop()
    # FastMCP on its own would run this call with notify=True and 19 cents lost nowhere.
    result = call(server, "refund", {"order_id": "ord_1", "amount_cents": "19.99", "notify": "yes"})
    assert result.is_error
    assert received == []
    # `refund` returns a str, so FastMCP declares an output schema: the errors come as text.
    assert result.structured_content is None
    body = json.loads(result.content[0].text)
    assert body["ok"] is False
    assert [(e["path"], e["error"]) for e in body["errors"]] == [
        ("$.amount_cents", "ambiguous_integer"),
        ("$.notify", "ambiguous_boolean"),
    ]


def test_undeclared_keys_are_stripped_for_read_only_tools_and_rejected_for_the_others():
    server, received, _ = shop()
    assert not call(server, "lookup", {"order_id": "ord_1", "verbose": True}).is_error
    assert received == [("lookup", "ord_1")]
    result = call(server, "refund", {"order_id": "ord_1", "amount_cents": 5, "overwrite": True})
    assert result.is_error
    assert [e["error"] for e in json.loads(result.content[0].text)["errors"]] == ["unknown_field"]
    assert received == [("lookup", "ord_1")]


def test_a_tool_the_server_does_not_have_is_the_servers_answer():
    server, received, verdicts = shop()
    with pytest.raises(Exception):
        call_raising(server, "nope", {})
    assert received == [] and verdicts == []


def call_raising(server, name, arguments):
    async def go():
        async with Client(server) as client:
            return await client.call_tool(name, arguments)

    return asyncio.run(go())


def test_a_tool_whose_schema_does_not_load_is_passed_on_and_named_once(caplog):
    server, received, verdicts = shop()
    with caplog.at_level(logging.WARNING, logger="toolargs.fastmcp"):
        for _ in range(2):
            assert not call(server, "remote", {"payload": {"a": 1}}).is_error
    assert received == [("remote", {"a": 1})] * 2 and verdicts == []
    named = [r.getMessage() for r in caplog.records if "remote" in r.getMessage()]
    assert len(named) == 1 and "does not load" in named[0]


def test_a_tool_without_an_output_schema_gets_the_errors_as_structured_content_too():
    server = FastMCP("plain")
    server.add_middleware(Gate())

    def count(n: int):
        return None

    tool = Tool.from_function(count)
    assert tool.output_schema is None
    server.add_tool(tool)
    result = call(server, "count", {"n": "two"})
    assert result.is_error
    assert result.structured_content == json.loads(result.content[0].text)
    assert result.structured_content["errors"][0]["error"] == "ambiguous_integer"
