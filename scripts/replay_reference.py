#!/usr/bin/env python3
"""The Python reference of the replay benchmark (BENCHMARKS.md, "Replay throughput").

A straightforward implementation of the same policy in Python: the argument gate (stdlib
`json`, one process), the refund tool's spec and the replay loop that counts clean, repaired
and rejected calls per rule and code, as one would write them by hand. Usage:

    python3 scripts/replay_reference.py CORPUS.jsonl
"""
from __future__ import annotations

import copy
import difflib
import json
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any


class ArgumentError(ValueError):
    def __init__(self, path: str, code: str, message: str):
        super().__init__(f"{path}: {code}: {message}")
        self.path = path
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Repair:
    path: str
    rule: str
    before: Any
    after: Any


@dataclass
class Parsed:
    args: dict[str, Any]
    repairs: list[Repair] = field(default_factory=list)


FENCE_RE = re.compile(r"\A```(?:json)?[ \t]*\n(.*)\n```\s*\Z", re.DOTALL)
INT_RE = re.compile(r"-?(?:0|[1-9][0-9]*)")
ISO_DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
LIST_SEPARATORS = (",", ";", "\n")


# --- payload decoding -------------------------------------------------------

def _no_duplicates(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise ArgumentError(f"$.{key}", "duplicate_key", "key appears more than once")
        obj[key] = value
    return obj


def _reject_constant(name):
    raise ArgumentError("$", "non_finite_number", f"{name} is not allowed")


def _loads(text: str) -> Any:
    return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_reject_constant)


def decode_payload(raw: Any, repairs: list[Repair]) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    if not isinstance(raw, str):
        raise ArgumentError("$", "not_object", f"expected JSON object, got {type(raw).__name__}")

    text = raw.strip()
    fence = FENCE_RE.match(text)
    if fence:
        repairs.append(Repair("$", "strip_code_fence", raw, fence.group(1)))
        text = fence.group(1)

    try:
        value = _loads(text)
    except json.JSONDecodeError as err:
        raise ArgumentError("$", "invalid_json", err.msg) from None

    if isinstance(value, str):
        # Exactly one level of double encoding is repaired; deeper nesting is rejected below.
        try:
            inner = _loads(value)
        except json.JSONDecodeError:
            raise ArgumentError("$", "not_object", "payload is a JSON string") from None
        if isinstance(inner, dict):
            repairs.append(Repair("$", "unwrap_double_encoded", value, inner))
        value = inner

    if not isinstance(value, dict):
        raise ArgumentError("$", "not_object", f"expected JSON object, got {type(value).__name__}")
    return value


# --- field coercers -----------------------------------------------------------

def _type_error(path: str, expected: str, value: Any) -> ArgumentError:
    return ArgumentError(path, "type", f"expected {expected}, got {type(value).__name__}")


def coerce_string(path, value, spec, repairs):
    if not isinstance(value, str):
        raise _type_error(path, "string", value)
    pattern = spec.get("pattern")
    if pattern and not re.fullmatch(pattern, value):
        raise ArgumentError(path, "pattern", f"{value!r} does not match {pattern}")
    return value


def coerce_integer(path, value, spec, repairs):
    if isinstance(value, bool):
        raise _type_error(path, "integer", value)
    if isinstance(value, int):
        out = value
    elif isinstance(value, float):
        if not value.is_integer():
            raise ArgumentError(path, "lossy_number", f"{value!r} has a fractional part")
        out = int(value)
        repairs.append(Repair(path, "integral_float_to_int", value, out))
    elif isinstance(value, str):
        if not INT_RE.fullmatch(value):
            raise ArgumentError(path, "ambiguous_integer", f"{value!r} is not a plain base-10 integer")
        out = int(value)
        repairs.append(Repair(path, "numeric_string_to_int", value, out))
    else:
        raise _type_error(path, "integer", value)

    low, high = spec.get("minimum"), spec.get("maximum")
    if (low is not None and out < low) or (high is not None and out > high):
        raise ArgumentError(path, "out_of_range", f"{out} is outside [{low}, {high}]")
    return out


def coerce_boolean(path, value, spec, repairs):
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        lowered = value.lower()
        if lowered in ("true", "false"):
            out = lowered == "true"
            repairs.append(Repair(path, "string_to_bool", value, out))
            return out
        raise ArgumentError(path, "ambiguous_boolean", f"{value!r} is not 'true' or 'false'")
    raise _type_error(path, "boolean", value)


