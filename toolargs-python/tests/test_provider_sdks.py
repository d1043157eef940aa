"""Every tool definition we have, lowered for every dialect, checked by what the providers' own
SDKs accept (issue 42): google-genai's `FunctionDeclaration` (pydantic models that forbid any
field they do not know) for Gemini, the OpenAI SDK's request types and its strict-schema helper
for OpenAI, the Anthropic SDK's `ToolParam` for Anthropic and the `mcp` package's `Tool` for
MCP, plus each provider's documented rules that no SDK checks (names, strict mode's keywords and
limits), written out below with their source.

The definitions: the MCP tools of `tests/data/mcp-tools`, BFCL's tools when `TOOLARGS_BFCL`
names the folder of its `tools.json` (as in CI), and the schemas of the JSON Schema Test
Suite's draft 2020-12 groups that load as a spec and whose root is an object schema.

A definition a provider must refuse for a rule the lowering cannot lower away is counted
apart: a tool name that does not match the provider's pattern (the lowering keeps the name, as
toolargs never renames; the Rust `Lowering::refusals` and `toolargs lint` report it), and an
untyped root that a reference points at, which cannot be shown as `"type": "object"` without
typing the reference (the lowering's changes say so, keyword `type` at `""`). Every other
definition must be accepted by every oracle.

Run with the counts shown: `TOOLARGS_BFCL=target/bfcl cargo test -p toolargs-python --test
pytest` prints them past pytest's capture."""

import copy
import json
import os
import re
import typing
from collections import Counter
from pathlib import Path

import pytest

import toolargs

genai_types = pytest.importorskip("google.genai.types")
openai_chat = pytest.importorskip("openai.types.chat")
openai_responses = pytest.importorskip("openai.types.responses")
openai_pydantic = pytest.importorskip("openai.lib._pydantic")
anthropic_types = pytest.importorskip("anthropic.types")
mcp_types = pytest.importorskip("mcp.types")
pydantic = pytest.importorskip("pydantic")
jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"

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


# --- The definitions -------------------------------------------------------------------------


def mcp_specs():
    """Every tool of the MCP `tools/list` results in `tests/data/mcp-tools`."""
    specs = []
    for path in sorted((DATA / "mcp-tools").glob("*.json")):
        tools = toolargs.ToolSet(json.loads(path.read_text()))
        specs.extend((f"{path.name}: {name}", tools[name]) for name in tools.names)
    return specs


def bfcl_specs():
    """BFCL's tools (`TOOLARGS_BFCL`/tools.json: OpenAI chat definitions), each loaded on its
    own; None when `TOOLARGS_BFCL` is not set."""
    folder = os.environ.get("TOOLARGS_BFCL")
    if not folder:
        return None
    # A relative folder is the workspace's, as for the Rust tests (pytest runs elsewhere).
    tools = ROOT / folder / "tools.json"
    specs = []
    for index, definition in enumerate(json.loads(tools.read_text())):
        try:
            spec = toolargs.Spec(definition)
        except toolargs.LoadError:
            continue
        specs.append((f"bfcl {index}: {definition['function']['name']}", spec))
    return specs


def suite_specs():
    """The JSON Schema Test Suite's draft 2020-12 schemas that load and are object schemas at
    the root: a schema object (not `true` or `false`) whose `type` is `"object"` or not said
    (a tool's arguments are an object, and the gate takes nothing else), each under the name
    `suite` (a schema has none of its own)."""
    specs = []
    for path in sorted((DATA / "json-schema-test-suite" / "draft2020-12").glob("*.json")):
        for group in json.loads(path.read_text()):
            schema = group["schema"]
            if not isinstance(schema, dict) or schema.get("type", "object") != "object":
                continue
            try:
                spec = toolargs.Spec({"name": "suite", "inputSchema": schema})
            except toolargs.LoadError:
                continue
            specs.append((f"{path.name}: {group['description']}", spec))
    return specs


# --- The oracles -----------------------------------------------------------------------------


def typed_dict_keys(td, value, where="$"):
    """The keys of `value` that the TypedDict `td` does not declare (pydantic's TypeAdapter
    drops them without a word, where the API refuses them), at every TypedDict level."""
    hints = typing.get_type_hints(td)
    extra = [f"{where}.{key}" for key in value if key not in hints]
    for key, hint in hints.items():
        if key in value and isinstance(value[key], dict):
            for option in typing.get_args(hint) or (hint,):
                if typing.is_typeddict(option):
                    extra += typed_dict_keys(option, value[key], f"{where}.{key}")
    return extra


