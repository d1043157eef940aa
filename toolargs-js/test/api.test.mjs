// Every member of the public API, in the shape the package's README and types promise.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { LoadError, ParseResult, Rejected, Spec, ToolSet } from "toolargs";

const REFUND = {
  name: "issue_refund",
  description: "Refund part of an order.",
  inputSchema: {
    type: "object",
    properties: {
      order_id: { type: "string", pattern: "^ord_[A-Za-z0-9]{8}$" },
      amount_cents: { type: "integer", minimum: 1, maximum: 50000 },
      notify_customer: { type: "boolean", default: false },
      reason: { enum: ["damaged", "late", "duplicate", "other"] },
    },
    required: ["order_id", "amount_cents", "reason"],
  },
};

const CLEAN = '{"order_id": "ord_A1b2C3d4", "amount_cents": 1999, "reason": "late"}';

describe("new Spec", () => {
  test("loads a tool definition given as an object, as JSON text, or as UTF-8 bytes", () => {
    for (const definition of [
      REFUND,
      JSON.stringify(REFUND),
      new TextEncoder().encode(JSON.stringify(REFUND)),
    ]) {
      const spec = new Spec(definition);
      assert.equal(spec.name, "issue_refund");
      assert.equal(spec.description, "Refund part of an order.");
      assert.equal(spec.parse(CLEAN).ok, true);
    }
  });

  test("loads the OpenAI, Anthropic, Gemini and MCP shapes and a bare JSON Schema alike", () => {
    const schema = REFUND.inputSchema;
    const shapes = [
      { type: "function", function: { name: "issue_refund", parameters: schema } },
      { type: "function", name: "issue_refund", parameters: schema, strict: false },
      { name: "issue_refund", input_schema: schema },
      { name: "issue_refund", parameters: schema },
      { name: "issue_refund", inputSchema: schema },
      schema,
    ];
    for (const shape of shapes) {
      const result = new Spec(shape).parse('{"order_id": "ord_A1b2C3d4", "amount_cents": "1999", "reason": "LATE"}');
      assert.equal(result.ok, true, JSON.stringify(shape));
      // The default the schema declares is filled in.
      assert.deepEqual(result.arguments, {
        order_id: "ord_A1b2C3d4",
        amount_cents: 1999,
        notify_customer: false,
        reason: "late",
      });
      assert.deepEqual(
        result.repairs.map((r) => r.rule),
        ["numeric_string_to_int", "enum_casefold"],
      );
    }
  });

  test("effect and unknown: MCP annotations decide, the options override them", () => {
    const invented = '{"order_id": "ord_A1b2C3d4", "amount_cents": 5, "reason": "late", "refund_all": true}';
    const plain = new Spec(REFUND);
    assert.equal(plain.effect, null);
    assert.equal(plain.unknown, "reject");
    assert.deepEqual(plain.parse(invented).errors.map((e) => e.code), ["unknown_field"]);

    const annotated = new Spec({ ...REFUND, annotations: { readOnlyHint: true } });
    assert.equal(annotated.effect, "read_only");
    assert.equal(annotated.unknown, "strip");

    for (const [effect, unknown] of [
      ["read_only", "strip"],
      ["additive", "reject"],
      ["destructive", "reject"],
      ["external", "reject"],
    ]) {
      // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
      const spec = new Spec(REFUND, { effect });
      assert.equal(spec.effect, effect);
      assert.equal(spec.unknown, unknown);
    }
    const stripped = new Spec(REFUND, { effect: "read_only" }).parse(invented);
    assert.equal(stripped.ok, true);
    assert.deepEqual(stripped.repairs, [
      { path: "$.refund_all", rule: "strip_unknown_field", before: true, after: null },
    ]);
    const chosen = new Spec(REFUND, { effect: "read_only", unknown: "reject" });
    assert.equal(chosen.unknown, "reject");
    assert.equal(chosen.parse(invented).ok, false);
    assert.equal(new Spec(REFUND, { unknown: "strip" }).parse(invented).ok, true);
    // Absent options, as undefined or null, are no options.
    assert.equal(new Spec(REFUND, { effect: undefined, unknown: null }).unknown, "reject");
  });

  test("an option outside its set is a RangeError, a value of another type a TypeError", () => {
    // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
    assert.throws(() => new Spec(REFUND, { effect: "harmless" }), {
      name: "RangeError",
      message: /effect must be "read_only", "additive", "destructive" or "external", not "harmless"/,
    });
    // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
    assert.throws(() => new Spec(REFUND, { unknown: "keep" }), { name: "RangeError" });
    // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
    assert.throws(() => new Spec(REFUND, { effect: 1 }), { name: "TypeError" });
  });

  test("a definition that cannot be loaded throws LoadError saying where and why", () => {
    const cases = [
      ["{not json", /not valid JSON/],
      [{ type: "object", properties: { a: { $ref: "https://example.com/a.json" } } }, /remote references/],
      [{ type: "object", properties: { a: { type: "integer", minimum: "one" } } }, /minimum/],
      [{ name: "t", inputSchema: { type: "object", default: new Map() } }, /Map/],
      ['{"type": "object", "title": "\ud800"}', /lone surrogate/],
      [new Uint8Array([0x7b, 0xff, 0x7d]), /UTF-8/],
    ];
    for (const [definition, message] of cases) {
      assert.throws(
        () => new Spec(definition),
        // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
        (e) => e instanceof LoadError && e instanceof Error && e.name === "LoadError" && message.test(e.message),
        String(message),
      );
    }
  });

  test("warnings list what loaded but is not enforced as written", () => {
    const spec = new Spec({
      type: "object",
      properties: { at: { type: "string", format: "date-time" }, n: { type: "integer", readOnly: true } },
    });
    assert.ok(Array.isArray(spec.warnings));
    assert.ok(spec.warnings.length >= 1, JSON.stringify(spec.warnings));
    for (const warning of spec.warnings) assert.equal(typeof warning, "string");
    assert.deepEqual(new Spec(REFUND).warnings, []);
  });
});

