"""Meaning at the gate, with the official MCP Python SDK client and the FastMCP server of
`fastmcp_server.py` (whose `issue_refund` records every refund it executes), through
`toolargs gate --policy` over stdio and over Streamable HTTP in both revisions the SDK speaks.

The policy declares what `issue_refund`'s amount means. A model asked to refund $19.99 sends
`"19.99"` (rejected), then 100 times the amount (refused `meaning_changed`), then the amount
meant (executed); the refund regenerated after a timeout, in another layout with `1999.0`, is
refused `duplicate_action` (this client cannot ask its user to confirm); another order's
correction that swaps the currency is refused `meaning_changed`. Each transport must leave
the server having executed one refund, the one meant, and the log with each decision.

Then the seed's golden pairs (a currency, a date, a duration in units, an enum's synonym, a
recipient), each in a session of its own on `create_invoice`: the user's call rejected for an
invented key, and its correction run or kept from the tool by what it means.

Usage: meaning_client.py CONTEXT, the JSON object of `client.py` (`gate`, `venv`, `sdk`,
`run`). Prints what it checked; exits 1 when a check fails.
"""

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from http_client import Checks, dump, errors_of, free_port, records, start_gate, stop, wait_for_port

CLIENT = "meaning"
# The seed's golden pairs, shared by every door's tests: what the user meant (sent with an
# invented key, so rejected), its correction, and the code that keeps the correction from the
# tool (none: it runs).
GOLDEN = json.loads((Path(__file__).resolve().parents[3] / "tests" / "data" / "golden_pairs.json").read_text())
GOLDEN_PAIRS = [(p["what"], p["meant"], p["corrected"], p["code"]) for p in GOLDEN["pairs"]]

# What the policy says `issue_refund`'s amount and `create_invoice`'s arguments mean.
POLICY = {
    "tools": [
        {
            "name": "issue_refund",
            "meaning": {
                "amount_cents": {"semantic": "money", "currency": "currency", "minor_units": True, "critical": True}
            },
        },
        {"name": "create_invoice", "meaning": GOLDEN["meaning"]},
    ]
}


def calls(order):
    """The calls of the model, for the orders `order`-1 and `order`-2, and the codes the gate
    answers each with (none: it runs)."""
    first, second = f"{order}-1", f"{order}-2"
    return [
        ({"order_id": first, "amount_cents": "19.99", "currency": "USD"}, ["ambiguous_integer"]),
        ({"order_id": first, "amount_cents": 199900, "currency": "USD"}, ["meaning_changed"]),
        ({"order_id": first, "amount_cents": 1999, "currency": "USD"}, []),
        ({"currency": "USD", "order_id": first, "amount_cents": 1999.0}, ["duplicate_action"]),
        ({"order_id": second, "amount_cents": "15,00", "currency": "USD"}, ["ambiguous_integer"]),
        ({"order_id": second, "amount_cents": 1500, "currency": "CAD"}, ["meaning_changed"]),
    ]


async def make_calls(call, order, checks, what):
    for arguments, codes in calls(order):
        result = dump(await call("issue_refund", arguments))
        checks.check(f"{what}: {json.dumps(arguments)} -> {codes or 'runs'}", errors_of(result) == codes, f"{result}")


def check_record_and_log(record, log, order, checks, what):
    executed = [r["arguments"] for r in records(record) if r["tool"] == "issue_refund"]
    meant = {"order_id": f"{order}-1", "amount_cents": 1999, "currency": "USD"}
    checks.check(f"{what}: the server executed the one refund meant", executed == [meant], f"{executed}")
    verdicts = [v for v in records(log) if v.get("tool") == "issue_refund"]
    decisions = [v.get("meaning", {}).get("correction", {}).get("decision") for v in verdicts]
    checks.check(
        f"{what}: the log holds each decision",
        decisions == [None, "reject", "proceed", None, None, "reject"]
        and "duplicate_of" in verdicts[3].get("meaning", {}),
        f"{verdicts}",
    )


async def golden_pair(call, pair, checks, what):
    """One golden pair in a session of its own: the original rejected, the correction decided."""
    name, meant, corrected, code = pair
    first = dump(await call("create_invoice", {**meant, "memo": "invented"}))
    checks.check(f"{what}: {name}: the original is rejected", "unknown_field" in errors_of(first), f"{first}")
    second = dump(await call("create_invoice", corrected))
    checks.check(f"{what}: {name}: -> {code or 'runs'}", errors_of(second) == ([code] if code else []), f"{second}")


