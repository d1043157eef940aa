"""The official MCP Python SDK as the client of `toolargs gate`.

For each server of `scenarios.json` (or those named), opens one session through the gate and
one directly, makes the same calls in the same order, and checks what `scenarios.json` says
of them: the same tool list and the same answers to clean calls, repaired calls answered as
their clean form, rejected calls answered by the gate and never reaching the server, and the
gate's verdict log naming each repair and rejection.

Usage: client.py CONTEXT, where CONTEXT is a JSON object: `gate` (the toolargs binary),
`venv`, `node_modules`, `sdk` (this folder), `repo`, `run` (a fresh folder for this run's
files), and `servers` (names, or null for all). Prints what each side did; exits 1 when a
check fails.
"""

import asyncio
import json
import sys
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

CLIENT = "python"
MISSING = object()


def substitute(value, context):
    if isinstance(value, str):
        for key in ("venv", "node_modules", "sdk", "repo"):
            value = value.replace("{" + key + "}", str(context[key]))
        return value
    if isinstance(value, list):
        return [substitute(v, context) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, context) for k, v in value.items()}
    return value


def read_text(path):
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


def new_records(before, after):
    """The JSON lines appended to a state file between two reads of it."""
    if not after.startswith(before):
        return []
    records = []
    for line in after[len(before) :].splitlines():
        try:
            records.append(json.loads(line))
        except ValueError:
            pass
    return records


def dump(result):
    data = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    # An absent `isError` means false; the two sides must not differ on how it is written.
    data["isError"] = bool(data.get("isError"))
    return data


async def session(name, server, side, context):
    """One session with `server`, `side` "gated" or "direct": the tool list and each step's
    result, with what the call did to the server's state file."""
    run = Path(context["run"])
    command = substitute(server["command"], context)
    env = {}
    state = None
    if "state_env" in server:
        state = run / f"{CLIENT}-{name}-{side}.state"
        env[server["state_env"]] = str(state)
    log = run / f"{CLIENT}-{name}.verdicts.jsonl"
    if side == "gated":
        command = [context["gate"], "gate", "--log", str(log), "--", *command]
    params = StdioServerParameters(command=command[0], args=command[1:], env=env)
    steps = []
    with open(run / f"{CLIENT}-{name}-{side}.stderr", "w", encoding="utf-8") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, read_timeout_seconds=60) as client:
                await client.initialize()
                tools = dump(await client.list_tools())
                for step in server["steps"]:
                    before = read_text(state) if state else ""
                    try:
                        result = dump(
                            await client.call_tool(
                                step["tool"], substitute(step["arguments"], context)
                            )
                        )
                    except Exception as error:  # a JSON-RPC error, or the SDK refusing a reply
                        result = {"exception": f"{type(error).__name__}: {error}"}
                    after = read_text(state) if state else ""
                    records = new_records(before, after)
                    steps.append(
                        {"result": result, "changed": before != after, "records": records}
                    )
    verdicts = []
    if side == "gated":
        verdicts = [json.loads(line) for line in read_text(log).splitlines() if line.strip()]
    return {"tools": tools, "steps": steps, "verdicts": verdicts}


def field(value, path):
    for key in path.split("."):
        if not isinstance(value, dict) or key not in value:
            return MISSING
        value = value[key]
    return value


def rejection_body(result):
    """The gate's `{"ok": false, "errors": [...]}`: the structured content, or the text."""
    if "structuredContent" in result:
        return result["structuredContent"] or {}
    try:
        return json.loads(result["content"][0]["text"])
    except (KeyError, IndexError, TypeError, ValueError):
        return {}


def failed_call(result):
    return "exception" in result or result.get("isError") is True


