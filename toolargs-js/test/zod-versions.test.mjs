// Spec.fromZod with every zod the peer range admits (`^3.25.0 || ^4.0.0`): zod 4.0 and 4.1,
// whose schemas have no JSON Schema export of their own, and zod 3.25's `zod/v4`, each
// installed under an alias (package.json), give the verdicts of the zod 4.6 the suite pins,
// through zod's `toJSONSchema` given (`{ toJSONSchema: z.toJSONSchema }`) or found by the
// package (`zod/v4/core`, from where the package is installed); a zod 3 schema is refused.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { z as z325 } from "zod-3-25";
import { z as z325v4 } from "zod-3-25/v4";
import { z as z40 } from "zod-4-0";
import { z as z41 } from "zod-4-1";
import { z as z46 } from "zod";

import { Spec } from "toolargs";

/** The refund tool's schema, written with `z`. */
const refund = (z) =>
  z.object({
    order_id: z.string().regex(/^ord_[A-Za-z0-9]{8}$/),
    amount_cents: z.number().int().min(1).max(50000),
    notify_customer: z.boolean().default(false),
    reason: z.enum(["damaged", "late", "duplicate", "other"]),
  });

const CALLS = [
  '{"order_id": "ord_AAAABBBB", "amount_cents": "1999", "reason": "DAMAGED"}',
  '{"order_id": "ord_AAAABBBB", "amount_cents": 19.99, "reason": "late"}',
  '{"order_id": "ord_AAAABBBB", "amount_cents": 1999, "reason": "late", "note": "x"}',
  '{"order_id": "nope", "amount_cents": 0}',
];

const verdicts = (spec) => CALLS.map((call) => JSON.stringify(spec.parse(call)));
const expected = verdicts(Spec.fromZod(refund(z46), { effect: "destructive" }));

describe("Spec.fromZod with each zod of the peer range", () => {
  for (const { version, z } of [
    { version: "4.0.17", z: z40 },
    { version: "4.1.13", z: z41 },
    { version: "3.25.76 (zod/v4)", z: z325v4 },
  ]) {
    test(`zod ${version}: its schemas have no JSON Schema export of their own, yet the verdicts are 4.6's`, () => {
      const schema = refund(z);
      assert.equal(typeof schema.toJSONSchema, "undefined");
      assert.deepEqual(verdicts(Spec.fromZod(schema, { effect: "destructive" })), expected);
      assert.deepEqual(
        verdicts(Spec.fromZod(schema, { effect: "destructive", toJSONSchema: z.toJSONSchema })),
        expected,
      );
      const spec = Spec.fromZod(schema, { toJSONSchema: z.toJSONSchema });
      assert.deepEqual(spec.parse('{"order_id": "ord_AAAABBBB", "amount_cents": "1999", "reason": "late"}').arguments, {
        order_id: "ord_AAAABBBB",
        amount_cents: 1999,
        notify_customer: false,
        reason: "late",
      });
    });
  }

  test("zod 3 schemas (3.25's own API) are refused, naming zod/v4", () => {
    assert.throws(() => Spec.fromZod(refund(z325)), { name: "TypeError", message: /zod\/v4/ });
  });

  test("the toJSONSchema given is used when the schema has none", () => {
    let called = 0;
    const toJSONSchema = (schema, params) => {
      called += 1;
      return z40.toJSONSchema(schema, params);
    };
    Spec.fromZod(refund(z40), { toJSONSchema });
    assert.equal(called, 1);
    // A schema with an export of its own uses it.
    Spec.fromZod(refund(z46), { toJSONSchema });
    assert.equal(called, 1);
  });
});