def coerce_enum(path, value, spec, repairs):
    if not isinstance(value, str):
        raise _type_error(path, "string enum", value)
    values = spec["values"]
    if value in values:
        return value
    matches = [v for v in values if v.casefold() == value.casefold()]
    if len(matches) == 1:
        repairs.append(Repair(path, "enum_casefold", value, matches[0]))
        return matches[0]
    raise ArgumentError(path, "enum", f"{value!r} is not one of {values}")


def coerce_string_list(path, value, spec, repairs):
    if isinstance(value, list):
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise _type_error(f"{path}[{i}]", "string", item)
        return list(value)
    if isinstance(value, str):
        if (not value.strip()
                or any(sep in value for sep in LIST_SEPARATORS)
                or value.lstrip().startswith("[")):
            raise ArgumentError(path, "ambiguous_list", f"{value!r} cannot be turned into a list safely")
        repairs.append(Repair(path, "scalar_to_list", value, [value]))
        return [value]
    raise _type_error(path, "array of strings", value)


def coerce_date(path, value, spec, repairs):
    if not isinstance(value, str):
        raise _type_error(path, "date string", value)
    if not ISO_DATE_RE.fullmatch(value):
        raise ArgumentError(path, "ambiguous_date", f"{value!r} is not YYYY-MM-DD")
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise ArgumentError(path, "invalid_date", f"{value!r} is not a real calendar date") from None


COERCERS = {
    "string": coerce_string,
    "integer": coerce_integer,
    "boolean": coerce_boolean,
    "enum": coerce_enum,
    "array_string": coerce_string_list,
    "date": coerce_date,
}


# --- entry points -------------------------------------------------------------

def parse_arguments(raw: Any, spec: dict[str, dict[str, Any]]) -> Parsed:
    repairs: list[Repair] = []
    data = decode_payload(raw, repairs)

    unknown = sorted(set(data) - set(spec))
    if unknown:
        name = unknown[0]
        hint = difflib.get_close_matches(name, list(spec), n=1)
        message = "unknown field" + (f"; did you mean {hint[0]!r}?" if hint else "")
        raise ArgumentError(f"$.{name}", "unknown_field", message)

    out: dict[str, Any] = {}
    for name, fspec in spec.items():
        path = f"$.{name}"
        if name not in data or data[name] is None:
            if fspec.get("required"):
                raise ArgumentError(path, "missing", "required field is absent or null")
            if name in data:
                repairs.append(Repair(path, "null_to_absent", None, fspec.get("default")))
            if "default" in fspec:
                out[name] = copy.deepcopy(fspec["default"])
            continue

        before = len(repairs)
        out[name] = COERCERS[fspec["type"]](path, data[name], fspec, repairs)
        if fspec.get("strict") and len(repairs) > before:
            rule = repairs[before].rule
            raise ArgumentError(path, "repair_forbidden", f"{rule} is not allowed for this field")

    return Parsed(out, repairs)


def error_for_model(err: ArgumentError) -> str:
    """Tool result to send back to the model so it can correct the call."""
    return json.dumps(
        {"ok": False, "error": err.code, "path": err.path, "message": err.message},
        ensure_ascii=False,
    )


# --- the refund tool -------------------------------------------------------------

SPEC = {
    "order_id": {"type": "string", "required": True, "pattern": r"ord_[A-Za-z0-9]{8}"},
    "amount_cents": {"type": "integer", "required": True, "minimum": 1, "maximum": 50000},
    "notify_customer": {"type": "boolean", "default": False},
    "reason": {"type": "enum", "required": True,
               "values": ["damaged", "late", "duplicate", "other"]},
    "tags": {"type": "array_string", "default": []},
    "effective_date": {"type": "date"},
}


# --- replay ------------------------------------------------------------------------

def main() -> None:
    import collections
    import sys

    counts = collections.Counter()
    with open(sys.argv[1], encoding="utf-8") as fh:
        for line in fh:
            record = json.loads(line)
            try:
                parsed = parse_arguments(record["arguments"], SPEC)
            except ArgumentError as err:
                counts[f"reject:{err.code}"] += 1
                continue
            counts["ok_repaired" if parsed.repairs else "ok_clean"] += 1
            for repair in parsed.repairs:
                counts[f"repair:{repair.rule}"] += 1

    for key, value in sorted(counts.items()):
        print(f"{value:6d} {key}")


if __name__ == "__main__":
    main()
