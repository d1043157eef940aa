"""The ways around a gate that judges only the tools a client listed, tried with the official
MCP Python SDK against the FastMCP server of `fastmcp_server.py`; each must be closed.

- over stdio, a client that calls before it lists (as one that cached the tool list does);
- a restarted gate, and a client that lists in its first session and not in the second: the
  same verdicts in both;
- a tool the server does not list at all;
- the server's tools changing under the client (`notifications/tools/list_changed`), the
  client calling without listing again;
- over Streamable HTTP, a stateless upstream (a fresh transport per request), in both
  revisions the SDK speaks, with calls made before any listing;
- over Streamable HTTP, 16 sessions of both revisions at once, none of which lists.

In each, a call with an invented key to the destructive `refund` is rejected `unknown_field`
and never reaches the tool (its record file shows what did), and the verdict log says the call
waited for the gate's own listing (`held`).

Usage: around_client.py CONTEXT, the JSON object of `client.py` (`gate`, `venv`, `sdk`, `run`).
Prints what it checked; exits 1 when a check fails.
"""

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from http_client import Checks, dump, errors_of, free_port, read_text, records, start_gate, stop, wait_for_port

CLIENT = "around"
INVENTED = {"order_id": "o1", "amount_cents": 1999, "overwrite": True}


def stdio_params(context, record, log, changes=False):
    sdk = Path(context["sdk"])
    env = dict(os.environ, SHOP_RECORD=str(record))
    if changes:
        env["SHOP_CHANGES"] = "1"
    python = str(Path(context["venv"]) / "bin" / "python")
    return StdioServerParameters(
        command=context["gate"],
        args=["gate", "--log", str(log), "--", python, str(sdk / "fastmcp_server.py")],
        env=env,
    )


async def stdio_session(params, errlog, body):
    async with stdio_client(params, errlog=errlog) as (read, write):
        async with ClientSession(read, write, read_timeout_seconds=60) as session:
            await session.initialize()
            return await body(session)


async def call_before_listing(context, run, checks):
    print(f"== {CLIENT} client: stdio, calls before any tools/list")
    record, log = run / "stdio.record.jsonl", run / "stdio.verdicts.jsonl"
    errlog = open(run / "stdio.stderr", "w", encoding="utf-8")

    async def body(session):
        invented = dump(await session.call_tool("refund", INVENTED))
        reached_invented = records(record)
        repaired = dump(await session.call_tool("refund", {"order_id": "o2", "amount_cents": "1999"}))
        reached_repaired = records(record)
        unlisted = dump(await session.call_tool("refund_everything", {}))
        return invented, reached_invented, repaired, reached_repaired, unlisted

    invented, reached_invented, repaired, reached_repaired, unlisted = await stdio_session(
        stdio_params(context, record, log), errlog, body
    )
    checks.check(
        "an invented key before listing is rejected unknown_field",
        invented["isError"] and "unknown_field" in errors_of(invented),
        f"{invented}",
    )
    checks.check("and never reaches the tool", reached_invented == [], f"{reached_invented}")
    checks.check(
        "a repairable call before listing reaches the tool repaired",
        not repaired["isError"]
        and len(reached_repaired) == 1
        and reached_repaired[0]["arguments"]["amount_cents"] == 1999,
        f"{repaired} {reached_repaired}",
    )
    checks.check(
        "a tool the server does not list is refused unknown_tool",
        unlisted["isError"] and errors_of(unlisted) == ["unknown_tool"],
        f"{unlisted}",
    )
    verdicts = records(log)
    checks.check(
        "the log has each verdict, the first one held for the gate's listing",
        [v["outcome"] for v in verdicts] == ["rejected", "repaired", "unknown_tool"]
        and verdicts[0].get("held") is True,
        f"{verdicts}",
    )


async def restarted_gate(context, run, checks):
    print(f"== {CLIENT} client: a restarted gate, a client that cached the list")
    record, log = run / "restart.record.jsonl", run / "restart.verdicts.jsonl"
    errlog = open(run / "restart.stderr", "w", encoding="utf-8")
    params = stdio_params(context, record, log)

    async def listing_first(session):
        await session.list_tools()
        return dump(await session.call_tool("refund", INVENTED))

    async def cached(session):
        return dump(await session.call_tool("refund", INVENTED))

    first = await stdio_session(params, errlog, listing_first)
    second = await stdio_session(params, errlog, cached)
    checks.check(
        "the client that lists and the one that does not see the same answer",
        first == second and first["isError"],
        f"\n  listed {first}\n  cached {second}",
    )
    checks.check("neither call reaches the tool", read_text(record) == "", read_text(record))
    verdicts = records(log)
    checks.check(
        "the two runs' verdicts are in the log, the same but for the wait",
        [(v["outcome"], v["codes"], v.get("held", False)) for v in verdicts]
        == [("rejected", ["unknown_field"], False), ("rejected", ["unknown_field"], True)],
        f"{verdicts}",
    )


async def tools_change(context, run, checks):
    print(f"== {CLIENT} client: the server's tools change under the client")
    record, log = run / "changes.record.jsonl", run / "changes.verdicts.jsonl"
    errlog = open(run / "changes.stderr", "w", encoding="utf-8")

    async def body(session):
        await session.list_tools()
        before = dump(await session.call_tool("quote", {"order_id": "q1", "quantity": 50}))
        await session.call_tool("tighten", {})
        # The client does not list again; the gate must not judge by the old schema.
        after = dump(await session.call_tool("quote", {"order_id": "q2", "quantity": 50}))
        return before, after

    before, after = await stdio_session(stdio_params(context, record, log, changes=True), errlog, body)
    checks.check("before the change, 50 is a quantity", not before["isError"], f"{before}")
    checks.check(
        "after list_changed, 50 is judged by the new schema: out_of_range",
        after["isError"] and "out_of_range" in errors_of(after),
        f"{after}",
    )
    checks.check(
        "and never reaches the tool",
        [r["arguments"]["order_id"] for r in records(record) if r["tool"] == "quote"] == ["q1"],
        read_text(record),
    )


