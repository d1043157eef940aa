"""The official MCP Python SDK over Streamable HTTP, through `toolargs gate --listen` and directly.

Starts the FastMCP server of `fastmcp_server.py` at an HTTP endpoint and the gate in front of
it, then, for each protocol revision the SDK speaks over HTTP (2025-11-25 with its sessions,
2026-07-28 without), makes the same calls through the gate and directly and checks: the same
tool list, a clean call answered the same, a repaired call reaching the tool repaired (the
verdict log names the rule), a rejected call answered by the gate and never reaching the tool
(its record file is unchanged). Then the session header passes through both ways, and many
sessions at once get each their own answers.

Usage: http_client.py CONTEXT, where CONTEXT is the JSON object of `client.py` (`gate`,
`venv`, `sdk`, `run`). Prints what it checked; exits 1 when a check fails.
"""

import asyncio
import json
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx2
import mcp_types
from mcp import Client, ClientSession
from mcp.client.streamable_http import streamable_http_client

CLIENT = "http"
# The SDK's names for the two revisions: the initialize handshake (2025-11-25), and the
# stateless one.
MODES = ["legacy", "2026-07-28"]
CONCURRENT = 16


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def errors_of(result):
    """The error codes of an `isError` result the gate wrote (its text is the errors' JSON)."""
    if not result["isError"]:
        return []
    text = "".join(c.get("text", "") for c in result.get("content", []))
    try:
        return [e.get("error") for e in json.loads(text).get("errors", [])]
    except ValueError:
        return [text]


def stop(*processes):
    """Ends each process that was started (a `None` is one that was not): asked first, then
    killed after ten seconds."""
    for process in processes:
        if process is None:
            continue
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


def wait_for_port(port, process, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server ended ({process.returncode}) before listening")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port} after {seconds} s")