def check_golden_record(record, checks, what):
    """The tool received the corrections that run, and nothing else."""
    got = [r["arguments"] for r in records(record) if r["tool"] == "create_invoice"]
    ran = [corrected for _, _, corrected, code in GOLDEN_PAIRS if code is None]
    # The tool saw each argument the correction sent, as sent in meaning (`100.0` is `100`).
    fits = len(got) == len(ran) and all(
        all(g[key] == value for key, value in sent.items()) for g, sent in zip(got, ran)
    )
    checks.check(f"{what}: the invoice tool received only the corrections that run", fits, f"{got}")


async def over_stdio(context, run, policy, checks):
    print(f"== {CLIENT} client: stdio")
    record, log = run / "stdio.record.jsonl", run / "stdio.verdicts.jsonl"
    python = str(Path(context["venv"]) / "bin" / "python")
    params = StdioServerParameters(
        command=context["gate"],
        args=["gate", "--policy", str(policy), "--log", str(log), "--", python,
              str(Path(context["sdk"]) / "fastmcp_server.py")],
        env=dict(os.environ, SHOP_RECORD=str(record)),
    )
    errlog = open(run / "stdio.stderr", "w", encoding="utf-8")
    async with stdio_client(params, errlog=errlog) as (read, write):
        async with ClientSession(read, write, read_timeout_seconds=60) as session:
            await session.initialize()
            await make_calls(session.call_tool, "stdio", checks, "stdio")
    check_record_and_log(record, log, "stdio", checks, "stdio")
    # A gate, so a session, for each golden pair.
    golden = run / "stdio-golden.record.jsonl"
    for pair in GOLDEN_PAIRS:
        params.env["SHOP_RECORD"] = str(golden)
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, read_timeout_seconds=60) as session:
                await session.initialize()
                await golden_pair(session.call_tool, pair, checks, "stdio")
    check_golden_record(golden, checks, "stdio")


async def over_http(context, run, policy, checks):
    record, log = run / "http.record.jsonl", run / "http.verdicts.jsonl"
    port = free_port()
    python = str(Path(context["venv"]) / "bin" / "python")
    server = subprocess.Popen(
        [python, str(Path(context["sdk"]) / "fastmcp_server.py"), "--http", str(port)],
        env=dict(os.environ, SHOP_RECORD=str(record)),
        stdin=subprocess.DEVNULL,
        stderr=open(run / "http-server.stderr", "w", encoding="utf-8"),
    )
    gate = None
    try:
        wait_for_port(port, server)
        gate, gated_url = start_gate(
            context, f"http://127.0.0.1:{port}/mcp", log, run / "http-gate.stderr", ["--policy", str(policy)]
        )
        for mode in ["legacy", "2026-07-28"]:
            print(f"== {CLIENT} client: Streamable HTTP, revision {mode}")
            async with Client(gated_url, mode=mode) as client:
                await make_calls(client.call_tool, mode, checks, mode)
        for mode in ["legacy", "2026-07-28"]:
            executed = [r["arguments"] for r in records(record) if r["arguments"]["order_id"].startswith(mode)]
            checks.check(
                f"{mode}: the server executed the one refund meant",
                executed == [{"order_id": f"{mode}-1", "amount_cents": 1999, "currency": "USD"}],
                f"{executed}",
            )
        codes = [v["codes"] for v in records(log) if v.get("tool") == "issue_refund"]
        expected = [codes for _, codes in calls("")]
        checks.check("http: the log holds each verdict of both revisions", codes == expected * 2, f"{codes}")
        # Each client of the legacy revision is an MCP session: one for each golden pair.
        print(f"== {CLIENT} client: the golden pairs over Streamable HTTP")
        for pair in GOLDEN_PAIRS:
            async with Client(gated_url, mode="legacy") as client:
                await golden_pair(client.call_tool, pair, checks, "http")
        check_golden_record(record, checks, "http")
    finally:
        stop(gate, server)


async def main():
    context = json.loads(sys.argv[1])
    run = Path(context["run"])
    run.mkdir(parents=True, exist_ok=True)
    policy = run / "policy.json"
    policy.write_text(json.dumps(POLICY), encoding="utf-8")
    checks = Checks()
    await over_stdio(context, run, policy, checks)
    await over_http(context, run, policy, checks)
    for failure in checks.failures:
        print(f"FAILED: {failure}")
    print(f"{CLIENT} client: {checks.cases} cases, {len(checks.failures)} failures")
    sys.exit(1 if checks.failures else 0)


asyncio.run(main())
