"""`spec.tool_definition(dialect)` and `spec.lowering(dialect)`: each provider's request shape,
the schema lowered to what it takes, and the list of what it was not shown."""

import pytest

import toolargs

DIALECTS = [
    "json_schema",
    "openai_chat",
    "openai_chat_strict",
    "openai_responses",
    "openai_responses_strict",
    "anthropic",
    "gemini",
    "mcp",
]

ORDER = {
    "name": "order",
    "description": "Place an order.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "sku": {"type": "string", "maxLength": 12},
            "qty": {"type": "integer", "exclusiveMinimum": 0},
            "channel": {"oneOf": [{"const": "retail"}, {"const": "trade"}]},
            "note": {"type": "string"},
        },
        "required": ["sku", "qty"],
        "additionalProperties": False,
    },
}


@pytest.fixture(scope="module")
def spec():
    return toolargs.Spec(ORDER, effect="additive")


def schema_of(dialect, definition):
    if dialect.startswith("openai_chat"):
        return definition["function"]["parameters"]
    key = {"anthropic": "input_schema", "mcp": "inputSchema"}.get(dialect, "parameters")
    return definition[key]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_each_dialect_gets_its_providers_request_shape(spec, dialect):
    definition = spec.tool_definition(dialect)
    if dialect.startswith("openai_chat"):
        assert definition["type"] == "function"
        assert definition["function"]["name"] == "order"
        assert definition["function"]["strict"] is dialect.endswith("_strict")
    elif dialect.startswith("openai_responses"):
        assert definition["type"] == "function"
        assert definition["strict"] is dialect.endswith("_strict")
    else:
        assert definition["name"] == "order"
        assert definition["description"] == "Place an order."
    assert set(schema_of(dialect, definition)["properties"]) == {"sku", "qty", "channel", "note"}


def test_json_schema_is_the_schema_as_loaded(spec):
    assert spec.tool_definition("json_schema")["parameters"] == ORDER["inputSchema"]
    assert spec.lowering("json_schema") == []


def test_strict_mode_requires_every_property_and_lists_what_it_changed(spec):
    definition = spec.tool_definition("openai_chat_strict")
    parameters = definition["function"]["parameters"]
    assert parameters["required"] == ["sku", "qty", "channel", "note"]
    assert parameters["properties"]["note"]["type"] == ["string", "null"]
    assert "maxLength" not in parameters["properties"]["sku"]
    changes = {(c["path"], c["keyword"]) for c in spec.lowering("openai_chat_strict")}
    assert ("/properties/sku", "maxLength") in changes
    assert ("/properties/channel", "oneOf") in changes
    assert ("/properties/note", "required") in changes
    assert all(c["enforced"] for c in spec.lowering("openai_chat_strict"))


def test_gemini_gets_its_openapi_subset(spec):
    parameters = spec.tool_definition("gemini")["parameters"]
    assert parameters["properties"]["qty"] == {"type": "integer", "minimum": 0}
    assert parameters["properties"]["channel"] == {
        "anyOf": [{"enum": ["retail"]}, {"enum": ["trade"]}]
    }
    assert "additionalProperties" not in parameters
    keywords = [c["keyword"] for c in spec.lowering("gemini")]
    assert keywords.count("const") == 2
    assert "exclusiveMinimum" in keywords


def test_mcp_annotations_follow_the_effect(spec):
    annotations = spec.tool_definition("mcp")["annotations"]
    assert annotations["readOnlyHint"] is False
    assert annotations["destructiveHint"] is False


def test_what_strict_mode_cannot_say_goes_without_it_and_says_why():
    spec = toolargs.Spec(
        {
            "name": "tag",
            "inputSchema": {
                "type": "object",
                "properties": {"labels": {"type": "object", "additionalProperties": {"type": "string"}}},
            },
        }
    )
    definition = spec.tool_definition("openai_responses_strict")
    assert definition["strict"] is False
    assert spec.lowering("openai_responses_strict")[0]["keyword"] == "strict"


def test_the_gate_still_enforces_what_the_provider_was_not_shown(spec):
    # Strict mode was not shown maxLength; the model may send 13 characters, the gate refuses.
    result = spec.parse({"sku": "x" * 13, "qty": 1})
    assert not result.ok
    assert [e.code for e in result.errors] == ["length"]


def test_an_unknown_dialect_is_a_value_error(spec):
    with pytest.raises(ValueError, match="openai_chat_strict"):
        spec.tool_definition("openai")
    with pytest.raises(ValueError):
        spec.lowering("")


def test_a_pydantic_model_is_lowered_too():
    pydantic = pytest.importorskip("pydantic")

    class Refund(pydantic.BaseModel):
        """Refund part of an order."""

        order_id: str
        amount_cents: int = pydantic.Field(ge=1, le=50000)
        reason: str | None = None

    spec = toolargs.Spec.from_pydantic(Refund)
    definition = spec.tool_definition("openai_chat_strict")
    assert definition["function"]["name"] == "Refund"
    assert definition["function"]["strict"] is True
    parameters = definition["function"]["parameters"]
    assert sorted(parameters["required"]) == ["amount_cents", "order_id", "reason"]
