// `spec.toolDefinition(dialect)` and `spec.lowering(dialect)`: each provider's request shape,
// the schema lowered to what it takes, and the list of what it was not shown; the same as the
// Python package's (`toolargs-python/tests/test_lowering.py`).

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { Spec, ToolSet } from "toolargs";

const DIALECTS = [
  "json_schema",
  "openai_chat",
  "openai_chat_strict",
  "openai_responses",
  "openai_responses_strict",
  "anthropic",
  "gemini",
  "mcp",
];

const ORDER = {
  name: "order",
  description: "Place an order.",
  inputSchema: {
    type: "object",
    properties: {
      sku: { type: "string", maxLength: 12 },
      qty: { type: "integer", exclusiveMinimum: 0 },
      channel: { oneOf: [{ const: "retail" }, { const: "trade" }] },
      note: { type: "string" },
    },
    required: ["sku", "qty"],
    additionalProperties: false,
  },
};

const spec = new Spec(ORDER, { effect: "additive" });

function schemaOf(dialect, definition) {
  if (dialect.startsWith("openai_chat")) return definition.function.parameters;
  // Gemini takes what its `Schema` cannot say as `parametersJsonSchema`.
  if (dialect === "gemini") return definition.parameters ?? definition.parametersJsonSchema;
  return definition[{ anthropic: "input_schema", mcp: "inputSchema" }[dialect] ?? "parameters"];
}

test("each dialect gets its provider's request shape", () => {
  for (const dialect of DIALECTS) {
    // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
    const definition = spec.toolDefinition(dialect);
    if (dialect.startsWith("openai_chat")) {
      assert.equal(definition.type, "function");
      // @ts-expect-error -- a JSON value the test knows the shape of, read without narrowing
      assert.equal(definition.function.name, "order");
      // @ts-expect-error -- a JSON value the test knows the shape of, read without narrowing
      assert.equal(definition.function.strict, dialect.endsWith("_strict"));
    } else if (dialect.startsWith("openai_responses")) {
      assert.equal(definition.type, "function");
      assert.equal(definition.name, "order");
      assert.equal(definition.strict, dialect.endsWith("_strict"));
    } else {
      assert.equal(definition.name, "order");
      assert.equal(definition.description, "Place an order.");
    }
    assert.deepEqual(Object.keys(schemaOf(dialect, definition).properties).sort(), ["channel", "note", "qty", "sku"]);
  }
});

test("json_schema is the schema as loaded, with nothing changed", () => {
  assert.deepEqual(spec.toolDefinition("json_schema").parameters, ORDER.inputSchema);
  assert.deepEqual(spec.lowering("json_schema"), []);
});

test("strict mode requires every property and lists what it changed", () => {
  // @ts-expect-error -- a JSON value the test knows the shape of, read without narrowing
  const parameters = spec.toolDefinition("openai_chat_strict").function.parameters;
  assert.deepEqual(parameters.required, ["sku", "qty", "channel", "note"]);
  assert.deepEqual(parameters.properties.note.type, ["string", "null"]);
  assert.equal("maxLength" in parameters.properties.sku, false);
  const changes = spec.lowering("openai_chat_strict");
  for (const change of changes) {
    assert.deepEqual(Object.keys(change).sort(), ["enforced", "exact", "instead", "keyword", "path"]);
    assert.equal(typeof change.instead, "string");
    assert.equal(change.enforced, true);
  }
  const where = changes.map((c) => `${c.path} ${c.keyword}`);
  for (const expected of ["/properties/sku maxLength", "/properties/channel oneOf", "/properties/note required"]) {
    assert.ok(where.includes(expected), `${expected} in ${where}`);
  }
});

test("Gemini gets its OpenAPI subset", () => {
  const parameters = spec.toolDefinition("gemini").parameters;
  // @ts-expect-error -- a JSON value the test knows the shape of, read without narrowing
  assert.deepEqual(parameters.properties.qty, { type: "integer", minimum: 0 });
  // @ts-expect-error -- a JSON value the test knows the shape of, read without narrowing
  assert.deepEqual(parameters.properties.channel, { anyOf: [{ enum: ["retail"] }, { enum: ["trade"] }] });
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  assert.equal("additionalProperties" in parameters, false);
  const keywords = spec.lowering("gemini").map((c) => c.keyword);
  assert.equal(keywords.filter((k) => k === "const").length, 2);
  assert.ok(keywords.includes("exclusiveMinimum"));
});

test("MCP's annotations follow the effect", () => {
  const { annotations } = spec.toolDefinition("mcp");
  // @ts-expect-error -- a JSON value the test knows the shape of, read without narrowing
  assert.equal(annotations.readOnlyHint, false);
  // @ts-expect-error -- a JSON value the test knows the shape of, read without narrowing
  assert.equal(annotations.destructiveHint, false);
});

test("what strict mode cannot say goes without it, and the changes say why", () => {
  const tagger = new Spec({
    name: "tag",
    inputSchema: {
      type: "object",
      properties: { labels: { type: "object", additionalProperties: { type: "string" } } },
    },
  });
  assert.equal(tagger.toolDefinition("openai_responses_strict").strict, false);
  assert.equal(tagger.lowering("openai_responses_strict")[0].keyword, "strict");
});

test("the gate still enforces what the provider was not shown", () => {
  // Strict mode was not shown maxLength: the model may send 13 characters, the gate refuses.
  const result = spec.parse({ sku: "x".repeat(13), qty: 1 });
  assert.equal(result.ok, false);
  assert.deepEqual(result.errors.map((e) => e.code), ["length"]);
});

test("a name that is not a dialect is a RangeError that lists the names; a non-string, a TypeError", () => {
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  for (const call of [() => spec.toolDefinition("openai"), () => spec.lowering("")]) {
    assert.throws(call, (e) => e instanceof RangeError && /openai_chat_strict/.test(e.message) && /gemini/.test(e.message));
  }
  for (const bad of [undefined, null, 3, { dialect: "mcp" }]) {
    // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
    assert.throws(() => spec.toolDefinition(bad), TypeError);
    // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
    assert.throws(() => spec.lowering(bad), TypeError);
  }
  // The spec is still usable after a refusal.
  assert.equal(spec.toolDefinition("mcp").name, "order");
});

test("every MCP tool of the project's samples lowers for every dialect, as JSON the providers take", () => {
  const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "tests", "data", "mcp-tools");
  let lowered = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    const tools = new ToolSet(JSON.parse(readFileSync(join(dir, file), "utf8")));
    for (const name of tools.names) {
      const tool = tools.get(name);
      for (const dialect of DIALECTS) {
        // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
        const definition = tool.toolDefinition(dialect);
        const schema = schemaOf(dialect, definition);
        // Gemini is sent no parameters for a tool that takes none.
        if (!(dialect === "gemini" && schema === undefined)) {
          assert.equal(typeof schema, "object", `${file} ${name} ${dialect}`);
        }
        // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
        for (const change of tool.lowering(dialect)) {
          assert.equal(typeof change.path, "string");
          assert.equal(typeof change.enforced, "boolean");
          assert.equal(typeof change.exact, "boolean");
        }
        lowered += 1;
      }
    }
  }
  assert.ok(lowered > 0);
});
