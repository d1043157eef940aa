"""The FastMCP middleware, with a real FastMCP server and its in-memory client."""

import asyncio
import json
import logging
from typing import Annotated

import pytest
from fastmcp import Client, FastMCP
from fastmcp.tools import Tool
from pydantic import Field

from toolargs.fastmcp import Gate


def shop(**options):
    server = FastMCP("shop")
    verdicts = []
    server.add_middleware(Gate(on_verdict=lambda name, result: verdicts.append((name, result)), **options))
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


def test_a_tool_whose_schema_does_not_load_is_refused_and_named_once(caplog):
    server, received, verdicts = shop()
    with caplog.at_level(logging.WARNING, logger="toolargs.fastmcp"):
        for _ in range(2):
            result = call(server, "remote", {"payload": {"a": 1}})
            assert result.is_error
            assert [e["error"] for e in json.loads(result.content[0].text)["errors"]] == ["unchecked_tool"]
    assert received == [] and verdicts == []
    named = [r.getMessage() for r in caplog.records if "remote" in r.getMessage()]
    assert len(named) == 1 and "does not load" in named[0]


def test_a_tool_whose_schema_does_not_load_is_passed_on_when_the_gate_says_so():
    server, received, verdicts = shop(unchecked="pass")
    assert not call(server, "remote", {"payload": {"a": 1}}).is_error
    assert received == [("remote", {"a": 1})] and verdicts == []
    with pytest.raises(ValueError):
        Gate(unchecked="open")


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


# Meaning, within the client's session.

MONEY = {"semantic": "money", "currency": "currency", "minor_units": True, "critical": True}


def refunds(declared_in_schema=False, **gate):
    """A server with `issue_refund` (destructive; its meaning declared to the gate, or in its
    schema under `x-toolargs`) and a read-only `lookup_order`; what reached them, in order."""
    server = FastMCP("refunds")
    verdicts = []
    meaning = {} if declared_in_schema else {"meaning": {"issue_refund": {"amount_cents": MONEY}}}
    server.add_middleware(Gate(on_verdict=lambda n, r: verdicts.append((n, r)), **meaning, **gate))
    received = []
    amount = Annotated[int, Field(json_schema_extra={"x-toolargs": MONEY})] if declared_in_schema else int

    @server.tool(annotations={"destructiveHint": True})
    def issue_refund(
        order_id: str, amount_cents: amount, currency: Annotated[str, Field(pattern="^[A-Z]{3}$")]
    ) -> str:
        """Refund part of an order."""
        received.append((order_id, amount_cents, currency))
        return "refunded"

    @server.tool(annotations={"readOnlyHint": True})
    def lookup_order(order_id: str) -> str:
        received.append(("lookup", order_id))
        return "found"

    return server, received, verdicts


def calls(server, *made, mode="auto"):
    """The results of `made` (tool name, arguments), in one client's session."""

    async def go():
        async with Client(server, mode=mode) as client:
            return [await client.call_tool(n, a, raise_on_error=False) for n, a in made]

    return asyncio.run(go())


def errors(result):
    assert result.is_error
    return [e["error"] for e in json.loads(result.content[0].text)["errors"]]


def ref(order_id, amount, currency="USD"):
    return ("issue_refund", {"order_id": order_id, "amount_cents": amount, "currency": currency})


@pytest.mark.parametrize("declared_in_schema", [False, True])
def test_the_refund_a_model_corrects_runs_once_and_as_meant(declared_in_schema):
    server, received, verdicts = refunds(declared_in_schema)
    results = calls(
        server,
        ref("ord_1", "19.99"),  # dollars where cents go: rejected, the original
        ref("ord_1", 199900),  # a hundred times what was meant
        ref("ord_1", 1999),  # what was meant
        ref("ord_1", 1999),  # the same refund again
        ref("ord_2", "15,00"),  # another order, in a decimal comma
        ref("ord_2", 1500, "CAD"),  # corrected into another currency
    )
    assert errors(results[0]) == ["ambiguous_integer"]
    assert errors(results[1]) == ["meaning_changed"]
    assert not results[2].is_error and results[2].content[0].text == "refunded"
    assert errors(results[3]) == ["duplicate_action"]
    assert errors(results[4]) == ["ambiguous_integer"]
    assert errors(results[5]) == ["meaning_changed"]
    # Only the refund that means it reached the tool, once.
    assert received == [("ord_1", 1999, "USD")]
    assert [r.decision for _, r in verdicts] == ["reject", "reject", "proceed", "confirm", "reject", "reject"]
    # `issue_refund` returns a str, so it declares an output schema: the errors come as text.
    assert all(r.structured_content is None for r in results if r.is_error)


