#!/usr/bin/env python3
r"""toolargs against pydantic v2, jsonschema and fastjsonschema, per call, on the refund corpus.

Every contender judges the same argument texts: the `arguments` of each record of
`target/corpus/refund.jsonl` (50 000 `issue_refund` calls of `scripts/gen_corpus.py`), as JSON
text; the tenth of the records that log their arguments as a decoded object are written back
with `json.dumps`, as `benches/corpus.rs` does for its `refund_written` set. The tool is
`issue_refund` of `toolargs-cli/tests/data/tools.json`, the JSON definition that
`scripts/gen_corpus.py` names and the replay benchmarks load (`benches/corpus.rs` declares the
same tool in Rust, in `tests/it/common.rs`); the schema validators get its `parameters`, and
the pydantic model below is written to say the same.

Contenders, each over the whole corpus, in one loop that counts the calls it accepts:

- `toolargs .ok`: `spec.parse(text).ok` (the verdict; the dict is not built);
- `toolargs .arguments`: `spec.parse(text).arguments` (the verdict and the dict);
- `toolargs session`: the calls judged as the FastMCP and pydantic-ai integrations judge
  them, in conversations of `CONVERSATION` consecutive calls: a fresh `spec.session()` for
  each (its cost included) of a spec whose `amount_cents` is declared money (`MEANING`),
  `session.parse(text)`, and for a call that proceeds `session.executed(result.arguments)`.
  A call after a rejected one is a correction, compared with it (the corpus's next call is
  another order's, so most are refused `meaning_changed`), and the third is refused unjudged
  (`retry_budget_exhausted`); only the calls that proceed count as accepted;
- `pydantic lax`: `TypeAdapter(IssueRefund).validate_json(text)`, catching `ValidationError`;
- `pydantic strict`: the same with `strict=True`;
- `jsonschema`: `Draft202012Validator(schema, format_checker=FORMAT_CHECKER)`, then
  `.is_valid(json.loads(text))` (the schema has `"format": "date"`, so the format checker is
  on; `is_valid` stops at the first error, where `iter_errors` would list them all);
- `fastjsonschema`: `fastjsonschema.compile(schema)(json.loads(text))`, catching
  `JsonSchemaException` (draft 7, its default, as the schema names none; its `date` check
  knows the calendar; it fills in defaults).

A text that is not JSON (a fenced payload) counts as rejected for the two schema validators,
their `json.loads` raising inside the timed loop. The accepted counts differ by design:
toolargs repairs what has one reading, pydantic's lax mode coerces by its own rules, strict
mode and the schema validators take the values as sent.

Rounds are interleaved (each round runs every contender once over the corpus, so a change of
machine speed hits all alike) after one warm-up round; the table gives the best and the median
round in ns per call, the ratio of the best rounds to `toolargs .ok` and the median over rounds
of the ratio within a round. One-time setup (loading the spec, building the adapter, compiling
the validators) is timed apart; the model's own validator is built when its class is defined.

Then `toolargs.replay(corpus, tools=definitions)` against the CLI
`target/release/toolargs replay --tools FILE --format json corpus` in wall time, interleaved
too (15 rounds by default); the CLI's time is the whole process, its start included. Both run
on every core the process may use (`std::thread::available_parallelism`: neither is given a
worker count), and the script asserts that their reports are equal and that the replay's
accepted count is the per-call one.

From the workspace root, on a fresh clone:

    bash scripts/corpus.sh                                  # target/corpus/refund.jsonl
    cargo build --release -p toolargs-cli                   # target/release/toolargs
    python3 -m venv target/bench-venv
    target/bench-venv/bin/pip install -r toolargs-python/bench/requirements.txt
    PATH="$PWD/target/bench-venv/bin:$PATH" CARGO_TARGET_DIR="$PWD/target/bench-target" \
        target/bench-venv/bin/pip install --no-build-isolation ./toolargs-python   # release build
    target/bench-venv/bin/python toolargs-python/bench/bench.py              # 5 rounds
    target/bench-venv/bin/python toolargs-python/bench/bench.py --rounds 9   # or more

It prints the versions and the setup times on standard error, then Markdown tables ready to
paste on standard output.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections import Counter
from datetime import date
from importlib.metadata import version
from pathlib import Path
from typing import Annotated, Callable, Literal

import fastjsonschema
import jsonschema
import pydantic
import pydantic_core
from jsonschema import Draft202012Validator
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

import toolargs

ROOT = Path(__file__).resolve().parents[2]
DEFINITIONS = ROOT / "toolargs-cli" / "tests" / "data" / "tools.json"
CORPUS = ROOT / "target" / "corpus" / "refund.jsonl"
CLI = ROOT / "target" / "release" / "toolargs"
TOOL = "issue_refund"
OK = "toolargs `.ok`"
ARGUMENTS = "toolargs `.arguments`"
SESSION = "toolargs session"
# What `issue_refund`'s amount means, for the session: cents of US dollars, critical.
MEANING = {"amount_cents": {"semantic": "money", "currency": "USD", "minor_units": True, "critical": True}}
# The calls of one session in the `toolargs session` contender.
CONVERSATION = 8
CLI_REPLAY = "CLI `toolargs replay`"


# ---------------------------------------------------------------------------------------------
# The tool, as each contender reads it.


def load_definition(path: Path, name: str) -> dict:
    """The definition of tool `name` in a definitions file (`{"tools": [...]}` or a list)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    for tool in data["tools"] if isinstance(data, dict) else data:
        if tool.get("function", tool).get("name") == name:
            return tool
    raise SystemExit(f"{path}: no tool named {name}")