def start_gate(context, upstream, log, stderr_path, options=()):
    """The gate in front of `upstream`, and its endpoint, read from the line it prints."""
    gate = subprocess.Popen(
        [context["gate"], "gate", "--listen", "127.0.0.1:0", "--upstream", upstream, "--log", str(log),
         *options],
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = gate.stderr.readline()
    if "listening on " not in line:
        raise RuntimeError(f"the gate did not start: {line}{gate.stderr.read()}")
    endpoint = line.split("listening on ", 1)[1].split()[0]

    def drain():
        with open(stderr_path, "w", encoding="utf-8") as out:
            out.write(line)
            for rest in gate.stderr:
                out.write(rest)

    threading.Thread(target=drain, daemon=True).start()
    return gate, endpoint


def read_text(path):
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


def records(path):
    return [json.loads(line) for line in read_text(path).splitlines() if line.strip()]


def dump(result):
    data = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    data["isError"] = bool(data.get("isError"))
    return data


class Checks:
    def __init__(self):
        self.cases = 0
        self.failures = []

    def check(self, name, ok, detail=""):
        self.cases += 1
        print(f"  {'ok  ' if ok else 'FAIL'} {name}")
        if not ok:
            self.failures.append(f"{name}: {detail}")


async def revision(mode, gated_url, direct_url, record, log, checks):
    """The same calls in one session through the gate and one directly."""
    print(f"== {CLIENT} client, revision {mode}")
    async with Client(gated_url, mode=mode) as gated, Client(direct_url, mode=mode) as direct:
        g_tools, d_tools = dump(await gated.list_tools()), dump(await direct.list_tools())
        checks.check(f"{mode}: tools/list is the same", g_tools == d_tools, f"\n  gated  {g_tools}\n  direct {d_tools}")

        clean = {"order_id": f"Q-{mode}", "quantity": 2}
        g, d = dump(await gated.call_tool("quote", clean)), dump(await direct.call_tool("quote", clean))
        checks.check(f"{mode}: a clean call is answered the same", g == d, f"\n  gated  {g}\n  direct {d}")

        order = f"R-{mode}"
        before = len(records(record))
        g = dump(await gated.call_tool("refund", {"order_id": order, "amount_cents": "1999"}))
        reached = records(record)[before:]
        d = dump(await direct.call_tool("refund", {"order_id": order, "amount_cents": 1999}))
        checks.check(
            f"{mode}: a repaired call is answered as its clean form",
            g == d,
            f"\n  gated  {g}\n  direct {d}",
        )
        checks.check(
            f"{mode}: the repaired call reaches the tool repaired",
            len(reached) == 1 and reached[0]["arguments"]["amount_cents"] == 1999,
            f"the tool received {reached}",
        )
        verdict = records(log)[-1] if records(log) else {}
        checks.check(
            f"{mode}: the verdict log names the repair",
            verdict.get("outcome") == "repaired" and "numeric_string_to_int" in verdict.get("rules", []),
            f"{verdict}",
        )

        before = read_text(record)
        g = dump(await gated.call_tool("refund", {"order_id": order, "amount_cents": 5, "notify": "yes"}))
        text = "".join(c.get("text", "") for c in g.get("content", []))
        checks.check(
            f"{mode}: a rejected call is an isError result with the errors",
            g["isError"] and '"ok":false' in text and "notify" in text,
            f"{g}",
        )
        checks.check(
            f"{mode}: the rejected call never reaches the tool",
            read_text(record) == before,
            f"the record grew: {read_text(record)[len(before):]}",
        )
        verdict = records(log)[-1] if records(log) else {}
        checks.check(f"{mode}: the verdict log says rejected", verdict.get("outcome") == "rejected", f"{verdict}")
        # The session the upstream gave (2025-11-25), or none in the stateless revision.
        session = verdict.get("session", "missing")
        checks.check(
            f"{mode}: the verdict log names the session",
            bool(session) and isinstance(session, str) if mode == "legacy" else session is None,
            f"{verdict}",
        )


async def session_header(gated_url, checks):
    """The upstream's `Mcp-Session-Id` reaches the client, and the client's reaches the upstream
    (the session goes on through the gate, and ends with a DELETE)."""
    print(f"== {CLIENT} client, the session header")
    seen = []

    async def on_response(response):
        seen.append((response.request.method, response.request.headers.get("mcp-session-id"),
                     response.status_code, response.headers.get("mcp-session-id")))

    async with httpx2.AsyncClient(event_hooks={"response": [on_response]}, timeout=30) as http:
        async with streamable_http_client(gated_url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                listed = await session.list_tools()
                result = await session.call_tool("quote", {"order_id": "S1"})
    first = seen[0] if seen else None
    session_id = first[3] if first else None
    checks.check("the answer to initialize carries the upstream's session id", bool(session_id), f"{seen}")
    later = seen[1:]
    checks.check(
        "every later request sends it, and the upstream answers in that session",
        later and all(sent == session_id and status < 400 for _, sent, status, _ in later),
        f"{seen}",
    )
    checks.check(
        "the session's calls are answered",
        {tool.name for tool in listed.tools} == {"refund", "issue_refund", "create_invoice", "quote"}
        and not result.is_error,
        f"{listed} {result}",
    )
    checks.check(
        "the session ends with a DELETE that reaches the upstream",
        any(method == "DELETE" and status == 200 for method, _, status, _ in seen),
        f"{seen}",
    )


async def concurrent(gated_url, record, checks):
    """Many sessions at once, of both revisions: each gets its own answers."""
    print(f"== {CLIENT} client, {CONCURRENT} sessions at once")

    async def one(index):
        mode = MODES[index % len(MODES)]
        async with Client(gated_url, mode=mode) as client:
            await client.list_tools()
            repaired = dump(await client.call_tool(
                "refund", {"order_id": f"C{index}", "amount_cents": str(100 + index)}))
            rejected = dump(await client.call_tool(
                "refund", {"order_id": f"C{index}-no", "amount_cents": 1, "notify": "yes"}))
            return index, repaired, rejected

    results = await asyncio.wait_for(asyncio.gather(*(one(i) for i in range(CONCURRENT))), 90)
    wrong = [
        (index, repaired, rejected)
        for index, repaired, rejected in results
        if repaired.get("structuredContent") != {"order_id": f"C{index}", "refunded_cents": 100 + index, "notified": False}
        or not rejected["isError"]
    ]
    checks.check(f"{CONCURRENT} sessions at once each get their own answers", not wrong, f"{wrong}")
    reached = {r["arguments"]["order_id"] for r in records(record)}
    checks.check(
        "every repaired call reached the tool, no rejected one did",
        all(f"C{i}" in reached and f"C{i}-no" not in reached for i in range(CONCURRENT)),
        f"{sorted(reached)}",
    )


async def confirmations(gated_url, record, log, checks):
    """A tool the policy says to confirm: in the 2026-07-28 revision the gate asks the user in
    the call's rounds (`input_required`, which the SDK answers with its elicitation callback);
    an accepted call reaches the tool, a declined one never does. A 2025-11-25 session is
    refused `confirmation_unavailable`."""
    print(f"== {CLIENT} client, confirmations")
    asked = []

    def answering(action):
        async def elicit(context, params):
            asked.append(params.message)
            return mcp_types.ElicitResult(action=action, content={} if action == "accept" else None)
        return elicit

    def text_of(result):
        return "".join(c.get("text", "") for c in result.get("content", []))

    async with Client(gated_url, mode="2026-07-28", elicitation_callback=answering("accept")) as client:
        # The stateless revision's gate learns the tools from any client's listing.
        await client.list_tools()
        before = len(records(record))
        result = dump(await client.call_tool("refund", {"order_id": "K-yes", "amount_cents": "700"}))
        reached = records(record)[before:]
    checks.check(
        "2026-07-28: the user is asked, in the call's rounds, about the call as gated",
        len(asked) == 1 and "`refund`" in asked[0] and '"amount_cents":700' in asked[0],
        f"{asked}",
    )
    checks.check(
        "2026-07-28: the accepted call reaches the tool repaired, once",
        not result["isError"] and len(reached) == 1 and reached[0]["arguments"]["amount_cents"] == 700,
        f"{result} {reached}",
    )
    verdict = records(log)[-1] if records(log) else {}
    checks.check(
        "2026-07-28: the verdict log says confirmed",
        verdict.get("confirmed") is True and verdict.get("outcome") == "repaired",
        f"{verdict}",
    )
    for mode, action, code, case in [
        ("2026-07-28", "decline", "not_confirmed", "2026-07-28: a declined call"),
        ("legacy", "accept", "confirmation_unavailable", "2025-11-25 over HTTP: a call"),
    ]:
        async with Client(gated_url, mode=mode, elicitation_callback=answering(action)) as client:
            before = read_text(record)
            result = dump(await client.call_tool("refund", {"order_id": f"K-{mode}", "amount_cents": 5}))
        checks.check(
            f"{case} is an isError result with {code}, and never reaches the tool",
            result["isError"] and code in text_of(result) and read_text(record) == before,
            f"{result}",
        )


async def main():
    context = json.loads(sys.argv[1])
    run = Path(context["run"])
    record = run / "http-shop.record.jsonl"
    log = run / "http.verdicts.jsonl"
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, str(Path(context["sdk"]) / "fastmcp_server.py"), "--http", str(port)],
        env={"SHOP_RECORD": str(record), "PATH": "/usr/bin:/bin"},
        stdin=subprocess.DEVNULL,
        stdout=open(run / "http-server.stdout", "w"),
        stderr=open(run / "http-server.stderr", "w"),
    )
    gate = None
    checks = Checks()
    try:
        wait_for_port(port, server)
        direct_url = f"http://127.0.0.1:{port}/mcp"
        gate, gated_url = start_gate(context, direct_url, log, run / "http-gate.stderr")
        print(f"gate at {gated_url} in front of {direct_url}")
        for mode in MODES:
            await revision(mode, gated_url, direct_url, record, log, checks)
        await session_header(gated_url, checks)
        await concurrent(gated_url, record, checks)
        policy = run / "http-confirm.toml"
        policy.write_text('[[tools]]\nname = "refund"\nconfirm = true\n', encoding="utf-8")
        confirming, confirming_url = start_gate(
            context, direct_url, run / "http-confirm.verdicts.jsonl", run / "http-confirm-gate.stderr",
            ["--policy", str(policy)],
        )
        try:
            await confirmations(confirming_url, record, run / "http-confirm.verdicts.jsonl", checks)
        finally:
            stop(confirming)
    finally:
        stop(gate, server)
    for failure in checks.failures:
        print(f"FAILED: {failure}")
    print(f"{CLIENT} client: {checks.cases} cases, {len(checks.failures)} failures")
    sys.exit(1 if checks.failures else 0)


if __name__ == "__main__":
    asyncio.run(main())
