// Values come back exactly as sent or as repaired: the policy's repairs and rejections, and
// every number, string and key carried across without a change.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Spec } from "toolargs";

const typed = new Spec({
  type: "object",
  properties: {
    n: { type: "integer" },
    x: { type: "number" },
    flag: { type: "boolean" },
    year: { type: "integer", minimum: 1900, maximum: 2100 },
    any: {},
  },
});
const any = new Spec({ type: "object" });

describe("the policy, as the gate applies it", () => {
  test('"1999" for an integer is repaired to 1999', () => {
    const result = typed.parse('{"year": "1999"}');
    assert.deepEqual(result.arguments, { year: 1999 });
    assert.deepEqual(result.repairs, [
      { path: "$.year", rule: "numeric_string_to_int", before: "1999", after: 1999 },
    ]);
  });

  test('"false" for a boolean is repaired to false, in any ASCII case', () => {
    for (const text of ['"false"', '"FALSE"', '"False"']) {
      const result = typed.parse(`{"flag": ${text}}`);
      assert.equal(result.arguments.flag, false, text);
      assert.equal(result.repairs[0].rule, "string_to_bool");
    }
    assert.equal(typed.parse('{"flag": "true"}').arguments.flag, true);
  });

  test("what has more than one reading is rejected", () => {
    const codes = (text) => typed.parse(text).errors.map((e) => e.code);
    assert.deepEqual(codes('{"flag": "yes"}'), ["ambiguous_boolean"]);
    assert.deepEqual(codes('{"flag": 1}'), ["type"]);
    assert.deepEqual(codes('{"n": "1,999"}'), ["ambiguous_integer"]);
    assert.deepEqual(codes('{"n": 19.99}'), ["lossy_number"]);
    assert.deepEqual(codes('{"year": 1899}'), ["out_of_range"]);
    assert.deepEqual(codes('{"x": "1e3"}'), ["ambiguous_number"]);
  });

  test("an invented key is stripped for a read-only tool and rejected for a destructive one", () => {
    const schema = { type: "object", properties: { id: { type: "string" } } };
    const text = '{"id": "a", "delete_all": true}';
    const read = new Spec(schema, { effect: "read_only" }).parse(text);
    assert.equal(read.ok, true);
    assert.deepEqual(read.arguments, { id: "a" });
    assert.deepEqual(read.repairs, [
      { path: "$.delete_all", rule: "strip_unknown_field", before: true, after: null },
    ]);
    const destructive = new Spec(schema, { effect: "destructive" }).parse(text);
    assert.equal(destructive.ok, false);
    assert.deepEqual(destructive.errors.map((e) => [e.path, e.code]), [["$.delete_all", "unknown_field"]]);
  });

  test("a key sent twice in JSON text is duplicate_key, also through a \\u escape", () => {
    for (const text of ['{"n": 1, "n": 2}', '{"n": 1, "\\u006e": 2}', '{"any": {"a": 1, "a": 1}}']) {
      const result = typed.parse(text);
      assert.equal(result.ok, false, text);
      assert.deepEqual(result.errors.map((e) => e.code), ["duplicate_key"], text);
    }
  });

  test("a fence around the payload and a second JSON encoding are repaired", () => {
    const fenced = typed.parse('```json\n{"n": 1}\n```');
    assert.deepEqual(fenced.arguments, { n: 1 });
    assert.equal(fenced.repairs[0].rule, "strip_code_fence");
    const twice = typed.parse(JSON.stringify('{"n": 1}'));
    assert.deepEqual(twice.arguments, { n: 1 });
    assert.equal(twice.repairs[0].rule, "unwrap_double_encoded");
  });
});

