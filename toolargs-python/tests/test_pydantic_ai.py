"""The pydantic-ai capability, with a real agent and a scripted model."""

import json

from pydantic_ai import Agent
from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

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
