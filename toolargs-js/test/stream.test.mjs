// A stream's verdict is parse's on the whole text, however the text is cut: one byte at a
// time, one UTF-16 unit at a time (a surrogate pair split between pieces), or in one piece.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Spec } from "toolargs";

const schema = {
  type: "object",
  properties: {
    order_id: { type: "string", pattern: "^ord_[A-Za-z0-9]{8}$" },
    amount_cents: { type: "integer", minimum: 1, maximum: 50000 },
    notify: { type: "boolean", default: false },
    reason: { enum: ["damaged", "late", "duplicate", "other"] },
    tags: { type: "array", items: { type: "string" } },
    note: { type: "string" },
    big: { type: "integer" },
  },
  required: ["order_id", "amount_cents"],
};

const TEXTS = [
  '{"order_id": "ord_A1b2C3d4", "amount_cents": 1999}',
  '{"order_id": "ord_A1b2C3d4", "amount_cents": "1999", "notify": "FALSE", "reason": "Late", "tags": "vip"}',
  '{"order_id": "ord_A1b2C3d4", "amount_cents": 1999, "note": "日本語 😀 é", "big": 12345678901234567890}',
  '{"order_id": "ord_A1b2C3d4", "amount_cents": 1999, "invented": true}',
  '{"order_id": "ord_A1b2C3d4", "amount_cents": 1999, "amount_cents": 5}',
  '{"order_id": "bad", "amount_cents": "19.99", "reason": "soon"}',
  '```json\n{"order_id": "ord_A1b2C3d4", "amount_cents": 1}\n```',
  JSON.stringify('{"order_id": "ord_A1b2C3d4", "amount_cents": 1}'),
  '{"order_id": "ord_A1b2C3d4", "amount_cents": 1999',
  '{"order_id": "ord_A1b2C3d4", "amount_cents": 1999} trailing',
  '{"note": "\\ud83d\\ude00", "order_id": "ord_A1b2C3d4", "amount_cents": 1}',
  '{"note": "\ud800", "order_id": "ord_A1b2C3d4", "amount_cents": 1}',
  "[]",
  "",
  "   ",
  "null",
  '{"amount_cents": NaN}',
];

const specs = {
  destructive: new Spec(schema, { effect: "destructive" }),
  read_only: new Spec(schema, { effect: "read_only" }),
};

function streamed(spec, pieces) {
  const stream = spec.stream();
  let early = null;
  for (const [i, piece] of pieces.entries()) {
    const fed = stream.feed(piece);
    assert.equal(typeof fed.rejected, "boolean");
    assert.ok(Array.isArray(fed.errors));
    if (fed.rejected && early === null) early = i;
    // Once rejected, rejected for good.
    if (early !== null) assert.equal(fed.rejected, true);
    assert.equal(typeof stream.partial(), "object");
  }
  return { early, result: stream.finish() };
}

const bytesOf = (text) => [...new TextEncoder().encode(text)].map((b) => Uint8Array.of(b));
const unitsOf = (text) => Array.from({ length: text.length }, (_, i) => text[i]);

describe("streamed in pieces, the verdict is parse's", () => {
  for (const [name, spec] of Object.entries(specs)) {
    test(`${name}: one byte at a time, one UTF-16 unit at a time, and whole`, () => {
      for (const text of TEXTS) {
        const whole = spec.parse(text);
        const bytes = text.includes("\ud800") ? [] : [bytesOf(text)];
        for (const pieces of [...bytes, unitsOf(text), [text]]) {
          const { early, result } = streamed(spec, pieces);
          assert.deepEqual(result.toJSON(), whole.toJSON(), `${text} in ${pieces.length} pieces`);
          assert.equal(result.forModel(), whole.forModel());
          // An early rejection is never wrong.
          if (early !== null) assert.equal(whole.ok, false, text);
        }
      }
    });
  }

  test("a rejection comes as soon as no continuation can be accepted", () => {
    const text = '{"amount_cents": 0, "order_id": "ord_A1b2C3d4"}';
    const { early, result } = streamed(specs.destructive, unitsOf(text));
    assert.equal(early, text.indexOf(","));
    assert.deepEqual(result.errors.map((e) => e.code), ["out_of_range"]);
  });

  test("partial holds the members complete and accepted, repaired", () => {
    const stream = specs.read_only.stream();
    stream.feed('{"amount_cents": "5", "invented": 1, "big": 12345678901234567890, "no');
    assert.deepEqual(stream.partial(), { amount_cents: 5, big: 12345678901234567890n });
    stream.feed('te": "x"}');
    assert.equal(stream.received, 78);
    assert.deepEqual(stream.finish().errors.map((e) => [e.path, e.code]), [["$.order_id", "missing"]]);
  });

  test("a piece that is neither text nor bytes is a TypeError", () => {
    const stream = specs.destructive.stream();
    // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
    assert.throws(() => stream.feed(42), TypeError);
    assert.equal(stream.feed(`{"order_id": `).rejected, false);
  });
});