describe("integers a number cannot hold exactly come back as BigInt", () => {
  test("12345678901234567890 round-trips as a BigInt, from text and from a BigInt", () => {
    for (const args of ['{"n": 12345678901234567890}', { n: 12345678901234567890n }]) {
      const result = typed.parse(args);
      assert.equal(result.ok, true);
      assert.equal(result.arguments.n, 12345678901234567890n);
      assert.equal(typeof result.arguments.n, "bigint");
      assert.deepEqual(result.repairs, []);
    }
    const any_ = any.parse('{"a": [12345678901234567890, -9223372036854775808]}');
    assert.deepEqual(any_.arguments, { a: [12345678901234567890n, -9223372036854775808n] });
  });

  test("in a repair, the value before and after", () => {
    const result = typed.parse('{"n": "12345678901234567890"}');
    assert.deepEqual(result.repairs, [
      {
        path: "$.n",
        rule: "numeric_string_to_int",
        before: "12345678901234567890",
        after: 12345678901234567890n,
      },
    ]);
    assert.equal(result.arguments.n, 12345678901234567890n);
  });

  test("the safe range stays number; one past it is a BigInt", () => {
    const result = any.parse(
      '{"max": 9007199254740991, "min": -9007199254740991, "over": 9007199254740992, "under": -9007199254740993}',
    );
    assert.deepEqual(result.arguments, {
      max: Number.MAX_SAFE_INTEGER,
      min: Number.MIN_SAFE_INTEGER,
      over: 9007199254740992n,
      under: -9007199254740993n,
    });
  });

  test("an integer beyond 64 bits is rejected, never rounded", () => {
    const result = any.parse('{"a": 123456789012345678901234567890}');
    assert.deepEqual(result.errors.map((e) => [e.path, e.code]), [["$.a", "lossy_number"]]);
    assert.deepEqual(typed.parse('{"n": 123456789012345678901234567890}').errors.map((e) => e.code), [
      "out_of_range",
    ]);
  });
});

describe("numbers sent as JavaScript values are written as the doubles they are", () => {
  test("floats keep their value; a fraction literal with more digits is the nearest double", () => {
    const values = [0.1, 1.5e-7, 1e300, -2.5, Number.MIN_VALUE, Number.MAX_VALUE, 0.30000000000000004];
    for (const x of values) {
      assert.equal(typed.parse({ x }).arguments.x, x);
      assert.equal(any.parse({ a: x }).arguments.a, x);
    }
    // As JSON.parse reads it.
    const digits = "0.12345678901234567890123456789";
    assert.equal(typed.parse(`{"x": ${digits}}`).arguments.x, JSON.parse(digits));
  });

  test("an integral double beyond 2^53 keeps its exact value", () => {
    const result = typed.parse({ n: 2 ** 60, x: 2 ** 60, any: 2 ** 70 });
    assert.equal(result.arguments.n, 1152921504606846976n);
    assert.equal(result.arguments.x, 2 ** 60);
    assert.equal(result.arguments.any, 2 ** 70);
    // As a float sent for an integer: the repair is recorded.
    assert.equal(result.repairs[0].rule, "integral_float_to_int");
  });

  test("NaN and ±Infinity are rejected as non-finite, not sent as null", () => {
    for (const x of [NaN, Infinity, -Infinity]) {
      assert.deepEqual(typed.parse({ x }).errors.map((e) => [e.path, e.code]), [["$.x", "non_finite_number"]]);
    }
  });

  test("-0 is 0, as in JSON", () => {
    assert.ok(Object.is(typed.parse({ x: -0 }).arguments.x, 0));
  });
});

describe("objects and strings are carried exactly", () => {
  test("a member whose value is undefined is left out, as JSON.stringify leaves it out", () => {
    assert.deepEqual(any.parse({ a: 1, b: undefined }).arguments, { a: 1 });
  });

  test("what JSON cannot carry is invalid_json at its path", () => {
    const cases = [
      [{ a: [1, undefined] }, "$.a[1]", /undefined/],
      [{ a: new Date(0) }, "$.a", /`Date`/],
      [{ a: new Map() }, "$.a", /`Map`/],
      [{ a: { "odd key": () => 1 } }, "$.a['odd key']", /function/],
      [{ a: Symbol("s") }, "$.a", /symbol/],
      [{ a: new (class Money {})() }, "$.a", /`Money`/],
      [{ a: new Uint8Array(2) }, "$.a", /`Uint8Array`/],
    ];
    for (const [args, path, message] of cases) {
      const result = any.parse(args);
      assert.equal(result.ok, false);
      assert.equal(result.errors.length, 1);
      const [error] = result.errors;
      assert.deepEqual([error.path, error.code], [path, "invalid_json"]);
      // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
      assert.match(error.message, message);
    }
  });

  test("objects without a prototype are plain objects", () => {
    const args = Object.create(null);
    args.a = 1;
    assert.deepEqual(any.parse(args).arguments, { a: 1 });
  });

  test("__proto__, constructor and odd keys come back as own keys, and pollute nothing", () => {
    const result = any.parse('{"__proto__": {"polluted": true}, "constructor": 1, "": 2, "a.b": 3}');
    assert.equal(result.ok, true);
    assert.ok(Object.hasOwn(result.arguments, "__proto__"));
    assert.deepEqual(result.arguments["__proto__"], { polluted: true });
    assert.equal(result.arguments.constructor, 1);
    assert.equal(result.arguments[""], 2);
    assert.equal({}.polluted, undefined);
    assert.equal(Object.getPrototypeOf(result.arguments), Object.prototype);
  });

  test("strings: every code point, escapes and controls as sent", () => {
    const strings = ["", "é", "日本語", "😀", "a\u0000b", "\u2028\u2029", "\t\n\"\\", "\ufeffbom", "\u200b"];
    for (const s of strings) {
      assert.equal(any.parse({ a: s }).arguments.a, s, JSON.stringify(s));
      assert.equal(any.parse(JSON.stringify({ a: s })).arguments.a, s, JSON.stringify(s));
    }
  });

  test("keys keep the order of the object (but for integer-like keys, which JavaScript orders)", () => {
    assert.deepEqual(Object.keys(any.parse('{"b": 1, "a": 2, "c": 3}').arguments), ["b", "a", "c"]);
  });
});