def input_schema(definition: dict) -> dict:
    """The JSON Schema of the arguments, in the OpenAI, Anthropic or MCP shape."""
    if "function" in definition:
        return definition["function"]["parameters"]
    return definition.get("inputSchema") or definition["input_schema"]


class IssueRefund(BaseModel):
    """`issue_refund`'s schema as a pydantic model: the same fields, constraints and enum."""

    model_config = ConfigDict(extra="forbid")  # "additionalProperties": false

    order_id: Annotated[str, Field(pattern=r"^ord_[A-Za-z0-9]{8}$")]
    amount_cents: Annotated[int, Field(ge=1, le=50000)]
    notify_customer: bool = False
    reason: Literal["damaged", "late", "duplicate", "other"]
    tags: list[str] = []
    # "format": "date", optional and not nullable: absent is allowed, null is not.
    effective_date: date = None  # type: ignore[assignment]


def check_model_matches(schema: dict) -> None:
    """The model declares the schema's fields, required set and enum (a guard against drift)."""
    model = IssueRefund.model_json_schema()
    assert set(model["properties"]) == set(schema["properties"]), "fields differ"
    assert set(model["required"]) == set(schema["required"]), "required fields differ"
    assert model["properties"]["reason"]["enum"] == schema["properties"]["reason"]["enum"]
    amount = model["properties"]["amount_cents"]
    want = schema["properties"]["amount_cents"]
    assert (amount["minimum"], amount["maximum"]) == (want["minimum"], want["maximum"])
    assert model["properties"]["order_id"]["pattern"] == schema["properties"]["order_id"]["pattern"]
    assert model["properties"]["effective_date"]["format"] == "date"


# ---------------------------------------------------------------------------------------------
# The corpus.


def argument_texts(path: Path) -> list[str]:
    """Each record's `arguments` as JSON text (a decoded object written back by `json.dumps`)."""
    texts = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                arguments = json.loads(line)["arguments"]
                texts.append(arguments if isinstance(arguments, str) else json.dumps(arguments))
    return texts


# ---------------------------------------------------------------------------------------------
# The contenders: each judges every text and returns how many it accepted.


