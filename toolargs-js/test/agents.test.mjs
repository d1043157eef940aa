// `toolargs/agents` with the OpenAI Agents SDK for JavaScript (`@openai/agents`, pinned in
// package-lock.json): an agent run by the SDK's `Runner` with a model that calls one tool,
// then answers.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Agent, RunContext, Usage, run, tool } from "@openai/agents";
import { z } from "zod";
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
  const agent = new Agent({ name: "shop", model, tools: [refund(seen)] });
  const result = await run(agent, "Refund A1");
  assert.equal(result.finalOutput, "done");
  assert.deepEqual(seen, [{ order_id: "A1", amount_cents: 1999, notify: false }]);
  assert.equal(toolOutput(model.requests), "refunded");
});

test("a rejected call never reaches execute; the model reads the gate's JSON", async () => {
  const seen = [];
  const model = modelCalling("refund", '{"order_id": "A1", "amount_cents": "19.99", "notify": true}');
  const agent = new Agent({ name: "shop", model, tools: [refund(seen, { effect: "destructive" })] });
  await run(agent, "Refund A1");
  assert.deepEqual(seen, []);
  const told = JSON.parse(toolOutput(model.requests));
  assert.equal(told.ok, false);
  assert.deepEqual(told.errors.map((e) => [e.path, e.error]), [["$.amount_cents", "ambiguous_integer"]]);
});

test("ungated, the SDK's zod parsing refuses the repairable call", async () => {
  const seen = [];
  const plain = tool({
    name: "refund",
    parameters: Refund,
    execute: async (input) => seen.push(input),
  });
  const output = await plain.invoke(new RunContext(), '{"order_id": "A1", "amount_cents": "1999", "notify": "false"}');
  assert.deepEqual(seen, []);
  assert.match(output, /error/i);
  // The schema sent to the model is the SDK's, as without the gate.
  assert.deepEqual(refund([]).parameters, plain.parameters);
});

test("gatedTool refuses what is not the SDK's tool function and options", () => {
  assert.throws(() => gatedTool({}, {}), TypeError);
  assert.throws(() => gatedTool(tool, { name: "x", parameters: Refund, execute: () => 1 }, { effect: "x" }), RangeError);
});