def validate_typed_dict(td, value):
    """pydantic's strict validation of `value` as `td`, and no undeclared key."""
    pydantic.TypeAdapter(td).validate_python(value, strict=True)
    extra = typed_dict_keys(td, value)
    assert not extra, f"keys {td.__name__} does not declare: {extra}"


def valid_2020_12(schema):
    """A valid JSON Schema 2020-12 (its metaschema; formats not asserted, since Python's `re`
    is not ECMA-262's: `\\p{Letter}` is a valid pattern that it cannot read)."""
    meta = jsonschema.Draft202012Validator.META_SCHEMA
    jsonschema.Draft202012Validator(meta).validate(schema)


# OpenAI's tool names: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum
# length of 64" (the SDK's own `FunctionDefinition.name` doc, openai 3.60.0).
OPENAI_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
# Anthropic's tool names (the Messages API's `tools[].name`, documented in its tool-use guide).
ANTHROPIC_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
# Gemini's function names: "must start with a letter or an underscore; a-z, A-Z, 0-9,
# underscores, dots, colons and dashes, at most 128 characters" (google-genai 3.6.1's
# `FunctionDeclaration.name` doc).
GEMINI_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$")

# OpenAI strict mode (Structured Outputs), from OpenAI's guide
# (platform.openai.com/docs/guides/structured-outputs, "Supported schemas"): the types string,
# number, boolean, integer, object, array, enum and anyOf; for strings `pattern` and `format`
# (the formats below), for numbers `multipleOf`, `maximum`, `exclusiveMaximum`, `minimum`,
# `exclusiveMinimum`, for arrays `minItems` and `maxItems`; definitions (`$defs`) and
# references, recursive ones too; `description` and `title`; `const` and `enum`. Every object
# has `additionalProperties: false` and every property required; the root is an object, not
# `anyOf`. Limits: at most 5000 object properties in all and 10 levels of nesting, at most 1000
# enum values in all, and at most 120000 characters in all the property names, definition
# names, enum values and const values together. The figures are those of the guide as the
# lowering (toolargs-core `provider::openai`) cites it; they could not be read again from
# OpenAI's own page here.
STRICT_KEYWORDS = {
    "type",
    "description",
    "title",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "definitions",
    "pattern",
    "format",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
}
STRICT_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
STRICT_TYPES = {"string", "number", "boolean", "integer", "object", "array", "null"}
STRICT_MAX_PROPERTIES = 5000
STRICT_MAX_DEPTH = 10
STRICT_MAX_ENUM_VALUES = 1000
STRICT_MAX_CHARACTERS = 120000


def strict_violations(root):
    """What OpenAI's strict mode refuses in `root`, one line each (empty when it takes it)."""
    found = []
    tally = Counter()

    def walk(schema, where, depth):
        if not isinstance(schema, dict):
            found.append(f"{where}: not a schema object")
            return
        for key in schema:
            if key not in STRICT_KEYWORDS:
                found.append(f"{where}: {key} is not supported")
        if "format" in schema and schema["format"] not in STRICT_FORMATS:
            found.append(f"{where}: format {schema['format']!r} is not supported")
        types = schema.get("type")
        for t in types if isinstance(types, list) else [types] if types is not None else []:
            if t not in STRICT_TYPES:
                found.append(f"{where}: type {t!r} is not supported")
        is_object = types == "object" or (isinstance(types, list) and "object" in types)
        if is_object or "properties" in schema:
            depth += 1
            if depth > STRICT_MAX_DEPTH:
                found.append(f"{where}: nesting deeper than {STRICT_MAX_DEPTH}")
            if schema.get("additionalProperties") is not False:
                found.append(f"{where}: additionalProperties is not false")
            properties = schema.get("properties", {})
            if set(schema.get("required", [])) != set(properties):
                found.append(f"{where}: not every property is required")
            tally["properties"] += len(properties)
            tally["characters"] += sum(len(name) for name in properties)
            for name, sub in properties.items():
                walk(sub, f"{where}/properties/{name}", depth)
        if "enum" in schema:
            tally["enum"] += len(schema["enum"])
            tally["characters"] += sum(len(v) for v in schema["enum"] if isinstance(v, str))
        if isinstance(schema.get("const"), str):
            tally["characters"] += len(schema["const"])
        if "items" in schema:
            walk(schema["items"], f"{where}/items", depth)
        for i, sub in enumerate(schema.get("anyOf", [])):
            walk(sub, f"{where}/anyOf/{i}", depth)
        for key in ("$defs", "definitions"):
            for name, sub in schema.get(key, {}).items():
                tally["characters"] += len(name)
                walk(sub, f"{where}/{key}/{name}", depth)

    if root.get("type") != "object" or "anyOf" in root:
        found.append("the root is not an object schema")
    walk(root, "", 0)
    if tally["properties"] > STRICT_MAX_PROPERTIES:
        found.append(f"{tally['properties']} properties, over {STRICT_MAX_PROPERTIES}")
    if tally["enum"] > STRICT_MAX_ENUM_VALUES:
        found.append(f"{tally['enum']} enum values, over {STRICT_MAX_ENUM_VALUES}")
    if tally["characters"] > STRICT_MAX_CHARACTERS:
        found.append(f"{tally['characters']} characters of names and values, over {STRICT_MAX_CHARACTERS}")
    return found