def test_a_read_only_tool_proceeds_however_often_it_is_called():
    server, received, verdicts = refunds()
    results = calls(server, *[("lookup_order", {"order_id": "ord_1"})] * 3)
    assert not any(r.is_error for r in results)
    assert received == [("lookup", "ord_1")] * 3
    assert [r.decision for _, r in verdicts] == ["proceed"] * 3


def test_a_read_only_tool_whose_correction_means_otherwise_runs_and_is_reported():
    server = FastMCP("quotes")
    verdicts = []
    money = dict(MONEY, critical=False)
    server.add_middleware(Gate(lambda n, r: verdicts.append(r), meaning={"quote": {"amount_cents": money}}))
    quoted = []

    @server.tool(annotations={"readOnlyHint": True})
    def quote(amount_cents: int, currency: str) -> str:
        quoted.append(amount_cents)
        return "quoted"

    results = calls(
        server,
        ("quote", {"amount_cents": "19.99", "currency": "USD"}),
        ("quote", {"amount_cents": 199900, "currency": "USD"}),
        ("quote", {"amount_cents": 199900, "currency": "USD"}),
    )
    assert [r.is_error for r in results] == [True, False, False]
    assert quoted == [199900, 199900]
    assert [r.decision for r in verdicts] == ["reject", "proceed_and_report", "proceed"]
    assert [f["code"] for f in verdicts[1].findings] == ["confirmation_required"]


def test_each_mcp_session_has_its_own_corrections_and_actions():
    server, received, _ = refunds()
    # On handshake-era connections, each client is an MCP session of its own.
    first = calls(server, ref("ord_1", "19.99"), ref("ord_1", 1999), mode="legacy")
    assert errors(first[0]) == ["ambiguous_integer"] and not first[1].is_error
    # Another session: no original to compare with, no refund that ran in it.
    second = calls(server, ref("ord_1", 199900), ref("ord_1", 1999), mode="legacy")
    assert not second[0].is_error and not second[1].is_error
    assert received == [("ord_1", 1999, "USD"), ("ord_1", 199900, "USD"), ("ord_1", 1999, "USD")]


def test_the_corrections_and_the_window_are_options():
    # No correction allowed: the call after a rejected one is refused unjudged.
    server, received, _ = refunds(corrections_per_tool=0)
    results = calls(server, ref("ord_1", "19.99"), ref("ord_1", 1999))
    assert errors(results[1]) == ["retry_budget_exhausted"] and received == []
    # No window: the same refund again is no duplicate.
    server, received, _ = refunds(duplicate_window=0)
    results = calls(server, ref("ord_1", 1999), ref("ord_1", 1999))
    assert not any(r.is_error for r in results) and len(received) == 2
    with pytest.raises(ValueError, match="duplicate_window"):
        Gate(duplicate_window=-1)
    with pytest.raises(TypeError, match="corrections_per_tool"):
        Gate(corrections_per_tool="2")


def test_a_call_held_reaches_the_tool_as_structured_errors_when_no_output_schema():
    server = FastMCP("plain")
    server.add_middleware(Gate(meaning={"pay": {"amount_cents": MONEY}}))
    paid = []

    def pay(amount_cents: int, currency: str):
        paid.append(amount_cents)

    tool = Tool.from_function(pay)
    assert tool.output_schema is None
    server.add_tool(tool)
    results = calls(server, *[("pay", {"amount_cents": 5, "currency": "EUR"})] * 2)
    assert paid == [5]
    assert results[1].structured_content == json.loads(results[1].content[0].text)
    assert results[1].structured_content["errors"][0]["error"] == "duplicate_action"


def test_a_meaning_that_does_not_fit_the_tool_keeps_it_from_running(caplog):
    server = FastMCP("shop")
    # `amount` is no argument of the tool.
    server.add_middleware(Gate(meaning={"issue_refund": {"amount": MONEY}}))
    received = []

    @server.tool
    def issue_refund(order_id: str, amount_cents: int, currency: str) -> str:
        received.append(order_id)
        return "refunded"

    with caplog.at_level(logging.ERROR, logger="toolargs.fastmcp"):
        results = calls(server, *[ref("ord_1", 1999)] * 2)
    assert received == []
    for result in results:
        assert result.is_error and "issue_refund" in result.content[0].text
        assert "amount" in result.content[0].text
    assert len([r for r in caplog.records if "issue_refund" in r.getMessage()]) == 1
