// Spec.fromZod: a zod 4 schema, loaded through zod's own JSON Schema export, judged by the gate
// where zod's coercion would guess.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { z } from "zod";

import { Rejected, Spec } from "toolargs";

const Refund = z
  .object({
    order_id: z.string().regex(/^ord_[A-Za-z0-9]{8}$/),
    amount_cents: z.number().int().min(1).max(50000),
    notify_customer: z.boolean().default(false),
    reason: z.enum(["damaged", "late", "duplicate", "other"]),
    effective_date: z.string().optional(),
  })
  .describe("Refund part of an order.");

describe("Spec.fromZod", () => {
  test("loads a zod 4 object schema, with the effect and unknown options", () => {
    const spec = Spec.fromZod(Refund, { effect: "destructive" });
    assert.equal(spec.effect, "destructive");
    assert.equal(spec.unknown, "reject");
    assert.deepEqual(spec.warnings, []);
    assert.equal(Spec.fromZod(Refund, { effect: "read_only" }).unknown, "strip");
    assert.equal(Spec.fromZod(Refund, { unknown: "strip" }).unknown, "strip");
    assert.equal(Spec.fromZod(Refund).unknown, "reject");
  });

  test('"false" is false to the gate, where z.coerce.boolean() makes it true', () => {
    assert.equal(z.coerce.boolean().parse("false"), true);
    const spec = Spec.fromZod(Refund);
    const result = spec.parse(
      '{"order_id": "ord_A1b2C3d4", "amount_cents": "1999", "notify_customer": "false", "reason": "LATE"}',
    );
    assert.equal(result.ok, true);
    assert.deepEqual(result.arguments, {
      order_id: "ord_A1b2C3d4",
      amount_cents: 1999,
      notify_customer: false,
      reason: "late",
    });
    assert.deepEqual(
      result.repairs.map((r) => r.rule),
      ["numeric_string_to_int", "string_to_bool", "enum_casefold"],
    );
    // What the gate passes, zod accepts as its own.
    assert.deepEqual(Refund.parse(result.arguments), result.arguments);
  });

  test("what zod's coercion would guess is rejected", () => {
    const spec = Spec.fromZod(Refund);
    const result = spec.parse({
      order_id: "ord_A1b2C3d4",
      amount_cents: "19.99",
      notify_customer: "yes",
      reason: "late",
    });
    assert.deepEqual(
      result.errors.map((e) => [e.path, e.code]),
      [
        ["$.amount_cents", "ambiguous_integer"],
        ["$.notify_customer", "ambiguous_boolean"],
      ],
    );
  });

  test("an invented key is stripped for a read-only tool and rejected for a destructive one", () => {
    const call = { order_id: "ord_A1b2C3d4", amount_cents: 5, reason: "late", refund_all: true };
    const read = Spec.fromZod(Refund, { effect: "read_only" }).parse(call);
    assert.equal(read.ok, true);
    assert.equal("refund_all" in read.arguments, false);
    assert.throws(() => Spec.fromZod(Refund, { effect: "destructive" }).validate(call), Rejected);
  });

  test("a defaulted field is optional, as zod's input says", () => {
    const spec = Spec.fromZod(z.object({ page: z.number().int().default(1), q: z.string() }));
    assert.deepEqual(spec.validate('{"q": "x"}'), { q: "x", page: 1 });
  });

  test("nested objects, arrays, unions and nullable fields", () => {
    const Schema = z.object({
      lines: z.array(z.object({ sku: z.string(), qty: z.number().int().positive() })).min(1),
      coupon: z.string().nullable(),
      mode: z.union([z.literal("fast"), z.literal("slow")]),
    });
    const spec = Spec.fromZod(Schema);
    const ok = spec.parse('{"lines": [{"sku": "a", "qty": "2"}], "coupon": null, "mode": "fast"}');
    assert.equal(ok.ok, true);
    assert.deepEqual(ok.arguments, { lines: [{ sku: "a", qty: 2 }], coupon: null, mode: "fast" });
    assert.deepEqual(ok.repairs.map((r) => r.path), ["$.lines[0].qty"]);
    const bad = spec.parse('{"lines": [], "coupon": 5, "mode": "medium"}');
    assert.deepEqual(bad.errors.map((e) => e.path), ["$.lines", "$.coupon", "$.mode"]);
  });

  test("something that is not a zod schema is a TypeError", () => {
    for (const value of [null, {}, { type: "object" }, "z.object()", 42]) {
      assert.throws(() => Spec.fromZod(value), TypeError);
    }
  });
});
