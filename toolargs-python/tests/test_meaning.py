"""Meaning in a session: corrections compared with their originals, duplicate actions, the
retry budget, and declarations that do not fit."""

import datetime
import json
from pathlib import Path

import pytest

import toolargs

REFUND = {
    "name": "issue_refund",
    "description": "Refund part of an order.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "order_id": {"type": "string"},
            "amount_cents": {"type": "integer"},
            "currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
        },
        "required": ["order_id", "amount_cents", "currency"],
    },
    "annotations": {"destructiveHint": True},
}

LOOKUP = {
    "name": "lookup_order",
    "inputSchema": {
        "type": "object",
        "properties": {"order_id": {"type": "string"}},
        "required": ["order_id"],
    },
    "annotations": {"readOnlyHint": True},
}

MONEY = {
    "amount_cents": {
        "semantic": "money",
        "currency": "currency",
        "minor_units": True,
        "critical": True,
    }
}


@pytest.fixture
def session():
    return toolargs.ToolSet([REFUND, LOOKUP], meaning={"issue_refund": MONEY}).session()


def codes(result):
    return [e.code for e in result.errors]


def finding_codes(result):
    return [f["code"] for f in result.findings]


def test_the_five_calls_of_a_model_asked_to_refund_19_99(session):
    # Dollars where cents go: the schema rejects it, and it is the original.
    first = session.parse(
        "issue_refund", '{"order_id": "ord_1", "amount_cents": "19.99", "currency": "USD"}'
    )
    assert not first.ok
    assert (first.decision, codes(first), first.findings) == ("reject", ["ambiguous_integer"], [])

    # A hundred times what was meant passes the schema, not the session.
    second = session.parse(
        "issue_refund", {"order_id": "ord_1", "amount_cents": 199900, "currency": "USD"}
    )
    assert not second.ok and second.arguments is None
    assert second.decision == "reject"
    assert codes(second) == ["meaning_changed"]
    body = json.loads(second.for_model())
    assert body["ok"] is False and body["errors"][0]["error"] == "meaning_changed"
    [finding] = second.findings
    assert finding["code"] == "meaning_changed"
    assert finding["verdict"] == "changed"
    assert finding["path"] == "$.amount_cents"
    assert finding["critical"] is True

    # The correction that means it runs.
    third = session.parse(
        "issue_refund", {"order_id": "ord_1", "amount_cents": 1999, "currency": "USD"}
    )
    assert third.ok
    assert third.decision == "proceed"
    assert third.findings == []
    assert third.arguments == {"order_id": "ord_1", "amount_cents": 1999, "currency": "USD"}
    session.executed("issue_refund", third.arguments)

    # The same refund again, written otherwise, would refund twice: the caller must ask.
    fourth = session.parse(
        "issue_refund", '{"currency":"USD","order_id":"ord_1","amount_cents":1999.0}'
    )
    assert fourth.ok and fourth.errors == []
    assert fourth.decision == "confirm"
    assert finding_codes(fourth) == ["duplicate_action"]
    assert fourth.findings[0]["path"] == "$"
    assert fourth.findings[0]["verdict"] == "duplicate"
    # When it is not made, what the model is told.
    held = json.loads(fourth.for_model())
    assert held["ok"] is False and held["errors"][0]["error"] == "duplicate_action"
    assert "ask the user" in held["errors"][0]["message"]

    # Another order, in a decimal comma: rejected, the original of its corrections.
    fifth = session.parse(
        "issue_refund", {"order_id": "ord_2", "amount_cents": "15,00", "currency": "USD"}
    )
    assert not fifth.ok and fifth.decision == "reject" and fifth.findings == []

    # A correction in another currency is another refund.
    sixth = session.parse(
        "issue_refund", {"order_id": "ord_2", "amount_cents": 1500, "currency": "CAD"}
    )
    assert not sixth.ok
    assert sixth.decision == "reject"
    assert codes(sixth) == ["meaning_changed"]
    assert "meaning_changed" in finding_codes(sixth)


