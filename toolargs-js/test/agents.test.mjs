// `toolargs/agents` with the OpenAI Agents SDK for JavaScript (`@openai/agents`, pinned in
// package-lock.json): an agent run by the SDK's `Runner` with a model that calls one tool,
// then answers.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Agent, RunContext, Usage, run, tool } from "@openai/agents";
import { z } from "zod";
import { Session } from "toolargs";
import { gatedTool } from "toolargs/agents";

/** A model that calls `name` with `input` (JSON text), then answers "done"; `requests` holds
 * what it was sent each time. */
function modelCalling(name, input) {
  const requests = [];
  return {
    requests,
    async getResponse(request) {
      requests.push(request);
      const output =
        requests.length === 1
          ? [{ type: "function_call", callId: "call-1", name, arguments: input, status: "completed" }]
          : [
              {
                type: "message",
                role: "assistant",
                status: "completed",
                content: [{ type: "output_text", text: "done" }],
              },
            ];
      return { usage: new Usage(), output, responseId: `r${requests.length}` };
    },
    async *getStreamedResponse() {
      throw new Error("not streamed here");
    },
  };
}

/** What the model read as the tool's output on its second turn. */
function toolOutput(requests) {
  const input = requests[1].input;
  const item = input.find((i) => i.type === "function_call_result");
  return item.output.text ?? item.output;
}

const Refund = z.object({ order_id: z.string(), amount_cents: z.number().int(), notify: z.boolean() });

function refund(seen, options) {
  return gatedTool(
    tool,
    {
      name: "refund",
      description: "Refund an order",
      parameters: Refund,
      execute: async (input) => {
        seen.push(input);
        return "refunded";
      },
    },
    options,
  );
}

test("a repaired call reaches execute repaired", async () => {
  const seen = [];
  const model = modelCalling("refund", '{"order_id": "A1", "amount_cents": "1999", "notify": "false"}');
  // @ts-expect-error -- a mock of the SDK's model, its results written as plain objects
  const agent = new Agent({ name: "shop", model, tools: [refund(seen)] });
  const result = await run(agent, "Refund A1");
  assert.equal(result.finalOutput, "done");
  assert.deepEqual(seen, [{ order_id: "A1", amount_cents: 1999, notify: false }]);
  assert.equal(toolOutput(model.requests), "refunded");
});

test("a rejected call never reaches execute; the model reads the gate's JSON", async () => {
  const seen = [];
  const model = modelCalling("refund", '{"order_id": "A1", "amount_cents": "19.99", "notify": true}');
  // @ts-expect-error -- a mock of the SDK's model, its results written as plain objects
  const agent = new Agent({ name: "shop", model, tools: [refund(seen, { effect: "destructive" })] });
  await run(agent, "Refund A1");
  assert.deepEqual(seen, []);
  const told = JSON.parse(toolOutput(model.requests));
  assert.equal(told.ok, false);
  assert.deepEqual(told.errors.map((e) => [e.path, e.error]), [["$.amount_cents", "ambiguous_integer"]]);
});

test("ungated, the SDK's zod parsing refuses the repairable call", async () => {
  const seen = [];
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  const plain = tool({
    name: "refund",
    parameters: Refund,
    execute: async (input) => seen.push(input),
  });
  const output = await plain.invoke(new RunContext(), '{"order_id": "A1", "amount_cents": "1999", "notify": "false"}');
  assert.deepEqual(seen, []);
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  assert.match(output, /error/i);
  // The schema sent to the model is the SDK's, as without the gate.
  assert.deepEqual(refund([]).parameters, plain.parameters);
});

test("gatedTool refuses what is not the SDK's tool function and options", () => {
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  assert.throws(() => gatedTool({}, {}), TypeError);
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  assert.throws(() => gatedTool(tool, { name: "x", parameters: Refund, execute: () => 1 }, { effect: "x" }), RangeError);
});

const RefundInput = z.object({
  order_id: z.string(),
  amount_cents: z.number().int(),
  currency: z.string().regex(/^[A-Z]{3}$/),
});
const AMOUNT = { semantic: "money", currency: "currency", minor_units: true, critical: true };

/** One turn of a conversation: an agent with `tools` whose model calls `name` with `input`;
 * what the model read as the tool's output. */
async function turn(tools, name, input) {
  const model = modelCalling(name, input);
  // @ts-expect-error -- a mock of the SDK's model, its results written as plain objects
  await run(new Agent({ name: "shop", model, tools }), "go");
  return toolOutput(model.requests);
}

/** The codes of the gate's errors in an output. */
const told = (output) => JSON.parse(output).errors.map((e) => e.error);

