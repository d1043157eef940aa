"""The pydantic-ai capability, with a real agent and a scripted model."""

import json
from typing import Annotated

import pytest
from pydantic import Field
from pydantic_ai import Agent
from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from toolargs import LoadError
from toolargs.pydantic_ai import Gate


def scripted(*calls):
    """A model that makes `calls` (tool name, arguments as text), one per turn, then answers."""
    turns = iter(calls)

    def model(messages, info: AgentInfo):
        call = next(turns, None)
        if call is None:
            return ModelResponse(parts=[TextPart("done")])
        return ModelResponse(parts=[ToolCallPart(*call)])

    return FunctionModel(model)


def retries(run):
    """What went back to the model as retries of a call (`ModelRetry`)."""
    return [
        p
        for m in run.all_messages()
        for p in m.parts
        if isinstance(p, ToolReturnPart) and p.outcome == "retried" and p.retry.cause == "model_retry"
    ]


def agent_with(model, **gate):
    verdicts = []
    agent = Agent(model, capabilities=[Gate(on_verdict=lambda n, r: verdicts.append((n, r)), **gate)])
    received = []

    @agent.tool_plain
    def refund(order_id: str, amount_cents: int, notify: bool = False) -> str:
        """Refund part of an order."""
        received.append((order_id, amount_cents, notify))
        return "refunded"

    @agent.tool_plain
    def lookup_order(order_id: str) -> str:
        received.append(("lookup", order_id))
        return "found"

    return agent, received, verdicts


def test_a_rejected_call_goes_back_to_the_model_as_a_retry_with_the_errors():
    model = scripted(
        ("refund", '{"order_id": "ord_1", "amount_cents": "19.99", "notify": "yes"}'),
        ("refund", '{"order_id": "ord_1", "amount_cents": 1999, "notify": true}'),
    )
    agent, received, verdicts = agent_with(model)
    run = agent.run_sync("refund it")
    assert run.output == "done"
    # pydantic alone would have run the first call with notify=True.
    assert received == [("ord_1", 1999, True)]
    retry = retries(run)
    assert len(retry) == 1
    body = json.loads(retry[0].content)
    assert [(e["path"], e["error"]) for e in body["errors"]] == [
        ("$.amount_cents", "ambiguous_integer"),
        ("$.notify", "ambiguous_boolean"),
    ]
    assert [r.ok for _, r in verdicts] == [False, True]


def test_a_repaired_call_runs_repaired_and_undeclared_keys_follow_the_effect():
    model = scripted(
        ("refund", '{"order_id": "ord_1", "amount_cents": "1999"}'),
        ("lookup_order", '{"order_id": "ord_1", "verbose": true}'),
        ("refund", '{"order_id": "ord_1", "amount_cents": 5, "overwrite": true}'),
    )
    agent, received, verdicts = agent_with(model, effects={"lookup_order": "read_only"})
    run = agent.run_sync("go")
    assert received == [("ord_1", 1999, False), ("lookup", "ord_1")]
    assert [[r.rule for r in v.repairs] for _, v in verdicts[:2]] == [
        ["numeric_string_to_int"],
        ["strip_unknown_field"],
    ]
    assert [e.code for e in verdicts[2][1].errors] == ["unknown_field"]
    assert json.loads(retries(run)[0].content)["errors"][0]["path"] == "$.overwrite"


# Meaning, within the run's session.

MONEY = {"semantic": "money", "currency": "currency", "minor_units": True, "critical": True}


def refunder(model, declared_in_schema=False, **gate):
    """An agent with `issue_refund` (its meaning declared to the gate, or in its schema) and a
    read-only `lookup_order`; what reached them, in order."""
    verdicts = []
    if not declared_in_schema:
        gate.setdefault("meaning", {"issue_refund": {"amount_cents": MONEY}})
    capability = Gate(
        effects={"lookup_order": "read_only"}, on_verdict=lambda n, r: verdicts.append((n, r)), **gate
    )
    # pydantic-ai allows one retry per tool by default; a model that corrects twice needs more.
    agent = Agent(model, capabilities=[capability], retries=10)
    received = []
    amount = Annotated[int, Field(json_schema_extra={"x-toolargs": MONEY})] if declared_in_schema else int

    @agent.tool_plain
    def issue_refund(
        order_id: str, amount_cents: amount, currency: Annotated[str, Field(pattern="^[A-Z]{3}$")]
    ) -> str:
        """Refund part of an order."""
        received.append((order_id, amount_cents, currency))
        return "refunded"

    @agent.tool_plain
    def lookup_order(order_id: str) -> str:
        received.append(("lookup", order_id))
        return "found"

    return agent, received, verdicts