def openai_strict(parameters, strict):
    """A strict definition's schema obeys strict mode's rules, and the OpenAI SDK's own
    strict-schema helper (`openai.lib._pydantic._ensure_strict_json_schema`, which the SDK
    applies to the schemas it writes) leaves it as it is."""
    if not strict:
        return
    violations = strict_violations(parameters)
    assert not violations, violations
    helped = openai_pydantic._ensure_strict_json_schema(
        copy.deepcopy(parameters), path=(), root=copy.deepcopy(parameters)
    )
    assert helped == parameters, "the SDK's strict-schema helper changes it"


def check_openai_chat(definition):
    validate_typed_dict(openai_chat.ChatCompletionToolParam, definition)
    function = definition["function"]
    openai_strict(function["parameters"], function.get("strict"))
    return OPENAI_NAME.match(function["name"])


def check_openai_responses(definition):
    validate_typed_dict(openai_responses.FunctionToolParam, definition)
    openai_strict(definition["parameters"], definition.get("strict"))
    return OPENAI_NAME.match(definition["name"])


def check_anthropic(definition):
    validate_typed_dict(anthropic_types.ToolParam, definition)
    schema = definition["input_schema"]
    # `InputSchema` is a union with any dict: the typed member is what the API documents.
    pydantic.TypeAdapter(anthropic_types.tool_param.InputSchemaTyped).validate_python(schema, strict=True)
    valid_2020_12(schema)
    refused = {"anyOf", "oneOf", "allOf"} & set(schema)
    assert not refused, f"{sorted(refused)} at the input_schema's root"
    return ANTHROPIC_NAME.match(definition["name"])


def check_gemini(definition):
    # The pydantic models forbid extra fields: a keyword `Schema` does not know is refused,
    # `$ref`/`$defs` among them (its own are `ref`/`defs`). `parametersJsonSchema` (the
    # camelCase alias the API takes) is any JSON Schema, and `parameters` and it exclude
    # each other.
    declaration = genai_types.FunctionDeclaration.model_validate(definition)
    assert not (declaration.parameters and declaration.parameters_json_schema is not None)
    if declaration.parameters_json_schema is not None:
        valid_2020_12(declaration.parameters_json_schema)
    return GEMINI_NAME.match(definition["name"])


def check_mcp(definition):
    tool = mcp_types.Tool.model_validate(definition)
    assert tool.input_schema.get("type") == "object", "inputSchema's root is not an object"
    valid_2020_12(tool.input_schema)
    return True


def check_json_schema(definition):
    assert set(definition) <= {"name", "description", "parameters"}, sorted(definition)
    valid_2020_12(definition["parameters"])
    return True


ORACLES = {
    "json_schema": check_json_schema,
    "openai_chat": check_openai_chat,
    "openai_chat_strict": check_openai_chat,
    "openai_responses": check_openai_responses,
    "openai_responses_strict": check_openai_responses,
    "anthropic": check_anthropic,
    "gemini": check_gemini,
    "mcp": check_mcp,
}


def unlowerable_root(spec, dialect):
    """The lowering says the root cannot be shown as an object (an untyped root that a
    reference points at: typing it would type the reference too)."""
    return any(
        c["path"] == "" and c["keyword"] == "type" and c["instead"].startswith("nothing")
        for c in spec.lowering(dialect)
    )


