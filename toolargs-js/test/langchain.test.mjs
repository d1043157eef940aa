// `toolargs/langchain` with LangChain.js (`@langchain/core`, pinned in package-lock.json): a tool
// made with its `tool()`, called as agents and `ToolNode` call it (a tool call, answered with a
// `ToolMessage`) and with its arguments alone.

import assert from "node:assert/strict";
import { test } from "node:test";
import { ToolMessage } from "@langchain/core/messages";
import { StructuredTool, tool } from "@langchain/core/tools";
import { z } from "zod";

import { Session } from "toolargs";
import { gatedTool } from "toolargs/langchain";

// LangChain.js 1.x runs on Node.js 20 and later (its `engines`): on 18 it finds no global
// `crypto`, and these tests are skipped there.
const skip = typeof globalThis.crypto === "undefined" ? "@langchain/core 1.x needs Node.js 20 or later" : false;

const Refund = z.object({ order_id: z.string(), amount_cents: z.number().int(), notify: z.boolean() });

/**
 * The refund tool, its function's arguments pushed to `seen`.
 * @param {unknown[]} seen
 * @param {typeof Refund | import("zod").ZodObject<any>} [schema]
 */
function refundTool(seen, schema = Refund) {
  return tool(
    async (input) => {
      seen.push(input);
      return `refunded ${input.amount_cents}`;
    },
    { name: "refund", description: "Refund an order", schema },
  );
}

/** A tool call of the model to the refund tool. */
const call = (args) => ({ type: /** @type {const} */ ("tool_call"), name: "refund", args, id: "call-1" });

test("a repaired call reaches the tool's function repaired, as a tool call and as arguments", { skip }, async () => {
  const seen = [];
  const refund = gatedTool(refundTool(seen), { effect: "destructive" });
  const message = await refund.invoke(call({ order_id: "A1", amount_cents: "1999", notify: "false" }));
  assert.ok(message instanceof ToolMessage);
  assert.equal(message.content, "refunded 1999");
  assert.equal(message.tool_call_id, "call-1");
  assert.equal(await refund.invoke({ order_id: "A1", amount_cents: 5, notify: true }), "refunded 5");
  assert.deepEqual(seen, [
    { order_id: "A1", amount_cents: 1999, notify: false },
    { order_id: "A1", amount_cents: 5, notify: true },
  ]);
});

test("a rejected call never reaches the tool; the model reads the gate's JSON", { skip }, async () => {
  const seen = [];
  const refund = gatedTool(refundTool(seen), { effect: "destructive" });
  const message = await refund.invoke(call({ order_id: "A1", amount_cents: "19.99", notify: true, overwrite: 1 }));
  assert.ok(message instanceof ToolMessage);
  assert.equal(message.status, "error");
  const told = JSON.parse(String(message.content));
  assert.deepEqual(told.errors.map((e) => [e.path, e.error]), [
    ["$.overwrite", "unknown_field"],
    ["$.amount_cents", "ambiguous_integer"],
  ]);
  assert.equal(JSON.parse(String(await refund.invoke({ order_id: "A1" }))).ok, false);
  assert.deepEqual(seen, []);
});

test("ungated, the tool's zod schema refuses the repairable call", { skip }, async () => {
  const seen = [];
  await assert.rejects(refundTool(seen).invoke({ order_id: "A1", amount_cents: "1999", notify: false }));
  assert.deepEqual(seen, []);
});

test("the gated tool is the tool in every other respect", { skip }, () => {
  const original = refundTool([]);
  const refund = gatedTool(original);
  assert.ok(refund instanceof StructuredTool);
  assert.equal(refund.name, "refund");
  assert.equal(refund.description, "Refund an order");
  assert.equal(refund.schema, original.schema);
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  assert.throws(() => gatedTool({}), TypeError);
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  assert.throws(() => gatedTool(original, { effect: "sideways" }), RangeError);
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  assert.throws(() => gatedTool(original, { session: {} }), TypeError);
});

test("a JSON Schema of the tool is the spec too", { skip }, async () => {
  const seen = [];
  const schema = {
    type: "object",
    properties: { n: { type: "integer" } },
    required: ["n"],
    additionalProperties: false,
  };
  const counted = gatedTool(
    tool(
      async (input) => {
        seen.push(input);
        return "ok";
      },
      // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
      { name: "count", description: "Count", schema },
    ),
  );
  assert.equal(await counted.invoke({ n: "5" }), "ok");
  assert.deepEqual(seen, [{ n: 5 }]);
});

test("in a session, a correction that changes what the refund means never reaches the tool; onRepair and onReject are told", { skip }, async () => {
  const seen = [];
  const told = [];
  const session = new Session();
  const schema = z.object({ order_id: z.string(), amount_cents: z.number().int(), currency: z.string() });
  const refund = gatedTool(refundTool(seen, schema), {
    session,
    meaning: { amount_cents: { semantic: "money", currency: "currency", minor_units: true, critical: true } },
    onRepair: (result, name) => told.push(["repair", name, result.repairs.map((r) => r.rule)]),
    onReject: (result, name) => told.push(["reject", name, result.errors.map((e) => e.code)]),
  });
  const first = await refund.invoke(call({ order_id: "A1", amount_cents: "19.99", currency: "USD" }));
  assert.equal(first.status, "error");
  const second = await refund.invoke(call({ order_id: "A1", amount_cents: 199900, currency: "USD" }));
  assert.equal(second.status, "error");
  assert.match(String(second.content), /meaning_changed/);
  const third = await refund.invoke(call({ order_id: "A1", amount_cents: "1999", currency: "USD" }));
  assert.equal(third.content, "refunded 1999");
  assert.deepEqual(seen, [{ order_id: "A1", amount_cents: 1999, currency: "USD" }]);
  assert.deepEqual(told, [
    ["reject", "refund", ["ambiguous_integer"]],
    ["reject", "refund", ["meaning_changed"]],
    ["repair", "refund", ["numeric_string_to_int"]],
  ]);
});