describe("spec.parse", () => {
  const spec = new Spec(REFUND);

  test("a clean call: ok, the arguments as sent (with defaults), no repairs, no errors", () => {
    const result = spec.parse(CLEAN);
    assert.ok(result instanceof ParseResult);
    assert.equal(result.ok, true);
    assert.deepEqual(result.arguments, {
      order_id: "ord_A1b2C3d4",
      amount_cents: 1999,
      notify_customer: false,
      reason: "late",
    });
    assert.deepEqual(result.repairs, []);
    assert.deepEqual(result.errors, []);
    assert.equal(result.forModel(), '{"ok":true}');
  });

  test("takes JSON text, an object, bytes or an ArrayBuffer, with the same verdict", () => {
    const object = JSON.parse(CLEAN);
    const bytes = new TextEncoder().encode(CLEAN);
    for (const args of [CLEAN, object, bytes, bytes.buffer]) {
      assert.deepEqual(spec.parse(args).toJSON(), spec.parse(CLEAN).toJSON());
    }
  });

  test("a rejected call: every error with path, code and message, and the text for the model", () => {
    const result = spec.parse('{"order_id": "ord_1", "amount_cents": "19.99", "reason": "late", "note": "x"}');
    assert.equal(result.ok, false);
    assert.equal(result.arguments, null);
    assert.deepEqual(result.repairs, []);
    assert.deepEqual(
      result.errors.map((e) => [e.path, e.code]),
      [
        ["$.note", "unknown_field"],
        ["$.order_id", "pattern"],
        ["$.amount_cents", "ambiguous_integer"],
      ],
    );
    for (const error of result.errors) assert.equal(typeof error.message, "string");
    const model = JSON.parse(result.forModel());
    assert.equal(model.ok, false);
    assert.deepEqual(
      model.errors.map((e) => [e.error, e.path]),
      result.errors.map((e) => [e.code, e.path]),
    );
  });

  test("repairs and errors: read when first asked for, the same arrays after; JSON.stringify writes all four", () => {
    const repaired = spec.parse('{"order_id": "ord_A1b2C3d4", "amount_cents": "1999", "reason": "late"}');
    assert.equal(repaired.repairs, repaired.repairs);
    assert.deepEqual(repaired.repairs, [
      { path: "$.amount_cents", rule: "numeric_string_to_int", before: "1999", after: 1999 },
    ]);
    assert.deepEqual(Object.keys(repaired), ["ok", "arguments"]);
    assert.deepEqual(JSON.parse(JSON.stringify(repaired)), {
      ok: true,
      arguments: { order_id: "ord_A1b2C3d4", amount_cents: 1999, notify_customer: false, reason: "late" },
      repairs: repaired.repairs,
      errors: [],
    });
    const rejected = spec.parse('{"order_id": "ord_A1b2C3d4", "amount_cents": 0, "reason": "late"}');
    assert.equal(rejected.errors, rejected.errors);
    assert.equal(rejected.repairs, rejected.repairs);
    assert.deepEqual(JSON.parse(JSON.stringify(rejected)).errors, rejected.errors);
    assert.equal(rejected.errors[0].code, "out_of_range");
  });

  test("never throws for what the arguments hold", () => {
    for (const args of [
      "", "null", "[]", "42", '"text"', "{", "}", "NaN", null, 42, true, [], undefined,
      () => 1, Symbol("s"), new Date(0), new Map(), 10n, [1, [2, [3]]], { amount_cents: {} },
    ]) {
      // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
      const result = spec.parse(args);
      assert.equal(result.ok, false, String(args));
      assert.ok(result.errors.length > 0);
      assert.doesNotThrow(() => JSON.parse(result.forModel()));
    }
  });
});