def judge(specs):
    """For each dialect: how many lowered definitions its oracle accepted, how many carry a
    name the provider refuses (everything else accepted), how many the provider refuses for a
    root the lowering says it could not type, and the other refusals, which fail."""
    counts = {d: Counter() for d in DIALECTS}
    refusals = []
    for what, spec in specs:
        for dialect in DIALECTS:
            definition = spec.tool_definition(dialect)
            try:
                name_ok = ORACLES[dialect](definition)
            except Exception as e:  # noqa: BLE001 - any refusal is reported, with its tool
                if unlowerable_root(spec, dialect):
                    counts[dialect]["root refused"] += 1
                    continue
                counts[dialect]["refused"] += 1
                refusals.append(f"{dialect} {what}: {type(e).__name__}: {str(e)[:400]}")
                continue
            counts[dialect]["accepted" if name_ok else "name refused"] += 1
            if dialect.endswith("_strict"):
                strict = definition.get("function", definition).get("strict")
                counts[dialect]["strict: true" if strict else "strict: false"] += 1
    return counts, refusals


def report(capsys, source, counts, refusals):
    """The counts, printed past pytest's capture, then asserted."""
    with capsys.disabled():
        print(f"\n{source}: per dialect, accepted / name refused / root refused / refused")
        for dialect in DIALECTS:
            c = counts[dialect]
            strict = f"  (strict: true {c['strict: true']})" if dialect.endswith("_strict") else ""
            print(
                f"  {dialect:24} {c['accepted']:6} {c['name refused']:6} {c['root refused']:6} {c['refused']:6}"
                + strict
            )
        for line in refusals[:20]:
            print(f"   {line}")
    assert not refusals, f"{len(refusals)} refusals, the first: {refusals[:5]}"


@pytest.mark.parametrize(
    ("source", "load", "floor"),
    [("MCP tools", mcp_specs, 100), ("JSON Schema Test Suite", suite_specs, 100)],
)
def test_every_lowered_definition_is_accepted_by_each_providers_sdk(capsys, source, load, floor):
    specs = load()
    assert len(specs) >= floor, f"{len(specs)} definitions from {source}"
    counts, refusals = judge(specs)
    report(capsys, source, counts, refusals)
    for dialect in DIALECTS:
        c = counts[dialect]
        assert c["accepted"] + c["name refused"] + c["root refused"] == len(specs)


def test_every_lowered_bfcl_definition_is_accepted_by_each_providers_sdk(capsys):
    specs = bfcl_specs()
    if specs is None:
        pytest.skip("TOOLARGS_BFCL is not set: BFCL's definitions were not checked")
    assert len(specs) >= 8000, f"{len(specs)} BFCL definitions"
    counts, refusals = judge(specs)
    report(capsys, "BFCL", counts, refusals)
    for dialect in DIALECTS:
        c = counts[dialect]
        assert c["accepted"] + c["name refused"] + c["root refused"] == len(specs)


def test_a_name_the_provider_refuses_is_counted_apart_not_passed():
    spec = toolargs.Spec({"name": "files.read", "inputSchema": {"type": "object"}})
    assert check_anthropic(spec.tool_definition("anthropic")) is None
    assert check_openai_chat(spec.tool_definition("openai_chat")) is None
    assert check_gemini(spec.tool_definition("gemini"))


def test_the_strict_checker_refuses_what_strict_mode_refuses():
    # The checker itself is tested: each rule it states refuses a schema that breaks it.
    ok = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": False}
    assert strict_violations(ok) == []
    assert strict_violations({**ok, "required": []})
    assert strict_violations({k: v for k, v in ok.items() if k != "additionalProperties"})
    assert strict_violations({**ok, "properties": {"a": {"type": "string", "maxLength": 3}}})
    assert strict_violations({"anyOf": [ok]})
    deep = ok
    for _ in range(STRICT_MAX_DEPTH):
        deep = {**ok, "properties": {"a": deep}}
    assert any("nesting" in v for v in strict_violations(deep))
    many = {f"p{i}": {"type": "string"} for i in range(STRICT_MAX_PROPERTIES + 1)}
    assert strict_violations({"type": "object", "properties": many, "required": list(many), "additionalProperties": False})
    assert strict_violations({**ok, "properties": {"a": {"enum": list(range(STRICT_MAX_ENUM_VALUES + 1))}}})
