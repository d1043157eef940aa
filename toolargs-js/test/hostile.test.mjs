// Hostile input is a clean rejection: never an exception, never a trap of the WebAssembly
// instance, which goes on judging calls afterwards.

import assert from "node:assert/strict";
import { after, describe, test } from "node:test";

import { Spec } from "toolargs";

const spec = new Spec({
  type: "object",
  properties: { a: {}, s: { type: "string" }, n: { type: "integer" } },
});
const codes = (result) => result.errors.map((e) => `${e.code}@${e.path}`);

function rejected(args, expected) {
  let result;
  assert.doesNotThrow(() => {
    result = spec.parse(args);
  });
  assert.equal(result.ok, false);
  if (expected) assert.deepEqual(codes(result), expected);
  assert.doesNotThrow(() => JSON.parse(result.forModel()));
  return result;
}

after(() => {
  // The instance is whole: a plain call is judged as before.
  assert.deepEqual(spec.parse('{"n": "5"}').arguments, { n: 5 });
});

describe("deep nesting", () => {
  const depth = 10_000;

  test("10 000 levels of arrays or objects as text are too_deep", () => {
    rejected("[".repeat(depth) + "]".repeat(depth), ["too_deep@$"]);
    rejected(`{"a": ${"[".repeat(depth)}${"]".repeat(depth)}}`, ["too_deep@$"]);
    rejected(`{"a": ${'{"b": '.repeat(depth)}1${"}".repeat(depth)}}`, ["too_deep@$"]);
    // Unclosed, as a model cut off mid-call sends it.
    rejected(`{"a": ${"[".repeat(depth)}`);
  });

  test("10 000 levels of a JavaScript value, and a value that holds itself, are too_deep", () => {
    let deep = 1;
    // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
    for (let i = 0; i < depth; i++) deep = i % 2 ? { b: deep } : [deep];
    rejected({ a: deep }, ["too_deep@$"]);
    const cycle = { s: "x" };
    cycle.a = cycle;
    rejected(cycle, ["too_deep@$"]);
    const wide = {};
    for (let i = 0; i < 64; i++) wide[`k${i}`] = wide;
    rejected({ a: wide });
  });

  test("10 000 levels in a stream are rejected early", () => {
    const stream = spec.stream();
    const fed = stream.feed(`{"a": ${"[".repeat(depth)}`);
    assert.equal(fed.rejected, true);
    assert.equal(stream.finish().ok, false);
  });
});

describe("size", () => {
  const ten = "x".repeat(10 * 1024 * 1024);

  test("a 10 MB string is rejected, as text, as a value and as bytes", () => {
    rejected({ s: ten }, ["too_long@$.s"]);
    rejected(`{"s": "${ten}"}`, ["too_long@$.s"]);
    rejected(new TextEncoder().encode(`{"s": "${ten}"}`), ["too_long@$.s"]);
  });

  test("a payload past the limit is too_large, as text and as a value", () => {
    const twenty = `{"s": "${ten}${ten}"}`;
    rejected(twenty, ["too_large@$"]);
    const many = {};
    for (let i = 0; i < 40; i++) many[`k${i}`] = "y".repeat(512 * 1024);
    rejected(many, ["too_large@$"]);
  });

  test("100 MB, as text, as bytes and in one string of a value, is too_large", () => {
    const hundred = `{"s": "${"é".repeat(50 * 1024 * 1024)}"}`;
    const size = 100 * 1024 * 1024 + 9;
    const [error] = rejected(hundred, ["too_large@$"]).errors;
    assert.match(error.message, new RegExp(`the payload is ${size} bytes`));
    assert.deepEqual(rejected(new TextEncoder().encode(hundred), ["too_large@$"]).errors, [error]);
    // A lone surrogate cut from its pair at a piece's end is counted as three bytes, as sent.
    const odd = `{"s": "${"x".repeat((1 << 20) - 8)}\u{1F600}${"\ud800".repeat(20 << 20)}"}`;
    assert.match(rejected(odd, ["too_large@$"]).errors[0].message, /the payload is 63963141 bytes/);
    rejected({ s: hundred }, ["too_large@$"]);
  });

  test("100 000 keys, and a list of a million items, are rejected cleanly", () => {
    const keys = `{${Array.from({ length: 100_000 }, (_, i) => `"k${i}": 1`).join(", ")}}`;
    rejected(keys);
    rejected(`{"a": [${"0,".repeat(1_000_000)}0]}`);
  });

  test("a 10 MB string in a stream is rejected", () => {
    const stream = spec.stream();
    stream.feed('{"s": "');
    for (let i = 0; i < 10; i++) stream.feed(ten.slice(0, 1024 * 1024));
    stream.feed('"}');
    assert.deepEqual(codes(stream.finish()), ["too_long@$.s"]);
  });
});

describe("odd Unicode", () => {
  test("a lone surrogate in the text, raw or escaped, is invalid_json (never U+FFFD)", () => {
    for (const text of ['{"s": "\ud800"}', '{"s": "\udc00x"}', '{"s": "\\ud800"}', '{"s": "\\udfff\\ud800"}']) {
      rejected(text, ["invalid_json@$"]);
    }
    // In a value: written as its escape, rejected the same.
    rejected({ s: "a\ud800b" }, ["invalid_json@$"]);
    rejected({ ["\udc00"]: 1 }, ["invalid_json@$"]);
  });

  test("bytes that are not UTF-8 are invalid_json", () => {
    for (const bytes of [
      [0x7b, 0xc0, 0xaf, 0x7d], // overlong
      [0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d], // an encoded surrogate
      [0x7b, 0xff, 0x7d],
      [0x7b, 0x22, 0xe6, 0x97],
    ]) {
      rejected(Uint8Array.from(bytes), ["invalid_json@$"]);
    }
  });

  test("a byte order mark, NUL and controls in the text are rejected as JSON is", () => {
    rejected('\ufeff{"n": 1}', ["invalid_json@$"]);
    rejected('{"s": "a\u0000b"}', ["invalid_json@$"]);
    rejected('{"s": "a\nb"}', ["invalid_json@$"]);
  });

  test("look-alike keys are not the keys they look like", () => {
    for (const key of ["n\u200b", "\u0578", "ｎ", "n\u0301", "N"]) {
      const result = rejected(JSON.stringify({ [key]: 1 }));
      assert.equal(result.errors[0].code, "unknown_field");
    }
  });

  test("characters of every plane come back as sent", () => {
    const s = "\u0000\u007f\u0080\u07ff\u0800\uffff\u{10000}\u{10ffff}\u202e\u0301";
    assert.equal(spec.parse({ s }).arguments.s, s);
  });
});

describe("values that fight being read", () => {
  test("a throwing getter, a throwing proxy, a revoked proxy: invalid_json, no exception", () => {
    rejected({
      get s() {
        throw new Error("no");
      },
    }, ["invalid_json@$.s"]);
    rejected(new Proxy({}, { ownKeys() { throw new Error("no"); } }), ["invalid_json@$"]);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    rejected({ a: proxy }, ["invalid_json@$.a"]);
  });

  test("an array that claims a huge length stops at the size limit", () => {
    const sparse = [];
    sparse.length = 2 ** 32 - 1;
    rejected({ a: sparse }, ["invalid_json@$.a[0]"]);
    const long = new Array(20_000_000).fill(1);
    rejected({ a: long }, ["too_large@$"]);
  });
});