def contenders(definition: dict, schema: dict) -> tuple[dict[str, Callable], dict[str, float]]:
    setup_ns: dict[str, float] = {}

    def timed(name, build):
        start = time.perf_counter_ns()
        value = build()
        setup_ns[name] = time.perf_counter_ns() - start
        return value

    spec = timed("toolargs.Spec(definition)", lambda: toolargs.Spec(definition))
    meant = timed(
        "toolargs.Spec(definition, meaning=MEANING)",
        lambda: toolargs.Spec(definition, meaning=MEANING),
    )
    adapter = timed("TypeAdapter(IssueRefund)", lambda: TypeAdapter(IssueRefund))
    validator = timed(
        "Draft202012Validator(schema, format_checker=...)",
        lambda: Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER),
    )
    fast = timed("fastjsonschema.compile(schema)", lambda: fastjsonschema.compile(schema))

    def toolargs_ok(texts):
        parse = spec.parse
        accepted = 0
        for text in texts:
            if parse(text).ok:
                accepted += 1
        return accepted

    def toolargs_arguments(texts):
        parse = spec.parse
        accepted = 0
        for text in texts:
            if parse(text).arguments is not None:
                accepted += 1
        return accepted

    def toolargs_session(texts):
        new_session = meant.session
        accepted = 0
        for start in range(0, len(texts), CONVERSATION):
            session = new_session()
            for text in texts[start : start + CONVERSATION]:
                result = session.parse(text)
                if result.decision in ("proceed", "proceed_and_report"):
                    session.executed(result.arguments)
                    accepted += 1
        return accepted

    def pydantic_lax(texts):
        validate = adapter.validate_json
        accepted = 0
        for text in texts:
            try:
                validate(text)
            except ValidationError:
                continue
            accepted += 1
        return accepted

    def pydantic_strict(texts):
        validate = adapter.validate_json
        accepted = 0
        for text in texts:
            try:
                validate(text, strict=True)
            except ValidationError:
                continue
            accepted += 1
        return accepted

    def json_schema(texts):
        loads = json.loads
        is_valid = validator.is_valid
        accepted = 0
        for text in texts:
            try:
                instance = loads(text)
            except ValueError:
                continue
            if is_valid(instance):
                accepted += 1
        return accepted

    def fast_json_schema(texts):
        loads = json.loads
        validate = fast
        accepted = 0
        for text in texts:
            try:
                validate(loads(text))
            except (ValueError, fastjsonschema.JsonSchemaException):
                continue
            accepted += 1
        return accepted

    def verdicts(name, text):
        """One call's verdict by contender `name`, outside the timed loops."""
        if name in (OK, ARGUMENTS):
            return spec.parse(text).ok
        try:
            if name == "pydantic lax":
                adapter.validate_json(text)
            elif name == "pydantic strict":
                adapter.validate_json(text, strict=True)
            elif name == "jsonschema":
                return validator.is_valid(json.loads(text))
            else:
                fast(json.loads(text))
        except (ValueError, ValidationError, fastjsonschema.JsonSchemaException):
            return False
        return True

    return {
        OK: toolargs_ok,
        ARGUMENTS: toolargs_arguments,
        SESSION: toolargs_session,
        "pydantic lax": pydantic_lax,
        "pydantic strict": pydantic_strict,
        "jsonschema": json_schema,
        "fastjsonschema": fast_json_schema,
    }, setup_ns, verdicts


def session_decisions(definition: dict, texts: list[str]) -> Counter:
    """What the session contender's sessions decide, by decision and code (not timed)."""
    spec = toolargs.Spec(definition, meaning=MEANING)
    decisions: Counter = Counter()
    for at, text in enumerate(texts):
        if at % CONVERSATION == 0:
            session = spec.session()
        result = session.parse(text)
        codes = [f["code"] for f in result.findings] or [e.code for e in result.errors][:1]
        decisions[f"{result.decision} {codes[0]}" if codes else result.decision] += 1
        if result.decision in ("proceed", "proceed_and_report"):
            session.executed(result.arguments)
    return decisions