test("in a session, a refund's corrections that change what it means never reach execute, nor does the same refund twice", async () => {
  const seen = [];
  const session = new Session();
  const refund = gatedTool(
    tool,
    {
      name: "issue_refund",
      description: "Refund an order",
      parameters: RefundInput,
      execute: async (input) => {
        seen.push(input);
        return "refunded";
      },
    },
    { session, effect: "destructive", meaning: { amount_cents: AMOUNT } },
  );
  const tools = [refund];
  assert.deepEqual(told(await turn(tools, "issue_refund", '{"order_id":"ord_1","amount_cents":"19.99","currency":"USD"}')), [
    "ambiguous_integer",
  ]);
  assert.deepEqual(told(await turn(tools, "issue_refund", '{"order_id":"ord_1","amount_cents":199900,"currency":"USD"}')), [
    "meaning_changed",
  ]);
  assert.deepEqual(seen, []);
  assert.equal(await turn(tools, "issue_refund", '{"order_id":"ord_1","amount_cents":1999,"currency":"USD"}'), "refunded");
  assert.deepEqual(seen, [{ order_id: "ord_1", amount_cents: 1999, currency: "USD" }]);
  assert.deepEqual(told(await turn(tools, "issue_refund", '{"order_id":"ord_1","amount_cents":"1999","currency":"USD"}')), [
    "duplicate_action",
  ]);
  assert.deepEqual(told(await turn(tools, "issue_refund", '{"order_id":"ord_2","amount_cents":"15,00","currency":"USD"}')), [
    "ambiguous_integer",
  ]);
  const cad = told(await turn(tools, "issue_refund", '{"order_id":"ord_2","amount_cents":1500,"currency":"CAD"}'));
  assert.ok(cad.includes("meaning_changed"), JSON.stringify(cad));
  assert.equal(seen.length, 1);
});

test("in a session, a read-only tool's calls run, the same one twice too; an execute that throws has not run", async () => {
  const session = new Session();
  const seen = [];
  const lookup = gatedTool(
    tool,
    // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
    {
      name: "lookup",
      parameters: z.object({ order_id: z.string() }),
      execute: async (input) => {
        seen.push(input);
        return "found";
      },
    },
    { session, effect: "read_only", meaning: { order_id: { semantic: "entity", entity: "order" } } },
  );
  for (let i = 0; i < 2; i++) assert.equal(await turn([lookup], "lookup", '{"order_id":"ord_1"}'), "found");
  assert.deepEqual(seen, [{ order_id: "ord_1" }, { order_id: "ord_1" }]);

  let calls = 0;
  // Named by its function, as the SDK names it.
  const flaky = gatedTool(
    tool,
    // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
    {
      parameters: RefundInput,
      execute: async function issue_refund() {
        calls += 1;
        if (calls === 1) throw new Error("the payment provider timed out");
        return "refunded";
      },
    },
    { session, effect: "destructive", meaning: { amount_cents: AMOUNT } },
  );
  assert.equal(flaky.name, "issue_refund");
  const cents = '{"order_id":"ord_1","amount_cents":1999,"currency":"USD"}';
  assert.match(await turn([flaky], "issue_refund", cents), /error/i);
  assert.equal(await turn([flaky], "issue_refund", cents), "refunded");
  assert.deepEqual(told(await turn([flaky], "issue_refund", cents)), ["duplicate_action"]);
  assert.equal(calls, 2);
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  assert.throws(() => gatedTool(tool, { name: "x", parameters: RefundInput, execute: () => 1 }, { session: {} }), TypeError);
});

test("onRepair and onReject are told of each call repaired or refused, with the tool's name", async () => {
  const told = [];
  const seen = [];
  const made = refund(seen, {
    onRepair: (result, name) => told.push(["repair", name, result.repairs.map((r) => r.rule)]),
    onReject: (result, name) => told.push(["reject", name, result.errors.map((e) => e.code)]),
  });
  await made.invoke(new RunContext(), '{"order_id": "A1", "amount_cents": "1999", "notify": false}');
  await made.invoke(new RunContext(), '{"order_id": "A1", "amount_cents": "19.99", "notify": false}');
  await made.invoke(new RunContext(), '{"order_id": "A1", "amount_cents": 5, "notify": false}');
  assert.deepEqual(told, [
    ["repair", "refund", ["numeric_string_to_int"]],
    ["reject", "refund", ["ambiguous_integer"]],
  ]);
  assert.equal(seen.length, 2);
  assert.throws(() => refund([], { onReject: "count" }), TypeError);
});