def check_step(step, index, gated, direct, by_name):
    """The failures of one step, as sentences."""
    failures = []
    g, d = gated["steps"][index], direct["steps"][index]
    verdict = gated["verdicts"][index] if index < len(gated["verdicts"]) else {}
    expected = step["gate"]
    if verdict.get("tool") != step["tool"] or verdict.get("outcome") != expected:
        failures.append(f"the gate's log says {verdict}, expected {expected} for {step['tool']}")
    if "rules" in step and verdict.get("rules") != step["rules"]:
        failures.append(f"repairs {verdict.get('rules')}, expected {step['rules']}")
    if "codes" in step and verdict.get("codes") != step["codes"]:
        failures.append(f"error codes {verdict.get('codes')}, expected {step['codes']}")
    result = g["result"]
    if expected == "rejected":
        body = rejection_body(result)
        codes = [e.get("error") for e in body.get("errors", [])]
        if result.get("isError") is not True or body.get("ok") is not False:
            failures.append(f"a rejection is an isError result with ok: false, got {result}")
        if "codes" in step and codes != step["codes"]:
            failures.append(f"the rejection has codes {codes}, expected {step['codes']}")
        # The errors are `structuredContent` too, unless the tool declares an output schema,
        # which every `structuredContent` of its results must match.
        typed = any(
            tool["name"] == step["tool"] and "outputSchema" in tool
            for tool in gated["tools"].get("tools", [])
        )
        if ("structuredContent" in result) == typed:
            failures.append(f"structuredContent {'present' if typed else 'absent'}, the tool declares {'an' if typed else 'no'} output schema: {result}")
        if g["changed"] or g["records"]:
            failures.append("the rejected call reached the server: its state changed")
    elif "exception" in result:
        failures.append(f"the gated call failed: {result['exception']}")
    same = step.get("same", "result" if expected == "clean" else "none")
    if same == "result" and g["result"] != d["result"]:
        failures.append(f"gated and direct results differ:\n  gated  {g['result']}\n  direct {d['result']}")
    if same == "fields":
        for path in step["fields"]:
            gv, dv = field(g["result"], path), field(d["result"], path)
            if gv is MISSING or gv != dv:
                failures.append(f"{path}: gated {gv!r}, direct {dv!r}")
    if "same_as" in step:
        other = gated["steps"][by_name[step["same_as"]]]["result"]
        if result != other:
            failures.append(f"gated result differs from {step['same_as']!r}'s:\n  {result}\n  {other}")
    if "direct" in step:
        accepted = not failed_call(d["result"])
        if accepted != (step["direct"] == "accepted"):
            failures.append(f"directly, expected the server to say {step['direct']}: {d['result']}")
    for side, outcome in step.get("state", {}).items():
        changed = (g if side == "gated" else d)["changed"]
        if changed != (outcome == "changed"):
            failures.append(f"{side}: the server's state is {'changed' if changed else 'unchanged'}, expected {outcome}")
    for side, arguments in step.get("received", {}).items():
        records = (g if side == "gated" else d)["records"]
        got = [record.get("arguments") for record in records]
        if got != [arguments]:
            failures.append(f"{side}: the tool received {got}, expected [{arguments}]")
    for key, wanted in (("includes", True), ("excludes", False)):
        for side, texts in step.get(key, {}).items():
            text = json.dumps((g if side == "gated" else d)["result"], ensure_ascii=False)
            for piece in texts:
                if (piece in text) != wanted:
                    failures.append(f"{side}: the result {'lacks' if wanted else 'holds'} {piece!r}: {text}")
    return failures


def describe(result):
    """One line saying how a call was answered."""
    if "exception" in result:
        said = "error: " + result["exception"]
    elif result.get("isError"):
        said = "isError: " + " ".join(c.get("text", "") for c in result.get("content", []))
    else:
        return "accepted"
    return " ".join(said.split())[:160]


async def main():
    context = json.loads(sys.argv[1])
    scenarios = json.loads((Path(context["sdk"]) / "scenarios.json").read_text(encoding="utf-8"))
    names = context.get("servers") or list(scenarios["servers"])
    cases, failures = 0, []
    for name in names:
        server = scenarios["servers"][name]
        # Gated first: a call the gate let through by mistake would show in the direct session's
        # answers that follow, on servers whose state outlives a session (git).
        gated = await session(name, server, "gated", context)
        direct = await session(name, server, "direct", context)
        print(f"== {CLIENT} client, {name} server")
        cases += 1
        if gated["tools"] != direct["tools"]:
            failures.append(f"{name}: the tool lists differ:\n  gated  {gated['tools']}\n  direct {direct['tools']}")
        print(f"  tools/list: {len(direct['tools'].get('tools', []))} tools, gated == direct: {gated['tools'] == direct['tools']}")
        cases += 1
        if len(gated["verdicts"]) != len(server["steps"]):
            failures.append(f"{name}: {len(gated['verdicts'])} verdicts logged for {len(server['steps'])} calls")
        by_name = {step["name"]: i for i, step in enumerate(server["steps"])}
        for index, step in enumerate(server["steps"]):
            cases += 1
            found = check_step(step, index, gated, direct, by_name)
            verdict = gated["verdicts"][index] if index < len(gated["verdicts"]) else {}
            print(
                f"  {'ok  ' if not found else 'FAIL'} {step['name']}: gate {verdict.get('outcome')}"
                f" {verdict.get('rules') or verdict.get('codes') or ''}; direct {describe(direct['steps'][index]['result'])}"
            )
            failures.extend(f"{name}: {step['name']}: {failure}" for failure in found)
    print(f"{CLIENT} client: {cases} cases, {len(failures)} failures")
    for failure in failures:
        print("FAILED " + failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    asyncio.run(main())