describe("the text into the module and the verdict out", () => {
  // A plain root: members accepted as sent are written from the call's text as read.
  const plain = new Spec({
    type: "object",
    properties: {
      name: { type: "string" },
      n: { type: "integer" },
      tags: { type: "array", items: { type: "string" } },
      flag: { type: "boolean", default: false },
    },
    required: ["name"],
  });
  const calls = [
    ['{"tags": ["a", "b\\"c"], "name": "x"}', { name: "x", tags: ["a", 'b"c'], flag: false }],
    ['{"name": "日本語 😀 \\u00e9", "n": -0}', { name: "日本語 😀 é", n: 0, flag: false }],
    ['{"name": "\\ud83d\\ude00", "n": 9007199254740991}', { name: "😀", n: 9007199254740991, flag: false }],
    ['{"name": "a", "n": 12345678901234567890}', { name: "a", n: 12345678901234567890n, flag: false }],
    ['{"name": "a", "n": "7"}', { name: "a", n: 7, flag: false }],
  ];
  const judged = () =>
    calls.map(([text, expected]) => {
      const result = plain.parse(text);
      // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
      assert.equal(result.ok, true, text);
      // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
      assert.deepEqual(result.arguments, expected, text);
      // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
      assert.ok(Object.is(result.arguments.n, expected.n), text);
      return JSON.stringify(Object.keys(result.arguments));
    });

  test("members come back in declaration order, as sent or repaired, with defaults", () => {
    assert.deepEqual(judged(), [
      '["name","tags","flag"]',
      '["name","n","flag"]',
      '["name","n","flag"]',
      '["name","n","flag"]',
      '["name","n","flag"]',
    ]);
  });

  test("after a call that grows the module's memory, and after one that needs no room, the same verdicts", () => {
    const before = judged();
    // Some megabytes of text, in characters of one to four bytes: the buffer the text is
    // written to grows past what the module kept, and the memory with it.
    const tag = "é日😀x".repeat(200);
    const big = JSON.stringify({ name: "x", tags: Array(2000).fill(tag) });
    const result = plain.parse(big);
    assert.equal(result.ok, true);
    // @ts-expect-error -- a JSON value the test knows the shape of, read without narrowing
    assert.equal(result.arguments.tags.length, 2000);
    // @ts-expect-error -- a JSON value the test knows the shape of, read without narrowing
    assert.ok(result.arguments.tags.every((t) => t === tag));
    assert.deepEqual(judged(), before);
    // A list of 100 000 ASCII strings: a tape of 300 000 words, each item a slice of the text.
    const items = Array.from({ length: 100000 }, (_, i) => `item-${i}`);
    const listed = plain.parse(JSON.stringify({ name: "x", tags: items }));
    assert.equal(listed.ok, true);
    assert.deepEqual(listed.arguments.tags, items);
    assert.equal(plain.parse("{}").errors[0].code, "missing");
    assert.deepEqual(judged(), before);
  });
});

