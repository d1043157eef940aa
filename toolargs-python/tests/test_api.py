"""The package's API: the shapes and behaviour its README promises."""

import json
import random
import threading

import pytest

import toolargs

REFUND = {
    "name": "refund",
    "description": "Refund part of an order.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "order_id": {"type": "string", "pattern": "^ord_[0-9]{6}$"},
            "amount_cents": {"type": "integer", "minimum": 1, "maximum": 50000},
            "reason": {"type": "string", "enum": ["damaged", "late", "other"]},
            "notify": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["order_id", "amount_cents"],
    },
}


@pytest.fixture(scope="module")
def spec():
    return toolargs.Spec(REFUND)


def codes(result):
    return [(e.path, e.code) for e in result.errors]


def test_a_clean_call_comes_back_as_sent(spec):
    result = spec.parse('{"order_id": "ord_123456", "amount_cents": 1999}')
    assert result.ok
    assert result.arguments == {"order_id": "ord_123456", "amount_cents": 1999}
    assert result.repairs == []
    assert result.errors == []
    assert json.loads(result.for_model()) == {"ok": True}


def test_a_repair_is_recorded_with_where_which_rule_before_and_after(spec):
    result = spec.parse('{"order_id": "ord_123456", "amount_cents": "1999", "tags": "vip"}')
    assert result.ok
    assert result.arguments == {"order_id": "ord_123456", "amount_cents": 1999, "tags": ["vip"]}
    assert [(r.path, r.rule, r.before, r.after) for r in result.repairs] == [
        ("$.amount_cents", "numeric_string_to_int", "1999", 1999),
        ("$.tags", "scalar_to_list", "vip", ["vip"]),
    ]


def test_every_error_of_a_call_is_reported_at_once(spec):
    result = spec.parse(
        {"order_id": "123", "amount_cents": "19.99", "reason": "broken", "notify": "yes", "x": 1}
    )
    assert not result.ok
    assert result.arguments is None
    assert result.repairs == []
    # Unknown keys first, then the declared fields in the schema's order.
    assert codes(result) == [
        ("$.x", "unknown_field"),
        ("$.order_id", "pattern"),
        ("$.amount_cents", "ambiguous_integer"),
        ("$.reason", "enum"),
        ("$.notify", "ambiguous_boolean"),
    ]
    body = json.loads(result.for_model())
    assert body["ok"] is False
    assert [(e["path"], e["error"]) for e in body["errors"]] == codes(result)
    assert all(e["message"] for e in body["errors"])


def test_a_missing_field_and_a_payload_that_is_not_an_object(spec):
    assert codes(spec.parse("{}")) == [("$.order_id", "missing"), ("$.amount_cents", "missing")]
    assert [e.code for e in spec.parse("[1, 2]").errors] == ["not_object"]
    assert [e.code for e in spec.parse('{"order_id": ').errors] == ["invalid_json"]


def test_validate_returns_the_arguments_or_raises_rejected(spec):
    assert spec.validate({"order_id": "ord_123456", "amount_cents": "5"}) == {
        "order_id": "ord_123456",
        "amount_cents": 5,
    }
    with pytest.raises(toolargs.Rejected) as raised:
        spec.validate({"order_id": "ord_123456", "amount_cents": 90000})
    assert [e.code for e in raised.value.errors] == ["out_of_range"]
    assert json.loads(raised.value.for_model())["errors"][0]["error"] == "out_of_range"
    assert isinstance(raised.value, ValueError)


def test_text_bytes_and_a_decoded_dict_get_the_same_verdict(spec):
    rng = random.Random(7)
    values = [1999, "1999", 19.99, "19.99", 20.0, True, None, "  42 ", [5], {"a": 1}, -3, 10**20]
    for _ in range(300):
        call = {"order_id": rng.choice(["ord_123456", "ord_1", 7]), "amount_cents": rng.choice(values)}
        if rng.random() < 0.3:
            call["tags"] = rng.choice(["vip", ["a", "b"], 3, None])
        if rng.random() < 0.2:
            call["invented"] = True
        text = json.dumps(call)
        results = [spec.parse(text), spec.parse(text.encode()), spec.parse(call)]
        verdicts = [(r.ok, r.arguments, codes(r), [(p.path, p.rule) for p in r.repairs]) for r in results]
        assert verdicts[0] == verdicts[1] == verdicts[2], call


