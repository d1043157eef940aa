"""Pinned tool definitions with the official MCP Python SDK client and the FastMCP server of
`fastmcp_server.py`, whose `tighten` tool replaces `quote` with one that takes at most 10 (and
says so with `notifications/tools/list_changed`).

- Over stdio: `toolargs pin -- SERVER` writes the pins; through `toolargs gate --pin`, a call
  to `quote` passes; `tighten` changes `quote` while the client is connected, and the next call
  to it is refused `tool_changed`, the log and the gate's stderr saying what changed.
- Over Streamable HTTP: `toolargs pin --upstream URL` pins the server at its endpoint (and a
  stateless one); through `toolargs gate --listen --pin`, `quote` passes in both revisions the
  SDK speaks; once `tighten` ran, every new session's call to `quote` is refused
  `tool_changed`; pinned again, the new `quote` passes and is judged by its schema.

Usage: pin_client.py CONTEXT, the JSON object of `client.py` (`gate`, `venv`, `sdk`, `run`).
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

CLIENT = "pin"
MODES = ["legacy", "2026-07-28"]
# What `tighten` changes of `quote`, as the gate says it.
TIGHTENED = "$.quantity: maximum 10 added"


def pin(context, out, source, env=None):
    """`toolargs pin --out OUT SOURCE...`: its exit code and stderr."""
    done = subprocess.run(
        [context["gate"], "pin", "--out", str(out), *source],
        env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=90,
    )
    return done.returncode, done.stderr


def pinned_names(path):
    try:
        return [tool["name"] for tool in json.loads(read_text(path)).get("tools", [])]
    except ValueError:
        return []


async def over_stdio(context, run, checks):
    print(f"== {CLIENT} client: stdio")
    python = str(Path(context["venv"]) / "bin" / "python")
    server = [python, str(Path(context["sdk"]) / "fastmcp_server.py")]
    record, log, pins = run / "stdio.record.jsonl", run / "stdio.verdicts.jsonl", run / "stdio.pins.json"
    env = dict(os.environ, SHOP_RECORD=str(record), SHOP_CHANGES="1")
    code, stderr = pin(context, pins, ["--", *server], env)
    checks.check("toolargs pin -- SERVER writes the pins", code == 0 and "5 tools pinned" in stderr, stderr)
    checks.check(
        "the pin file lists the tools sorted by name",
        pinned_names(pins) == ["create_invoice", "issue_refund", "quote", "refund", "tighten"],
        read_text(pins),
    )
    params = StdioServerParameters(
        command=context["gate"],
        args=["gate", "--pin", str(pins), "--log", str(log), "--", *server],
        env=env,
    )
    errlog_path = run / "stdio-gate.stderr"
    with open(errlog_path, "w", encoding="utf-8") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, read_timeout_seconds=60) as session:
                await session.initialize()
                await session.list_tools()
                before = dump(await session.call_tool("quote", {"order_id": "p1", "quantity": 50}))
                await session.call_tool("tighten", {})
                after = dump(await session.call_tool("quote", {"order_id": "p2", "quantity": 5}))
    checks.check("as pinned, a call to quote passes", not before["isError"], f"{before}")
    checks.check(
        "once tighten changed quote under the client, its call is refused tool_changed",
        errors_of(after) == ["tool_changed"],
        f"{after}",
    )
    quoted = [r["arguments"]["order_id"] for r in records(record) if r["tool"] == "quote"]
    checks.check("and never reaches the tool", quoted == ["p1"], f"{quoted}")
    verdicts = [v for v in records(log) if v.get("tool") == "quote"]
    checks.check(
        "the log says what changed",
        [v["codes"] for v in verdicts] == [[], ["tool_changed"]] and TIGHTENED in verdicts[-1].get("changed", ""),
        f"{verdicts}",
    )
    said = read_text(errlog_path)
    checks.check(
        "and so does the gate's stderr",
        "`quote` changed since it was pinned" in said and TIGHTENED in said,
        said,
    )


async def quote_in_each_revision(url, quantity, order):
    """A call to `quote` in a fresh session of each revision. The 2025-11-25 session's gate
    knows no tool, and lists them itself for the call; the 2026-07-28 client has no session,
    and shares the gate of every request without one, which judges by the last listing it saw
    (the server sends no `list_changed` there): this client lists the tools first."""
    results = []
    for mode in MODES:
        async with Client(url, mode=mode) as client:
            if mode != "legacy":
                await client.list_tools()
            results.append(dump(await client.call_tool("quote", {"order_id": f"{order}-{mode}", "quantity": quantity})))
    return results


async def over_http(context, run, checks):
    print(f"== {CLIENT} client: Streamable HTTP")
    python = str(Path(context["venv"]) / "bin" / "python")
    record = run / "http.record.jsonl"
    pins = run / "http.pins.json"
    env = dict(os.environ, SHOP_RECORD=str(record), SHOP_CHANGES="1")
    port, stateless_port = free_port(), free_port()
    script = str(Path(context["sdk"]) / "fastmcp_server.py")
    server = subprocess.Popen(
        [python, script, "--http", str(port)], env=env, stdin=subprocess.DEVNULL,
        stderr=open(run / "http-server.stderr", "w", encoding="utf-8"),
    )
    stateless = subprocess.Popen(
        [python, script, "--http", str(stateless_port), "--stateless"], env=env, stdin=subprocess.DEVNULL,
        stderr=open(run / "stateless-server.stderr", "w", encoding="utf-8"),
    )
    gates = []
    try:
        wait_for_port(port, server)
        wait_for_port(stateless_port, stateless)
        upstream = f"http://127.0.0.1:{port}/mcp"
        code, stderr = pin(context, pins, ["--upstream", upstream])
        checks.check("toolargs pin --upstream URL writes the pins", code == 0 and "5 tools pinned" in stderr, stderr)
        stateless_pins = run / "stateless.pins.json"
        code, stderr = pin(context, stateless_pins, ["--upstream", f"http://127.0.0.1:{stateless_port}/mcp"])
        checks.check(
            "a stateless server is pinned the same",
            code == 0 and read_text(stateless_pins) == read_text(pins),
            f"{stderr}\n{read_text(stateless_pins)}",
        )
        code, stderr = pin(context, run / "none.json", ["--upstream", f"http://127.0.0.1:{free_port()}/mcp"])
        checks.check(
            "a server that cannot be reached is an error, and nothing is written",
            code == 2 and not (run / "none.json").exists(),
            stderr,
        )

        log = run / "http.verdicts.jsonl"
        gate, url = start_gate(context, upstream, log, run / "http-gate.stderr", ["--pin", str(pins)])
        gates.append(gate)
        results = await quote_in_each_revision(url, 50, "h1")
        checks.check("as pinned, quote passes in both revisions", not any(r["isError"] for r in results), f"{results}")
        async with Client(url, mode="legacy") as client:
            await client.call_tool("tighten", {})
        results = await quote_in_each_revision(url, 5, "h2")
        checks.check(
            "once tighten ran, quote is refused tool_changed in new sessions of both revisions",
            [errors_of(r) for r in results] == [["tool_changed"]] * 2,
            f"{results}",
        )
        quoted = [r["arguments"]["order_id"] for r in records(record) if r["tool"] == "quote"]
        checks.check("and never reaches the tool", quoted == [f"h1-{mode}" for mode in MODES], f"{quoted}")
        changed = [v.get("changed", "") for v in records(log) if v.get("codes") == ["tool_changed"]]
        checks.check("the log says what changed", len(changed) == 2 and all(TIGHTENED in c for c in changed), f"{changed}")

        code, stderr = pin(context, pins, ["--upstream", upstream])
        checks.check(
            "pinned again, what changed is said",
            code == 0 and "`quote` changed: " in stderr and TIGHTENED in stderr,
            stderr,
        )
        gate, url = start_gate(context, upstream, run / "repinned.verdicts.jsonl", run / "repinned-gate.stderr",
                               ["--pin", str(pins)])
        gates.append(gate)
        passes = await quote_in_each_revision(url, 5, "h3")
        too_many = await quote_in_each_revision(url, 50, "h4")
        checks.check(
            "and the new quote passes, judged by its schema",
            not any(r["isError"] for r in passes) and [errors_of(r) for r in too_many] == [["out_of_range"]] * 2,
            f"{passes} {too_many}",
        )
    finally:
        stop(*gates, server, stateless)


async def main():
    context = json.loads(sys.argv[1])
    run = Path(context["run"])
    run.mkdir(parents=True, exist_ok=True)
    checks = Checks()
    await over_stdio(context, run, checks)
    await over_http(context, run, checks)
    for failure in checks.failures:
        print(f"FAILED: {failure}")
    print(f"{CLIENT} client: {checks.cases} cases, {len(checks.failures)} failures")
    sys.exit(1 if checks.failures else 0)


asyncio.run(main())