def test_a_fourth_attempt_after_three_rejected_is_refused_unjudged(session):
    for amount in ["19.99", "19,99", "$19.99"]:
        result = session.parse(
            "issue_refund", {"order_id": "ord_1", "amount_cents": amount, "currency": "USD"}
        )
        assert not result.ok and result.decision == "reject"
        assert codes(result) != ["retry_budget_exhausted"]
    # Even a call the schema would accept.
    result = session.parse(
        "issue_refund", {"order_id": "ord_1", "amount_cents": 1999, "currency": "USD"}
    )
    assert not result.ok and result.arguments is None
    assert result.decision == "reject"
    assert codes(result) == ["retry_budget_exhausted"]
    assert [(f["path"], f["code"]) for f in result.findings] == [("$", "retry_budget_exhausted")]
    assert json.loads(result.for_model())["errors"][0]["error"] == "retry_budget_exhausted"
    # The other tools are not held by it.
    assert session.parse("lookup_order", {"order_id": "ord_1"}).decision == "proceed"


def test_a_tool_without_declared_meaning_parses_as_the_tool_set_does(session):
    tools = toolargs.ToolSet([REFUND, LOOKUP])
    for arguments in ['{"order_id": "ord_1"}', '{"order_id": 7}', "{}"]:
        plain = tools.parse("lookup_order", arguments)
        judged = session.parse("lookup_order", arguments)
        assert (judged.ok, judged.arguments, codes(judged)) == (
            plain.ok,
            plain.arguments,
            codes(plain),
        )
        assert judged.for_model() == plain.for_model()
        assert judged.decision == ("proceed" if plain.ok else "reject")
        assert judged.findings == []
    # Running it twice is no duplicate: its meaning is not declared.
    session.executed("lookup_order", {"order_id": "ord_1"})
    assert session.parse("lookup_order", {"order_id": "ord_1"}).decision == "proceed"
    with pytest.raises(KeyError):
        session.parse("no_such_tool", {})
    with pytest.raises(KeyError):
        session.executed("no_such_tool", {})


def test_outside_a_session_the_decision_is_the_schemas():
    spec = toolargs.Spec(REFUND, meaning=MONEY)
    clean = spec.parse({"order_id": "ord_1", "amount_cents": 1999, "currency": "USD"})
    assert (clean.decision, clean.findings) == ("proceed", [])
    rejected = spec.parse({"order_id": "ord_1", "amount_cents": "19.99", "currency": "USD"})
    assert (rejected.decision, rejected.findings) == ("reject", [])


def test_meaning_declared_in_the_schema_under_x_toolargs():
    definition = json.loads(json.dumps(REFUND))
    definition["inputSchema"]["properties"]["amount_cents"]["x-toolargs"] = MONEY["amount_cents"]
    tools = toolargs.ToolSet([definition])
    assert tools.unchecked == []
    session = tools.session()
    assert not session.parse(
        "issue_refund", {"order_id": "ord_1", "amount_cents": "19.99", "currency": "USD"}
    ).ok
    corrected = session.parse(
        "issue_refund", {"order_id": "ord_1", "amount_cents": 199900, "currency": "USD"}
    )
    assert (corrected.decision, codes(corrected)) == ("reject", ["meaning_changed"])

    # A Spec reads it too, and its own session judges by it.
    session = toolargs.Spec(definition).session()
    assert not session.parse({"order_id": "ord_1", "amount_cents": "19.99", "currency": "USD"}).ok
    corrected = session.parse({"order_id": "ord_1", "amount_cents": 199900, "currency": "USD"})
    assert codes(corrected) == ["meaning_changed"]
    meant = session.parse("issue_refund", {"order_id": "ord_1", "amount_cents": 1999, "currency": "USD"})
    assert meant.decision == "proceed"
    session.executed(meant.arguments)
    again = session.parse({"order_id": "ord_1", "amount_cents": 1999, "currency": "USD"})
    assert again.decision == "confirm"
    with pytest.raises(KeyError):
        session.parse("lookup_order", {})


def test_an_idempotent_tool_repeated_is_no_duplicate():
    definition = dict(REFUND, annotations={"destructiveHint": True, "idempotentHint": True})
    session = toolargs.ToolSet([definition], meaning={"issue_refund": MONEY}).session()
    call = {"order_id": "ord_1", "amount_cents": 1999, "currency": "USD"}
    assert session.parse("issue_refund", call).decision == "proceed"
    session.executed("issue_refund", call)
    assert session.parse("issue_refund", call).decision == "proceed"


