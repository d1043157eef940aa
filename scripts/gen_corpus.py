#!/usr/bin/env python3
"""Writes a replay corpus of `issue_refund` calls, one JSON record a line, for the benchmarks.

    python3 scripts/gen_corpus.py N OUT [--seed SEED]

The tool is the refund tool of the tests (`tests/it/common.rs`) and of the CLI fixture
(`toolargs-cli/tests/data/tools.json`). A record holds `id`, `model`, `prompt_version`, `tool`
and `arguments`; the arguments are JSON text, as most SDKs log them, or for about one line in
ten a decoded object. Of the calls, about 67% are clean, 15% carry one value that toolargs
repairs, 15% one that it rejects, and 3% wrap clean arguments (a Markdown fence, or a second
JSON encoding), which toolargs also repairs. Records are written with `json.dumps`' default
spacing (`", "`, `": "`), which `benches/corpus.rs` keeps for its `refund_written` set.

The output depends only on N and the seed: the random numbers come from SplitMix64 below, not
from the `random` module, so every Python 3 writes the same bytes.
"""
from __future__ import annotations

import argparse
import json

MASK = (1 << 64) - 1
DEFAULT_SEED = 20261201


class SplitMix64:
    """The generator `benches/corpus.rs` uses too: a 64-bit state stepped by a fixed odd constant."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in 0..n (n far below 2**64, so the modulo bias does not matter here)."""
        return self.next() % n

    def between(self, low: int, high: int) -> int:
        """A number in low..=high."""
        return low + self.below(high - low + 1)

    def percent(self, p: int) -> bool:
        return self.below(100) < p

    def pick(self, items):
        return items[self.below(len(items))]

    def text(self, alphabet: str, length: int) -> str:
        return "".join(self.pick(alphabet) for _ in range(length))


ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
REASONS = ["damaged", "late", "duplicate", "other"]
TAGS = ["fragile", "gift", "vip", "bulk", "return"]
MODELS = ["vendor-large-2026-06", "vendor-mini-2026-09", "open-8b-instruct"]
PROMPTS = ["v1", "v2", "v3"]


def clean_call(rng: SplitMix64) -> dict:
    """Arguments the schema accepts as sent: the three required keys, then optional ones."""
    call = {
        "order_id": "ord_" + rng.text(ID_CHARS, 8),
        "amount_cents": rng.between(1, 50000),
        "reason": rng.pick(REASONS),
    }
    if rng.percent(50):
        tags = []
        for _ in range(rng.below(3)):
            tag = rng.pick(TAGS)
            if tag not in tags:
                tags.append(tag)
        call["tags"] = tags
    if rng.percent(30):
        call["effective_date"] = f"2026-{rng.between(1, 12):02d}-{rng.between(1, 28):02d}"
    if rng.percent(30):
        call["notify_customer"] = rng.percent(50)
    return call


def spell_bool(rng: SplitMix64, value: bool) -> str:
    word = "true" if value else "false"
    return rng.pick([word, word.upper(), word.capitalize()])


# Each mutation changes one key of a clean call. A repairable one has a single meaning under the
# schema (a number written as a string, a flag as a word, a lone list item, a null for a field
# with a default, an enum value in the wrong case); a rejected one has none or several.
def repairable(rng: SplitMix64, call: dict) -> None:
    kind = rng.below(7)
    if kind == 0:
        call["amount_cents"] = str(call["amount_cents"])
    elif kind == 1:
        call["amount_cents"] = float(call["amount_cents"])
    elif kind == 2:
        call["notify_customer"] = spell_bool(rng, rng.percent(50))
    elif kind == 3:
        call["reason"] = rng.pick([str.upper, str.capitalize])(call["reason"])
    elif kind == 4:
        call["tags"] = rng.pick(TAGS)
    elif kind == 5:
        call["notify_customer"] = None
    else:
        call["tags"] = None


def rejected(rng: SplitMix64, call: dict) -> None:
    amount = call["amount_cents"]
    kind = rng.below(18)
    if kind == 0:
        call["amount_cents"] = f"{amount // 100}.{amount % 100:02d}"  # dollars or cents?
    elif kind == 1:
        call["amount_cents"] = f"{amount + 1000:,}"  # a thousands separator
    elif kind == 2:
        call["amount_cents"] = f"{rng.between(1, 9)}e{rng.between(1, 4)}"
    elif kind == 3:
        call["amount_cents"] = rng.pick([" ", ""]) + str(amount) + rng.pick([" ", "\t"])
    elif kind == 4:
        call["amount_cents"] = "0" + str(amount)
    elif kind == 5:
        call["amount_cents"] = amount / 100 if amount % 100 else amount + 0.5
    elif kind == 6:
        call["amount_cents"] = rng.pick([0, -amount, 50000 + amount])
    elif kind == 7:
        call["amount_cents"] = rng.pick([True, False])
    elif kind == 8:
        call["notify_customer"] = rng.pick(["yes", "no", "1", 1, 0])
    elif kind == 9:
        call["order_id"] = rng.between(10_000_000, 99_999_999)
    elif kind == 10:
        call["order_id"] = rng.pick(["ORD_", "ord-", "order_"]) + call["order_id"][4:]
    elif kind == 11:
        call["reason"] = rng.pick(["broken", "refund", "customer request", ""])
    elif kind == 12:
        call["tags"] = f"{rng.pick(TAGS)}, {rng.pick(TAGS)}"
    elif kind == 13:
        call["tags"] = json.dumps([rng.pick(TAGS)])
    elif kind == 14:
        m, d = rng.between(1, 9), rng.between(1, 28)
        call["effective_date"] = rng.pick([f"{m:02d}/{d:02d}/2026", f"2026-{m}-{d:02d}"])
    elif kind == 15:
        call["effective_date"] = rng.pick(["2026-02-30", "2026-04-31", "2026-13-01"])
    elif kind == 16:
        call[rng.pick(["amount", "orderId", "notify"])] = amount
    else:
        del call[rng.pick(["order_id", "amount_cents", "reason"])]


def record(rng: SplitMix64, index: int) -> dict:
    call = clean_call(rng)
    roll = rng.below(100)
    if roll < 15:
        repairable(rng, call)
    elif roll < 30:
        rejected(rng, call)
    text = json.dumps(call)
    if roll in (30, 31):
        arguments = "```json\n" + text + "\n```"
    elif roll == 32:
        arguments = json.dumps(text)
    elif rng.percent(10):
        arguments = call
    else:
        arguments = text
    return {
        "id": index,
        "model": rng.pick(MODELS),
        "prompt_version": rng.pick(PROMPTS),
        "tool": "issue_refund",
        "arguments": arguments,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="Write a corpus of refund tool calls (JSONL).")
    parser.add_argument("calls", type=int, help="number of records")
    parser.add_argument("out", help="output path")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args()
    rng = SplitMix64(args.seed)
    with open(args.out, "w", encoding="utf-8", newline="\n") as out:
        for index in range(args.calls):
            out.write(json.dumps(record(rng, index)) + "\n")


if __name__ == "__main__":
    main()