describe("an accepted call's arguments and repairs, made from a tape", () => {
  // Sent as a string of ASCII, an accepted call's arguments come as places in that string
  // (`js/tape.js`); sent as bytes, as values written after the tape; streamed, as JSON text.
  // All three must give the same values, in the same order, with the same repairs.
  const spec = new Spec({
    type: "object",
    properties: {
      s: { type: "string" },
      n: { type: "integer" },
      x: { type: "number" },
      b: { type: "boolean" },
      maybe: { type: ["string", "null"] },
      list: { type: "array", items: { type: ["integer", "string", "boolean", "null"] } },
      flag: { type: "boolean", default: true },
      word: { type: "string", default: "none" },
      count: { type: "integer", default: 3 },
      empty: { type: "array", items: { type: "string" }, default: [] },
    },
  });
  const bytes = (text) => new TextEncoder().encode(text);
  const streamed = (text) => {
    const stream = spec.stream();
    stream.feed(text);
    return stream.finish();
  };
  const calls = [
    '{"s": "plain", "n": -42, "x": 19.99, "b": false, "maybe": null}',
    '{"s": "tab\\tquote\\"slash\\\\u\\u0041", "n": 999999999999999, "x": 1e5}',
    '{"n": 1234567890123456, "x": -0, "list": [1, -2, "three", true, false, null]}',
    '{"n": -0, "x": 0.1, "list": []}',
    '{"n": "7", "b": "false", "s": "\\ud83d\\ude00"}',
    '{"n": "12345678901234567890"}',
    '{"n": 12345678901234567890}',
    '"{\\"s\\": \\"inner\\", \\"n\\": 5}"',
    '```json\n{"s": "fenced", "n": 1}\n```',
    '  {  "list" : [ 1 ,2 ] , "s" : "spaced"  }  ',
  ];

  test("the same from places in an ASCII text, from values after the tape, and from JSON text", () => {
    const international = calls
      .filter((call) => call.startsWith("{"))
      .map((call) => call.replace(/}$/, ', "word": "\u00e9 日本"}'));
    for (const text of [...calls, ...international]) {
      const json = streamed(text);
      assert.equal(json.ok, true, text);
      for (const tape of [spec.parse(text), spec.parse(bytes(text))]) {
        assert.deepEqual(tape.arguments, json.arguments, text);
        assert.deepEqual(Object.keys(tape.arguments), Object.keys(json.arguments), text);
        for (const key of Object.keys(json.arguments)) {
          assert.ok(Object.is(tape.arguments[key], json.arguments[key]) || typeof json.arguments[key] === "object", text);
        }
        assert.deepEqual(tape.repairs, json.repairs, text);
      }
    }
    assert.deepEqual(spec.parse(calls[0]).arguments, {
      s: "plain", n: -42, x: 19.99, b: false, maybe: null,
      flag: true, word: "none", count: 3, empty: [],
    });
    assert.ok(Object.is(spec.parse(calls[3]).arguments.n, 0));
    assert.equal(spec.parse(calls[5]).arguments.n, 12345678901234567890n);
    assert.deepEqual(spec.parse(calls[5]).repairs[0].after, 12345678901234567890n);
  });

  test("each call's lists and defaults are its own", () => {
    const first = spec.parse('{"list": [1]}');
    // @ts-expect-error -- a JSON value the test knows the shape of, read without narrowing
    first.arguments.list.push(2);
    // @ts-expect-error -- a JSON value the test knows the shape of, read without narrowing
    first.arguments.empty.push("x");
    const second = spec.parse('{"list": [1]}');
    assert.deepEqual(second.arguments.list, [1]);
    assert.deepEqual(second.arguments.empty, []);
  });

  test("__proto__ and integer-like names are members, as JSON.parse makes them", () => {
    // As text: in an object literal, `__proto__:` sets the prototype.
    const odd = new Spec(
      '{"type": "object", "properties": {"__proto__": {"type": "string"}, "b": {"type": "integer"}, "2": {"type": "integer"}, "1": {"type": "integer"}}}',
    );
    const text = '{"__proto__": "p", "b": 1, "2": 2, "1": 1}';
    const result = odd.parse(text);
    assert.equal(Object.getPrototypeOf(result.arguments), Object.prototype);
    assert.deepEqual(Object.keys(result.arguments), Object.keys(JSON.parse(text)));
    assert.equal(Object.getOwnPropertyDescriptor(result.arguments, "__proto__").value, "p");
    // In a repair's value too: the object a second encoding held.
    const [repair] = odd.parse(JSON.stringify(text)).repairs;
    assert.equal(repair.rule, "unwrap_double_encoded");
    assert.equal(Object.getPrototypeOf(repair.after), Object.prototype);
    assert.deepEqual(Object.keys(repair.after), Object.keys(JSON.parse(text)));
    assert.equal(Object.getOwnPropertyDescriptor(repair.after, "__proto__").value, "p");
    const numbered = new Spec({ type: "object", properties: { b: { type: "integer" }, 2: { type: "integer" }, 1: { type: "integer" } } });
    assert.deepEqual(Object.keys(numbered.parse('{"b": 1, "2": 2, "1": 1}').arguments), ["1", "2", "b"]);
  });
});