describe("spec.validate", () => {
  const spec = new Spec(REFUND);

  test("returns the arguments of a call that passes, repaired", () => {
    assert.deepEqual(spec.validate('{"order_id": "ord_A1b2C3d4", "amount_cents": "5", "reason": "late"}'), {
      order_id: "ord_A1b2C3d4",
      amount_cents: 5,
      notify_customer: false,
      reason: "late",
    });
  });

  test("throws Rejected with the errors and the text for the model", () => {
    const text = '{"order_id": "ord_A1b2C3d4", "amount_cents": 0, "reason": "late"}';
    assert.throws(
      () => spec.validate(text),
      (e) => {
        assert.ok(e instanceof Rejected && e instanceof Error);
        assert.equal(e.name, "Rejected");
        assert.deepEqual(e.errors.map((x) => x.code), ["out_of_range"]);
        assert.equal(e.forModel(), spec.parse(text).forModel());
        assert.equal(e.message, e.forModel());
        return true;
      },
    );
  });
});

describe("new ToolSet", () => {
  const listing = {
    tools: [
      { ...REFUND, annotations: { destructiveHint: true } },
      {
        name: "lookup_order",
        inputSchema: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] },
        annotations: { readOnlyHint: true },
      },
      { name: "remote", inputSchema: { $ref: "https://example.com/schema.json" } },
      { description: "no name", inputSchema: { type: "object" } },
    ],
  };

  test("an MCP tools/list result: the tools that load, and the rest in unchecked", () => {
    const tools = new ToolSet(listing);
    assert.deepEqual(tools.names, ["issue_refund", "lookup_order"]);
    assert.equal(tools.unchecked.length, 2);
    const [[name, reason], [none, why]] = tools.unchecked;
    assert.equal(name, "remote");
    assert.match(reason, /remote references/);
    assert.equal(none, null);
    assert.equal(why, "the definition has no name");
    assert.ok(tools.has("lookup_order") && !tools.has("remote") && !tools.has("nope"));
    assert.ok(tools.get("issue_refund") instanceof Spec);
    assert.equal(tools.get("issue_refund"), tools.get("issue_refund"));
    assert.equal(tools.get("remote"), undefined);
  });

  test("parse judges a call under its own tool's policy", () => {
    const tools = new ToolSet(listing);
    const lookup = tools.parse("lookup_order", '{"order_id": "ord_1", "verbose": true}');
    assert.equal(lookup.ok, true);
    assert.deepEqual(lookup.arguments, { order_id: "ord_1" });
    const refund = tools.parse("issue_refund", { ...JSON.parse(CLEAN), refund_all: true });
    assert.deepEqual(refund.errors.map((e) => e.code), ["unknown_field"]);
  });

  test("a name that is not a tool that loaded throws RangeError saying why", () => {
    const tools = new ToolSet(listing);
    assert.throws(() => tools.parse("remote", "{}"), {
      name: "RangeError",
      message: /^remote: its definition did not load: /,
    });
    assert.throws(() => tools.parse("nope", "{}"), { name: "RangeError", message: "nope: no tool of this name" });
  });

  test("takes an array, JSON text, and a whole JSON-RPC response", () => {
    for (const definitions of [
      listing.tools,
      JSON.stringify(listing),
      JSON.stringify(listing.tools),
      { jsonrpc: "2.0", id: 1, result: listing },
    ]) {
      const tools = new ToolSet(definitions);
      assert.deepEqual(tools.names, ["issue_refund", "lookup_order"]);
      assert.equal(tools.unchecked.length, 2);
    }
  });

  test("a second definition of a name is unchecked, the first is kept", () => {
    const tools = new ToolSet([REFUND, { name: "issue_refund", inputSchema: { type: "object" } }]);
    assert.deepEqual(tools.names, ["issue_refund"]);
    assert.deepEqual(tools.unchecked, [["issue_refund", "a second definition of this name"]]);
    assert.equal(tools.parse("issue_refund", "{}").ok, false);
  });

  test("a list that is not a list of definitions throws LoadError", () => {
    assert.throws(() => new ToolSet("{not json"), LoadError);
    // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
    assert.throws(() => new ToolSet(42), LoadError);
  });
});

describe("spec.stream", () => {
  const spec = new Spec(REFUND, { effect: "destructive" });

  test("feed, partial and finish; finish gives parse's verdict", () => {
    const stream = spec.stream();
    assert.deepEqual(stream.feed('{"order_id": "ord_A1b2C3d4", "amount'), { rejected: false, errors: [] });
    assert.deepEqual(stream.partial(), { order_id: "ord_A1b2C3d4" });
    stream.feed('_cents": "1999", "reason": "late"}');
    assert.equal(stream.received, 70);
    const result = stream.finish();
    assert.ok(result instanceof ParseResult);
    assert.deepEqual(
      result.toJSON(),
      spec.parse('{"order_id": "ord_A1b2C3d4", "amount_cents": "1999", "reason": "late"}').toJSON(),
    );
    assert.throws(() => stream.feed("x"), /finished/);
    assert.throws(() => stream.finish(), /finished/);
  });

  test("an early rejection, kept for every later piece", () => {
    const stream = spec.stream();
    const first = stream.feed('{"amount_cents": 0, ');
    assert.equal(first.rejected, true);
    assert.deepEqual(first.errors.map((e) => [e.path, e.code]), [["$.amount_cents", "out_of_range"]]);
    assert.equal(stream.feed('"reason": "late"}').rejected, true);
    assert.equal(stream.finish().ok, false);
  });
});