def test_a_declaration_that_does_not_fit_is_a_load_error_naming_it():
    missing = {"amount": {"semantic": "money", "currency": "USD"}}
    with pytest.raises(toolargs.LoadError, match="amount"):
        toolargs.Spec(REFUND, meaning=missing)
    with pytest.raises(toolargs.LoadError, match="issue_refund.*amount"):
        toolargs.ToolSet([REFUND, LOOKUP], meaning={"issue_refund": missing})
    with pytest.raises(toolargs.LoadError, match="semantics"):
        toolargs.Spec(REFUND, meaning={"amount_cents": {"semantics": "money"}})
    with pytest.raises(toolargs.LoadError, match="refund_order"):
        toolargs.ToolSet([REFUND], meaning={"refund_order": MONEY})
    # A spec names its tool too.
    with pytest.raises(toolargs.LoadError, match="^issue_refund: .*amount"):
        toolargs.Spec(REFUND, meaning=missing)


def declaring(prop, declared):
    definition = json.loads(json.dumps(REFUND))
    definition["inputSchema"]["properties"]["notify"] = {"type": "boolean"}
    definition["inputSchema"]["properties"][prop]["x-toolargs"] = declared
    return definition


@pytest.mark.parametrize(
    "definition, says",
    [
        # A kind there is not.
        (declaring("order_id", {"semantic": "cash"}), "order_id: .*cash"),
        # A sibling the schema does not have.
        (declaring("amount_cents", {"semantic": "money", "currency": "curr"}), "amount_cents: .*curr"),
        # A kind its type cannot hold.
        (declaring("notify", {"semantic": "money", "currency": "USD"}), "notify is boolean.*money"),
        # A key there is not.
        (declaring("amount_cents", {"semantics": "money"}), "amount_cents: its x-toolargs: .*semantics"),
    ],
)
def test_a_schema_declaration_that_does_not_fit_is_a_load_error_naming_the_tool_and_argument(
    definition, says
):
    # As a meaning given beside the definitions is, in a set and in a spec alike.
    with pytest.raises(toolargs.LoadError, match=f"^issue_refund: .*{says}"):
        toolargs.ToolSet([definition, LOOKUP])
    with pytest.raises(toolargs.LoadError, match=f"^issue_refund: .*{says}"):
        toolargs.Spec(definition)
    # A schema that does not load is still the tool's alone.
    broken = dict(LOOKUP, name="broken", inputSchema={"type": "object", "properties": {"a": {"$ref": "#/nowhere"}}})
    tools = toolargs.ToolSet([broken, LOOKUP])
    assert tools.names == ["lookup_order"] and [name for name, _ in tools.unchecked] == ["broken"]


def refund(amount):
    return {"order_id": "ord_1", "amount_cents": amount, "currency": "USD"}


def test_the_corrections_per_tool_and_per_session_are_options():
    tools = toolargs.ToolSet([REFUND, LOOKUP], meaning={"issue_refund": MONEY})
    # No correction at all: the first call after a rejected one is refused unjudged.
    session = tools.session(corrections_per_tool=0)
    assert not session.parse("issue_refund", refund("19.99")).ok
    assert codes(session.parse("issue_refund", refund(1999))) == ["retry_budget_exhausted"]
    # Four attempts in all, where the default allows three.
    session = tools.session(corrections_per_tool=3)
    for amount in ["19.99", "19,99", "$19.99"]:
        assert codes(session.parse("issue_refund", refund(amount))) != ["retry_budget_exhausted"]
    assert session.parse("issue_refund", refund(1999)).decision == "proceed"
    # One correction in the whole session, whatever the tool.
    spec = toolargs.Spec(REFUND, meaning=MONEY)
    session = spec.session(corrections_per_session=1)
    assert not session.parse(refund("19.99")).ok
    assert not session.parse(refund("19,99")).ok
    assert codes(session.parse(refund(1999))) == ["retry_budget_exhausted"]


@pytest.mark.parametrize("window", [0, 0.0, datetime.timedelta(0)])
def test_the_duplicate_window_is_an_option(window):
    tools = toolargs.ToolSet([REFUND], meaning={"issue_refund": MONEY})
    for session in [tools.session(duplicate_window=window), tools["issue_refund"].session(duplicate_window=window)]:
        session.executed("issue_refund", refund(1999))
        # Past the window at once: the same refund is no duplicate.
        assert session.parse("issue_refund", refund(1999)).decision == "proceed"
    for window in [60, 0.5, datetime.timedelta(minutes=1)]:
        session = tools.session(duplicate_window=window)
        session.executed("issue_refund", refund(1999))
        assert session.parse("issue_refund", refund(1999)).decision == "confirm"