def test_numbers_reach_the_caller_exactly(spec):
    # An integer beyond 64 bits is never rounded: it is rejected, out of an integer schema's
    # range, and lossy where any number is allowed.
    result = spec.parse({"order_id": "ord_123456", "amount_cents": 2**70})
    assert [e.code for e in result.errors] == ["out_of_range"]
    number = toolargs.Spec({"type": "object", "properties": {"x": {"type": "number"}}})
    assert [e.code for e in number.parse({"x": 2**70}).errors] == ["lossy_number"]
    assert [e.code for e in number.parse('{"x": %d}' % 2**70).errors] == ["lossy_number"]
    for x in [0.1, 1e-7, 123456.789, 2.5e300, -0.0]:
        assert number.parse({"x": x}).arguments == {"x": x}
        assert number.parse(json.dumps({"x": x})).arguments == {"x": x}
    # A float stays a float: 5.0 for an integer is a recorded repair, not a silent one.
    result = spec.parse({"order_id": "ord_123456", "amount_cents": 5.0})
    assert [(r.rule, r.before, r.after) for r in result.repairs] == [("integral_float_to_int", 5.0, 5)]
    assert type(result.repairs[0].before) is float
    assert [e.code for e in number.parse({"x": float("nan")}).errors] == ["non_finite_number"]
    assert [e.code for e in number.parse({"x": float("inf")}).errors] == ["non_finite_number"]


def test_what_json_cannot_carry_is_a_rejection_naming_where(spec):
    cases = [
        ({"order_id": "ord_123456", "amount_cents": {1, 2}}, "$.amount_cents", "`set`"),
        ({"order_id": "ord_123456", "tags": [object()]}, "$.tags[0]", "`object`"),
        ({1: "x"}, "$", "`int`"),
    ]
    for call, path, named in cases:
        result = spec.parse(call)
        assert codes(result) == [(path, "invalid_json")]
        assert named in result.errors[0].message
    lone = {"order_id": "ord_\ud800"}
    assert [e.code for e in spec.parse(lone).errors] == ["invalid_json"]
    assert [e.code for e in spec.parse('{"order_id": "\ud800"}').errors] == ["invalid_json"]
    assert [e.code for e in spec.parse(b'{"order_id": "\xff"}').errors] == ["invalid_json"]


def test_hostile_structures_are_clean_rejections(spec):
    cyclic = {}
    cyclic["a"] = cyclic
    assert [e.code for e in spec.parse(cyclic).errors] == ["too_deep"]
    deep = []
    for _ in range(10_000):
        deep = [deep]
    assert [e.code for e in spec.parse({"tags": deep}).errors] == ["too_deep"]
    assert [e.code for e in spec.parse("[" * 100_000).errors] == ["too_deep"]
    huge = {"order_id": "x" * (17 * 1024 * 1024)}
    assert [e.code for e in spec.parse(huge).errors] == ["too_large"]
    assert [e.code for e in spec.parse(12).errors] == ["not_object"]


def test_effect_and_unknown_decide_what_happens_to_invented_keys():
    call = {"order_id": "ord_123456", "amount_cents": 5, "overwrite": True}
    assert toolargs.Spec(REFUND).unknown == "reject"
    assert not toolargs.Spec(REFUND).parse(call).ok
    read_only = toolargs.Spec(REFUND, effect="read_only")
    assert (read_only.effect, read_only.unknown) == ("read_only", "strip")
    result = read_only.parse(call)
    assert result.arguments == {"order_id": "ord_123456", "amount_cents": 5}
    assert [(r.path, r.rule) for r in result.repairs] == [("$.overwrite", "strip_unknown_field")]
    # An explicit policy wins over the effect.
    assert not toolargs.Spec(REFUND, effect="read_only", unknown="reject").parse(call).ok
    assert toolargs.Spec(REFUND, effect="external", unknown="strip").parse(call).ok
    # MCP annotations decide when nothing else is said.
    annotated = dict(REFUND, annotations={"readOnlyHint": True})
    assert toolargs.Spec(annotated).unknown == "strip"
    with pytest.raises(ValueError):
        toolargs.Spec(REFUND, effect="harmless")
    with pytest.raises(ValueError):
        toolargs.Spec(REFUND, unknown="allow")