async def stateless_http(context, run, checks):
    print(f"== {CLIENT} client: a stateless HTTP upstream, calls before any tools/list")
    record = run / "stateless.record.jsonl"
    port = free_port()
    env = dict(os.environ, SHOP_RECORD=str(record))
    python = str(Path(context["venv"]) / "bin" / "python")
    server = subprocess.Popen(
        [python, str(Path(context["sdk"]) / "fastmcp_server.py"), "--http", str(port), "--stateless"],
        env=env,
        stdin=subprocess.DEVNULL,
        stderr=open(run / "stateless-server.stderr", "w", encoding="utf-8"),
    )
    gates = []
    try:
        wait_for_port(port, server)
        for mode in ["legacy", "2026-07-28"]:
            # A fresh gate for each revision: it knows no tool when the first call comes.
            log = run / f"stateless-{mode}.verdicts.jsonl"
            gate, gated_url = start_gate(
                context, f"http://127.0.0.1:{port}/mcp", log, run / f"stateless-{mode}-gate.stderr"
            )
            gates.append(gate)
            before = len(records(record))
            async with Client(gated_url, mode=mode) as client:
                invented = dump(await client.call_tool("refund", INVENTED))
                reached = records(record)[before:]
                repaired = dump(await client.call_tool("refund", {"order_id": f"h-{mode}", "amount_cents": "5"}))
            checks.check(
                f"{mode}: an invented key before listing is rejected unknown_field",
                invented["isError"] and "unknown_field" in errors_of(invented),
                f"{invented}",
            )
            checks.check(f"{mode}: and never reaches the tool", reached == [], f"{reached}")
            tail = records(record)[before:]
            checks.check(
                f"{mode}: a repairable call reaches the tool repaired",
                not repaired["isError"] and [r["arguments"]["amount_cents"] for r in tail] == [5],
                f"{repaired} {tail}",
            )
            verdicts = records(log)
            checks.check(
                f"{mode}: the log holds both verdicts, the first judged after the gate's own listing",
                [v["outcome"] for v in verdicts] == ["rejected", "repaired"] and verdicts[0].get("held") is True,
                f"{verdicts}",
            )
    finally:
        stop(*gates, server)


async def sessions_at_once(context, run, checks, sessions=16):
    print(f"== {CLIENT} client: {sessions} HTTP sessions at once, none of which lists")
    record = run / "sessions.record.jsonl"
    log = run / "sessions.verdicts.jsonl"
    port = free_port()
    env = dict(os.environ, SHOP_RECORD=str(record))
    python = str(Path(context["venv"]) / "bin" / "python")
    server = subprocess.Popen(
        [python, str(Path(context["sdk"]) / "fastmcp_server.py"), "--http", str(port)],
        env=env,
        stdin=subprocess.DEVNULL,
        stderr=open(run / "sessions-server.stderr", "w", encoding="utf-8"),
    )
    gate = None
    try:
        wait_for_port(port, server)
        gate, gated_url = start_gate(context, f"http://127.0.0.1:{port}/mcp", log, run / "sessions-gate.stderr")

        async def one(index):
            mode = ["legacy", "2026-07-28"][index % 2]
            async with Client(gated_url, mode=mode) as client:
                invented = dump(await client.call_tool("refund", {**INVENTED, "order_id": f"S{index}-no"}))
                repaired = dump(await client.call_tool("refund", {"order_id": f"S{index}", "amount_cents": str(index + 1)}))
                return index, invented, repaired

        results = await asyncio.wait_for(asyncio.gather(*(one(i) for i in range(sessions))), 90)
        wrong = [
            (index, invented, repaired)
            for index, invented, repaired in results
            if "unknown_field" not in errors_of(invented)
            or repaired.get("structuredContent", {}).get("refunded_cents") != index + 1
        ]
        checks.check(f"{sessions} sessions: each invented key rejected, each repair made", not wrong, f"{wrong}")
        reached = sorted(r["arguments"]["order_id"] for r in records(record))
        checks.check(
            f"{sessions} sessions: only the repaired calls reached the tool",
            reached == sorted(f"S{i}" for i in range(sessions)),
            f"{reached}",
        )
        verdicts = records(log)
        checks.check(
            f"{sessions} sessions: the log holds every verdict",
            sorted(v["outcome"] for v in verdicts) == ["rejected"] * sessions + ["repaired"] * sessions,
            f"{verdicts}",
        )
    finally:
        stop(gate, server)


async def main():
    context = json.loads(sys.argv[1])
    run = Path(context["run"])
    run.mkdir(parents=True, exist_ok=True)
    checks = Checks()
    await call_before_listing(context, run, checks)
    await restarted_gate(context, run, checks)
    await tools_change(context, run, checks)
    await stateless_http(context, run, checks)
    await sessions_at_once(context, run, checks)
    for failure in checks.failures:
        print(f"FAILED: {failure}")
    print(f"{CLIENT} client: {checks.cases} cases, {len(checks.failures)} failures")
    sys.exit(1 if checks.failures else 0)


asyncio.run(main())