def measure(runs: dict[str, Callable], texts: list[str], rounds: int):
    """Per contender: the round times in ns and the accepted count (the same in every round)."""
    accepted = {name: run(texts) for name, run in runs.items()}  # the warm-up round
    times: dict[str, list[int]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.perf_counter_ns()
            count = run(texts)
            times[name].append(time.perf_counter_ns() - start)
            assert count == accepted[name], f"{name}: {count} accepted, then {accepted[name]}"
    return times, accepted


# ---------------------------------------------------------------------------------------------
# Replay: in process against the CLI.


def replay_python(corpus: Path, definitions: Path) -> dict:
    return toolargs.replay(str(corpus), tools=str(definitions))


def replay_cli(corpus: Path, definitions: Path) -> bytes:
    command = [str(CLI), "replay", "--tools", str(definitions), "--format", "json", str(corpus)]
    return subprocess.run(command, check=True, capture_output=True).stdout


def measure_replay(corpus: Path, definitions: Path, rounds: int):
    python_report = replay_python(corpus, definitions)  # warm-up, and the reports to compare
    cli_report = json.loads(replay_cli(corpus, definitions))
    assert python_report == cli_report, "toolargs.replay and the CLI report differ"
    times: dict[str, list[int]] = {"`toolargs.replay`": [], CLI_REPLAY: []}
    for _ in range(rounds):
        start = time.perf_counter_ns()
        replay_python(corpus, definitions)
        times["`toolargs.replay`"].append(time.perf_counter_ns() - start)
        start = time.perf_counter_ns()
        replay_cli(corpus, definitions)  # the process, its JSON on a pipe; decoding not timed
        times[CLI_REPLAY].append(time.perf_counter_ns() - start)
    return times, python_report


def ratio(times: dict[str, list[int]], name: str, base: str) -> float:
    """The median over rounds of `name`'s time / `base`'s time in the same round."""
    return statistics.median(a / b for a, b in zip(times[name], times[base]))


# ---------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--definitions", type=Path, default=DEFINITIONS)
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds after the warm-up")
    parser.add_argument("--replay-rounds", type=int, default=15, help="timed replay rounds")
    parser.add_argument("--skip-replay", action="store_true", help="only the per-call table")
    args = parser.parse_args()
    if not args.corpus.exists():
        raise SystemExit(f"{args.corpus}: not found; write it with `bash scripts/corpus.sh`")

    definition = load_definition(args.definitions, TOOL)
    schema = input_schema(definition)
    check_model_matches(schema)
    texts = argument_texts(args.corpus)
    runs, setup_ns, verdict = contenders(definition, schema)

    print(
        f"corpus: {args.corpus} ({len(texts)} calls); {args.rounds} rounds after a warm-up "
        f"({args.replay_rounds} for replay); "
        f"Python {platform.python_version()}, toolargs {version('toolargs')}, "
        f"pydantic {pydantic.VERSION} (core {pydantic_core.__version__}), "
        f"jsonschema {version('jsonschema')}, fastjsonschema {fastjsonschema.VERSION}; "
        f"{len(os.sched_getaffinity(0))} cores usable",
        file=sys.stderr,
    )
    print("setup (once):", file=sys.stderr)
    for name, ns in setup_ns.items():
        print(f"  {name}: {ns / 1e6:.2f} ms", file=sys.stderr)

    times, accepted = measure(runs, texts, args.rounds)
    n = len(texts)
    print()
    print(
        "| contender | best ns/call | median ns/call | best / toolargs `.ok` "
        "| median of round ratios | accepted |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name in runs:
        best, median = min(times[name]), statistics.median(times[name])
        print(
            f"| {name} | {best / n:,.0f} | {median / n:,.0f} "
            f"| {best / min(times[OK]):.2f}x | {ratio(times, name, OK):.2f}x "
            f"| {accepted[name]:,} ({accepted[name] / n:.1%}) |"
        )

    decisions = session_decisions(definition, texts)
    print()
    print("session decisions: " + ", ".join(f"{k} {v:,}" for k, v in sorted(decisions.items())))

    # Where the verdicts part (not timed): calls one contender accepts and toolargs rejects,
    # and the other way round.
    gate = [verdict(OK, text) for text in texts]
    print()
    print("| contender | accepted | of them, toolargs rejects | toolargs accepts, it rejects |")
    print("|---|---:|---:|---:|")
    for name in runs:
        if name in (OK, ARGUMENTS, SESSION):
            continue
        own = [verdict(name, text) for text in texts]
        only_it = sum(o and not g for o, g in zip(own, gate))
        only_gate = sum(g and not o for o, g in zip(own, gate))
        print(f"| {name} | {sum(own):,} | {only_it:,} | {only_gate:,} |")

    print()
    print("Targets (best rounds; median of round ratios):")
    for mine, other, target in (
        (SESSION, OK, "what a session adds"),
        (SESSION, ARGUMENTS, "what a session adds"),
        (SESSION, "pydantic lax", "none"),
        (ARGUMENTS, "pydantic lax", "at most 2x"),
        (OK, "pydantic lax", "at most 2x"),
        (OK, "jsonschema", "below 1x"),
        (ARGUMENTS, "jsonschema", "below 1x"),
        (OK, "fastjsonschema", "below 1x"),
        (ARGUMENTS, "fastjsonschema", "below 1x"),
    ):
        print(
            f"- {mine} / {other}: {min(times[mine]) / min(times[other]):.2f}x; "
            f"{ratio(times, mine, other):.2f}x (target: {target})"
        )

    if args.skip_replay:
        return
    if not CLI.exists():
        raise SystemExit(f"{CLI}: not found; build it with `cargo build --release -p toolargs-cli`")
    replay_times, report = measure_replay(args.corpus, args.definitions, args.replay_rounds)
    replay_accepted = report["ok_clean"] + report["ok_repaired"]
    assert replay_accepted == accepted[OK] == accepted[ARGUMENTS], (
        f"replay accepts {replay_accepted}, spec.parse {accepted[OK]}"
    )
    print()
    print(
        "| replay (wall) | best | median | best / CLI | median of round ratios "
        "| total | clean | repaired | rejected |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, values in replay_times.items():
        print(
            f"| {name} | {min(values) / 1e6:.1f} ms | {statistics.median(values) / 1e6:.1f} ms "
            f"| {min(values) / min(replay_times[CLI_REPLAY]):.2f}x "
            f"| {ratio(replay_times, name, CLI_REPLAY):.2f}x "
            f"| {report['total']:,} | {report['ok_clean']:,} "
            f"| {report['ok_repaired']:,} | {report['rejected']:,} |"
        )
    print()
    print("The two replay reports are equal; the replay's accepted count equals spec.parse's.")


if __name__ == "__main__":
    main()
