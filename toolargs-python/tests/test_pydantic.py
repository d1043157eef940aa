"""pydantic models as the contract: `Spec.from_pydantic`, and every call the gate accepts
validates in pydantic's strict mode."""

import datetime
import json
import random
from typing import List, Literal, Optional

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

import toolargs


class Address(BaseModel):
    model_config = ConfigDict(extra="forbid")
    city: str = Field(min_length=1)
    postcode: str = Field(pattern=r"^[0-9]{5}$")


class Refund(BaseModel):
    """Refund part of an order."""

    model_config = ConfigDict(extra="forbid")
    order_id: str = Field(pattern=r"^ord_[0-9]{6}$")
    amount_cents: int = Field(ge=1, le=50000)
    reason: Optional[Literal["damaged", "late", "other"]] = None
    notify: bool = False
    ratio: float = Field(default=1.0, ge=0, le=1)
    tags: List[str] = Field(default_factory=list, max_length=5)
    ship_to: Optional[Address] = None
    on: Optional[datetime.date] = None


@pytest.fixture(scope="module")
def spec():
    return toolargs.Spec.from_pydantic(Refund, effect="external")


def candidates(rng):
    """Calls as models write them: each field right, in a repairable shape, or (less often)
    wrong in one of the ways models are wrong."""
    fields = {
        # name: (values that are right or have one reading, values that do not)
        "order_id": (["ord_123456"], ["ord_12", 123456, None]),
        "amount_cents": ([1999, "1999", " 1999 ", 2000.0], [19.99, "19.99", 0, 60000, True, "abc", [5]]),
        "reason": (["late", "LATE", "Late", None], ["broken", 3]),
        "notify": ([True, False, "true", "false"], ["yes", "1", 1, 0, None]),
        "ratio": ([0.5, "0.5", 1, "1"], [2, "half", None]),
        "tags": ([["a"], "a", []], [["a"] * 6, [1], None]),
        "ship_to": (
            [{"city": "Lyon", "postcode": "69001"}, None],
            [{"city": "Lyon", "postcode": 69001}, {"city": "", "postcode": "69001"}, "Lyon",
             {"city": "Lyon", "postcode": "69001", "floor": 2}],
        ),
        "on": (["2026-12-02", None], ["2026-02-30", "12/02/2026", 20261202]),
    }
    for _ in range(3000):
        call = {}
        for key, (good, bad) in fields.items():
            if key in ("order_id", "amount_cents") or rng.random() < 0.4:
                call[key] = rng.choice(bad if rng.random() < 0.1 else good)
        if rng.random() < 0.05:
            call["invented"] = True
        yield call


def test_the_schema_pydantic_emits_loads_with_its_name_and_without_warnings(spec):
    assert spec.name == "Refund"
    assert spec.effect == "external" and spec.unknown == "reject"
    assert spec.warnings == []


def test_every_call_the_gate_accepts_validates_in_pydantic_strict_mode(spec):
    accepted = rejected = repaired = 0
    for call in candidates(random.Random(11)):
        result = spec.parse(call)
        if not result.ok:
            rejected += 1
            continue
        accepted += 1
        repaired += bool(result.repairs)
        try:
            Refund.model_validate_json(json.dumps(result.arguments), strict=True)
        except ValidationError as error:  # pragma: no cover - the failure message is the point
            pytest.fail(f"{call} -> {result.arguments} fails strict validation: {error}")
    # The corpus exercises all three verdicts in numbers.
    assert accepted > 100 and repaired > 50 and rejected > 100, (accepted, repaired, rejected)


def test_where_the_gate_and_pydantic_differ():
    spec = toolargs.Spec.from_pydantic(Refund)
    base = {"order_id": "ord_123456", "amount_cents": 1999}
    # Lax mode turns "yes" into True; the gate sees two readings and asks again.
    assert Refund.model_validate({**base, "notify": "yes"}).notify is True
    assert [e.code for e in spec.parse({**base, "notify": "yes"}).errors] == ["ambiguous_boolean"]
    # Strict mode rejects "1999" for an integer; the gate repairs it and says so.
    with pytest.raises(ValidationError):
        Refund.model_validate_json(json.dumps({**base, "amount_cents": "1999"}), strict=True)
    result = spec.parse({**base, "amount_cents": "1999"})
    assert result.arguments["amount_cents"] == 1999
    assert [r.rule for r in result.repairs] == ["numeric_string_to_int"]
    # Lax mode truncates nothing here either, but the gate names the ambiguity of "19.99" cents.
    assert [e.code for e in spec.parse({**base, "amount_cents": "19.99"}).errors] == ["ambiguous_integer"]


def test_nested_models_are_gated_at_their_depth():
    spec = toolargs.Spec.from_pydantic(Refund)
    call = {"order_id": "ord_123456", "amount_cents": 5, "ship_to": {"city": "Lyon", "postcode": "6900"}}
    assert [(e.path, e.code) for e in spec.parse(call).errors] == [("$.ship_to.postcode", "pattern")]
    call["ship_to"] = {"city": "Lyon", "postcode": "69001", "floor": 2}
    assert [(e.path, e.code) for e in spec.parse(call).errors] == [("$.ship_to.floor", "unknown_field")]