def ref(order_id, amount, currency="USD"):
    return ("issue_refund", json.dumps({"order_id": order_id, "amount_cents": amount, "currency": currency}))


def retried_errors(run):
    return [[e["error"] for e in json.loads(r.content)["errors"]] for r in retries(run)]


@pytest.mark.parametrize("declared_in_schema", [False, True])
def test_the_refund_a_model_corrects_runs_once_and_as_meant(declared_in_schema):
    model = scripted(
        ref("ord_1", "19.99"),  # dollars where cents go: rejected, the original
        ref("ord_1", 199900),  # a hundred times what was meant
        ref("ord_1", 1999),  # what was meant
        ref("ord_1", 1999),  # the same refund again
        ref("ord_2", "15,00"),  # another order, in a decimal comma
        ref("ord_2", 1500, "CAD"),  # corrected into another currency
    )
    agent, received, verdicts = refunder(model, declared_in_schema)
    run = agent.run_sync("refund $19.99 on ord_1 and 15 on ord_2")
    assert run.output == "done"
    # Only the refund that means it reached the tool, once.
    assert received == [("ord_1", 1999, "USD")]
    assert retried_errors(run) == [
        ["ambiguous_integer"],
        ["meaning_changed"],
        ["duplicate_action"],
        ["ambiguous_integer"],
        ["meaning_changed"],
    ]
    assert [r.decision for _, r in verdicts] == ["reject", "reject", "proceed", "confirm", "reject", "reject"]


def test_a_read_only_tool_proceeds_however_often_it_is_called():
    model = scripted(*[("lookup_order", '{"order_id": "ord_1"}')] * 3)
    agent, received, verdicts = refunder(model)
    run = agent.run_sync("look it up")
    assert received == [("lookup", "ord_1")] * 3 and retries(run) == []
    assert [r.decision for _, r in verdicts] == ["proceed"] * 3


def test_each_run_has_its_own_session():
    agent, received, _ = refunder(scripted())
    # The same refund in two runs: each run's own, as a new conversation's would be.
    for _ in range(2):
        run = agent.run_sync("refund it", model=scripted(ref("ord_1", 1999)))
        assert retries(run) == []
    # Within one run, the second is held.
    run = agent.run_sync("refund it twice", model=scripted(ref("ord_1", 1999), ref("ord_1", 1999)))
    assert retried_errors(run) == [["duplicate_action"]]
    assert received == [("ord_1", 1999, "USD")] * 3


def test_the_session_options_pass_through():
    model = scripted(ref("ord_1", "19.99"), ref("ord_1", 1999))
    agent, received, _ = refunder(model, corrections_per_tool=0)
    run = agent.run_sync("refund it")
    assert received == [] and retried_errors(run) == [["ambiguous_integer"], ["retry_budget_exhausted"]]
    model = scripted(ref("ord_1", 1999), ref("ord_1", 1999))
    agent, received, _ = refunder(model, duplicate_window=0)
    agent.run_sync("refund it twice")
    assert received == [("ord_1", 1999, "USD")] * 2
    with pytest.raises(ValueError, match="duplicate_window"):
        Gate(duplicate_window=float("nan"))


def test_a_meaning_that_does_not_fit_the_tool_is_a_load_error():
    model = scripted(ref("ord_1", 1999))
    agent, received, _ = refunder(model, meaning={"issue_refund": {"amount": MONEY}})
    with pytest.raises(LoadError, match="issue_refund.*amount"):
        agent.run_sync("refund it")
    assert received == []