def test_definitions_in_every_shape_load_and_bad_ones_raise_load_error():
    schema = REFUND["inputSchema"]
    shapes = [
        schema,
        json.dumps(schema),
        REFUND,
        {"type": "function", "function": {"name": "refund", "parameters": schema}},
        {"name": "refund", "input_schema": schema},
        json.dumps(REFUND).encode(),
    ]
    for shape in shapes:
        spec = toolargs.Spec(shape)
        assert spec.parse({"order_id": "ord_123456", "amount_cents": "7"}).arguments["amount_cents"] == 7
    assert toolargs.Spec(REFUND).name == "refund"
    assert toolargs.Spec(REFUND).description == "Refund part of an order."
    with pytest.raises(toolargs.LoadError) as raised:
        toolargs.Spec({"type": "object", "properties": {"x": {"type": "no-such-type"}}})
    assert "/properties/x/type" in str(raised.value)
    with pytest.raises(toolargs.LoadError):
        toolargs.Spec("{not json")
    assert issubclass(toolargs.LoadError, ValueError)


def test_warnings_name_what_loaded_with_one():
    spec = toolargs.Spec({"type": "object", "properties": {"when": {"type": "string", "format": "color"}}})
    assert spec.warnings and all(isinstance(w, str) for w in spec.warnings)
    assert toolargs.Spec(REFUND).warnings == []


def test_a_tool_set_from_an_mcp_tools_list_result():
    listing = {
        "tools": [
            REFUND,
            {"name": "broken", "inputSchema": {"type": "object", "properties": {"x": {"type": "nope"}}}},
            {
                "name": "time",
                "inputSchema": {"type": "object", "properties": {"zone": {"type": "string"}}},
                "annotations": {"readOnlyHint": True},
            },
        ]
    }
    for given in [listing, {"jsonrpc": "2.0", "id": 1, "result": listing}, listing["tools"], json.dumps(listing)]:
        tools = toolargs.ToolSet(given)
        assert tools.names == ["refund", "time"]
        assert len(tools) == 2 and "refund" in tools and "broken" not in tools
        assert [name for name, _ in tools.unchecked] == ["broken"]
        assert "nope" in tools.unchecked[0][1]
        assert tools.parse("refund", {"order_id": "ord_123456", "amount_cents": "1"}).ok
        assert tools.parse("time", {"invented": 1}).arguments == {}
        assert tools["time"].unknown == "strip"
    with pytest.raises(KeyError, match="did not load"):
        tools.parse("broken", {})
    with pytest.raises(KeyError, match="no tool"):
        tools.parse("nope", {})


def test_a_spec_is_shared_between_threads(spec):
    big = {"order_id": "ord_123456", "amount_cents": "12", "tags": ["t" * 100] * 2000}
    text = json.dumps(big)
    expected = spec.parse(text)
    failures = []

    def work():
        for _ in range(20):
            result = spec.parse(text)
            if result.arguments != expected.arguments or len(result.repairs) != 1:
                failures.append(result)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    with pytest.raises(AttributeError):
        spec.name = "other"


def test_replay_counts_what_parse_decides(tmp_path):
    rng = random.Random(3)
    tools = toolargs.ToolSet([REFUND])
    lines = []
    expected = {"ok_clean": 0, "ok_repaired": 0, "rejected": 0}
    for i in range(200):
        amount = rng.choice([1999, "1999", "19.99", 0, 70000, " 5 "])
        arguments = {"order_id": "ord_123456", "amount_cents": amount}
        lines.append(json.dumps({"tool": "refund", "arguments": json.dumps(arguments), "model": f"m{i % 2}"}))
        result = tools.parse("refund", arguments)
        expected["rejected" if not result.ok else "ok_repaired" if result.repairs else "ok_clean"] += 1
    log = tmp_path / "calls.jsonl"
    log.write_text("\n".join(lines) + "\n")
    definitions = tmp_path / "tools.json"
    definitions.write_text(json.dumps([REFUND]))
    for given in [tools, [REFUND], str(definitions), definitions]:
        report = toolargs.replay(str(log), tools=given, by="model")
        assert {k: report[k] for k in expected} == expected
        assert report["total"] == 200
        assert sorted(g["key"]["model"] for g in report["groups"]) == ["m0", "m1"]
        assert sum(g["total"] for g in report["groups"]) == 200
    with pytest.raises(OSError):
        toolargs.replay(str(tmp_path / "missing.jsonl"), tools=tools)
    with pytest.raises(toolargs.LoadError):
        toolargs.replay([log], tools=None)