@pytest.mark.parametrize(
    "options, error, says",
    [
        ({"corrections_per_tool": -1}, ValueError, "corrections_per_tool must be 0 or more, not -1"),
        ({"corrections_per_session": 2**32}, ValueError, "corrections_per_session must be at most"),
        ({"corrections_per_tool": 1.5}, TypeError, "corrections_per_tool must be an int, not float"),
        ({"corrections_per_tool": "2"}, TypeError, "must be an int, not str"),
        ({"corrections_per_session": True}, TypeError, "must be an int, not bool"),
        ({"corrections_per_tool": None, "duplicate_window": -1}, ValueError, "duplicate_window must be 0 seconds or more"),
        ({"duplicate_window": float("nan")}, ValueError, "duplicate_window must be 0 seconds or more, not nan"),
        ({"duplicate_window": float("inf")}, ValueError, "finite number of seconds, not inf"),
        ({"duplicate_window": 10**400}, ValueError, "finite number of seconds"),
        ({"duplicate_window": datetime.timedelta(seconds=-1)}, ValueError, "0 seconds or more"),
        ({"duplicate_window": "600"}, TypeError, "an int or a float) or a datetime.timedelta, not str"),
        ({"duplicate_window": False}, TypeError, "not bool"),
    ],
)
def test_bad_session_options_raise_naming_the_option(options, error, says):
    tools = toolargs.ToolSet([REFUND], meaning={"issue_refund": MONEY})
    for make in [tools.session, tools["issue_refund"].session]:
        with pytest.raises(error) as raised:
            make(**options)
        assert says in str(raised.value)
    # The options are keywords.
    with pytest.raises(TypeError):
        tools.session(2)


def test_a_session_of_its_own_takes_each_calls_spec():
    # Tools loaded one by one, as an integration loads them; the session tells them apart
    # by name.
    refund_spec = toolargs.Spec(REFUND, meaning=MONEY)
    lookup_spec = toolargs.Spec(LOOKUP)
    session = toolargs.Session(duplicate_window=datetime.timedelta(minutes=5))
    assert repr(session) == "Session()"
    assert not session.parse(refund_spec, refund("19.99")).ok
    # Another tool's call is no correction of the refund, and does not end its corrections.
    assert session.parse(lookup_spec, {"order_id": "ord_1"}).decision == "proceed"
    assert codes(session.parse(refund_spec, refund(199900))) == ["meaning_changed"]
    meant = session.parse(refund_spec, refund(1999))
    assert meant.decision == "proceed"
    session.executed(refund_spec, meant.arguments)
    # The same tool loaded again (a listing refreshed) is the same tool.
    again = session.parse(toolargs.Spec(REFUND, meaning=MONEY), refund(1999))
    assert again.decision == "confirm" and finding_codes(again) == ["duplicate_action"]
    # It takes specs, not names; a set's session takes either.
    with pytest.raises(TypeError, match="Spec"):
        session.parse("issue_refund", refund(1999))
    with pytest.raises(TypeError):
        session.parse(refund(1999))
    tools = toolargs.ToolSet([REFUND], meaning={"issue_refund": MONEY}).session()
    assert tools.parse(refund_spec, refund(1999)).decision == "proceed"
    tools.executed(refund_spec, refund(1999))
    assert tools.parse("issue_refund", refund(1999)).decision == "confirm"
    with pytest.raises(ValueError, match="corrections_per_tool"):
        toolargs.Session(corrections_per_tool=-2)


GOLDEN = json.loads(
    (Path(__file__).resolve().parents[2] / "tests" / "data" / "golden_pairs.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("pair", GOLDEN["pairs"], ids=[pair["what"] for pair in GOLDEN["pairs"]])
def test_the_golden_pairs_of_each_kind_are_decided_by_what_they_mean(pair):
    tool = GOLDEN["tool"]["name"]
    session = toolargs.ToolSet([GOLDEN["tool"]], meaning={tool: GOLDEN["meaning"]}).session()
    original = session.parse(tool, {**pair["meant"], "memo": "invented"})
    assert not original.ok and "unknown_field" in codes(original)
    corrected = session.parse(tool, pair["corrected"])
    assert corrected.decision == pair["decision"]
    if pair["decision"] == "reject":
        assert codes(corrected) == [pair["code"]]
    if pair["decision"] == "confirm":
        assert pair["code"] in corrected.for_model()
