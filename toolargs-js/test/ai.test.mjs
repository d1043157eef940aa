// `toolargs/ai` with the Vercel AI SDK (`ai`, pinned in package-lock.json): each case is one
// tool call from the SDK's own mock model, through `generateText` and `streamText`.

import assert from "node:assert/strict";
import { test } from "node:test";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import { MockLanguageModelV4, convertArrayToReadableStream } from "ai/test";
import { z } from "zod";
import { Rejected } from "toolargs";
import { gated, repairToolCall } from "toolargs/ai";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that calls `toolName` with `input` (JSON text), then answers "done"; `prompts`
 * holds what it was sent each time. */
function modelCalling(toolName, input) {
  const prompts = [];
  const steps = [
    [{ type: "tool-call", toolCallId: "call-1", toolName, input }],
    [{ type: "text", text: "done" }],
  ];
  const model = new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt);
      const content = steps[prompts.length - 1];
      const unified = content[0].type === "tool-call" ? "tool-calls" : "stop";
      return { content, finishReason: { unified, raw: unified }, usage, warnings: [] };
    },
    doStream: async ({ prompt }) => {
      prompts.push(prompt);
      const content = steps[prompts.length - 1];
      const unified = content[0].type === "tool-call" ? "tool-calls" : "stop";
      const parts = content[0].type === "tool-call"
        ? [content[0]]
        : [
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: content[0].text },
            { type: "text-end", id: "t" },
          ];
      return {
        stream: convertArrayToReadableStream([
          { type: "stream-start", warnings: [] },
          ...parts,
          { type: "finish", finishReason: { unified, raw: unified }, usage },
        ]),
      };
    },
  });
  return { model, prompts };
}

/** What the model read about the tool call on its next turn. */
function toolOutput(prompts) {
  const message = prompts[1].find((m) => m.role === "tool");
  return message.content.find((p) => p.type === "tool-result").output;
}

function refundTool(seen, schema) {
  return tool({
    description: "Refund an order",
    inputSchema: schema,
    execute: async (input) => {
      seen.push(input);
      return { refunded: true };
    },
  });
}

for (const run of ["generateText", "streamText"]) {
  const call = async (tools, model, extra = {}) => {
    if (run === "generateText") {
      return generateText({ model, tools, prompt: "go", stopWhen: stepCountIs(2), ...extra });
    }
    const result = streamText({ model, tools, prompt: "go", stopWhen: stepCountIs(2), ...extra });
    await result.consumeStream();
    return { steps: await result.steps, text: await result.text };
  };

  test(`${run}: "1999" for z.number().int() reaches execute as 1999`, async () => {
    const seen = [];
    const schema = z.object({ order_id: z.string(), amount_cents: z.number().int() });
    const { model, prompts } = modelCalling(
      "refund",
      '{"order_id": "A1", "amount_cents": "1999"}',
    );
    const result = await call({ refund: gated(refundTool(seen, schema)) }, model);
    assert.deepEqual(seen, [{ order_id: "A1", amount_cents: 1999 }]);
    assert.equal(result.text, "done");
    assert.deepEqual(toolOutput(prompts), { type: "json", value: { refunded: true } });
    // The tool as the model is told of it: the JSON Schema of the zod schema, as without the gate.
    const sent = prompts[0] && model.doGenerateCalls.concat(model.doStreamCalls)[0].tools[0];
    assert.equal(sent.inputSchema.properties.amount_cents.type, "integer");

    // Ungated, zod rejects the call: execute is never called, the model is told zod's error.
    const ungated = [];
    const again = modelCalling("refund", '{"order_id": "A1", "amount_cents": "1999"}');
    await call({ refund: refundTool(ungated, schema) }, again.model);
    assert.deepEqual(ungated, []);
    assert.equal(toolOutput(again.prompts).type, "error-text");
  });

  test(`${run}: "false" for z.boolean() reaches execute as false, where z.coerce.boolean() gives true`, async () => {
    const seen = [];
    const make = (schema) =>
      tool({
        inputSchema: z.object({ notify: schema }),
        execute: async (input) => {
          seen.push(input.notify);
          return "sent";
        },
      });
    let { model } = modelCalling("notify", '{"notify": "false"}');
    await call({ notify: gated(make(z.boolean())) }, model);
    ({ model } = modelCalling("notify", '{"notify": "false"}'));
    await call({ notify: make(z.coerce.boolean()) }, model);
    assert.deepEqual(seen, [false, true]);
  });

  test(`${run}: an invented key on a destructive tool is rejected, execute never runs, the model reads the gate's errors`, async () => {
    const seen = [];
    const schema = z.object({ order_id: z.string(), amount_cents: z.number().int() });
    const { model, prompts } = modelCalling(
      "refund",
      '{"order_id": "A1", "amount_cents": 1999, "overwrite": true}',
    );
    const result = await call(
      { refund: gated(refundTool(seen, schema), { effect: "destructive" }) },
      model,
    );
    assert.deepEqual(seen, []);
    const error = result.steps[0].content.find((p) => p.type === "tool-error");
    assert.equal(error.error.name, "Rejected");
    assert.deepEqual(error.error.errors.map((e) => [e.path, e.code]), [
      ["$.overwrite", "unknown_field"],
    ]);
    const output = toolOutput(prompts);
    assert.equal(output.type, "error-text");
    assert.equal(output.value, error.error.forModel());
    const told = JSON.parse(output.value);
    assert.equal(told.ok, false);
    assert.equal(told.errors[0].error, "unknown_field");
    assert.ok(error.error instanceof Rejected);
  });

  test(`${run}: 12345678901234567890 for an integer: the SDK decodes it to a double before any tool sees it`, async () => {
    const seen = [];
    const schema = jsonSchema({
      type: "object",
      properties: { id: { type: "integer" } },
      required: ["id"],
      additionalProperties: false,
    });
    const { model } = modelCalling("lookup", '{"id": 12345678901234567890}');
    await call({ lookup: gated(refundTool(seen, schema)) }, model);
    // The SDK's JSON.parse holds the nearest double, 12345678901234567168; the gate passes on
    // that value exactly, as a BigInt (a number cannot hold it), not the digits the model sent.
    assert.deepEqual(seen, [{ id: 12345678901234567168n }]);
  });

  test(`${run}: repairToolCall repairs an ungated tool's call locally, without a second model call`, async () => {
    const seen = [];
    const schema = z.object({ amount_cents: z.number().int(), notify: z.boolean() });
    const { model, prompts } = modelCalling("refund", '{"amount_cents": "1999", "notify": "false"}');
    await call({ refund: refundTool(seen, schema) }, model, {
      experimental_repairToolCall: repairToolCall(),
    });
    assert.deepEqual(seen, [{ amount_cents: 1999, notify: false }]);
    assert.equal(prompts.length, 2);

    // A call with two readings is not repaired: the SDK reports the tool's own error.
    const again = modelCalling("refund", '{"amount_cents": "19.99", "notify": false}');
    await call({ refund: refundTool(seen, schema) }, again.model, {
      experimental_repairToolCall: repairToolCall(),
    });
    assert.equal(seen.length, 1);
    assert.equal(toolOutput(again.prompts).type, "error-text");
  });
}

test("input refined after validation (experimental_refineToolInput) is judged again before execute", async () => {
  const seen = [];
  const schema = z.object({ order_id: z.string(), amount_cents: z.number().int() });
  let { model } = modelCalling("refund", '{"order_id": "A1", "amount_cents": 1999}');
  await generateText({
    model,
    tools: { refund: gated(refundTool(seen, schema)) },
    prompt: "go",
    stopWhen: stepCountIs(2),
    experimental_refineToolInput: { refund: (input) => ({ ...input, amount_cents: "2500" }) },
  });
  assert.deepEqual(seen, [{ order_id: "A1", amount_cents: 2500 }]);
  ({ model } = modelCalling("refund", '{"order_id": "A1", "amount_cents": 1999}'));
  const result = await generateText({
    model,
    tools: { refund: gated(refundTool(seen, schema)) },
    prompt: "go",
    stopWhen: stepCountIs(2),
    experimental_refineToolInput: { refund: (input) => ({ ...input, amount_cents: "25.5" }) },
  });
  assert.equal(seen.length, 1);
  assert.equal(result.steps[0].content.find((p) => p.type === "tool-error").error.name, "Rejected");
});

test("a tool without execute (run by the client): a rejected call is the SDK's invalid tool call", async () => {
  const schema = z.object({ amount_cents: z.number().int() });
  let { model } = modelCalling("ask", '{"amount_cents": "1999"}');
  const ask = gated(tool({ inputSchema: schema }));
  let result = await generateText({ model, tools: { ask }, prompt: "go" });
  assert.deepEqual(result.toolCalls[0].input, { amount_cents: 1999 });
  ({ model } = modelCalling("ask", '{"amount_cents": "19.99"}'));
  result = await generateText({ model, tools: { ask }, prompt: "go" });
  const call = result.steps[0].content.find((p) => p.type === "tool-call");
  assert.equal(call.invalid, true);
  assert.match(String(call.error), /ambiguous_integer/);
});

test("gated keeps the tool's other members and refuses what is not a tool", () => {
  const original = tool({
    description: "Refund an order",
    inputSchema: z.object({ amount_cents: z.number() }),
    execute: async () => 1,
  });
  const wrapped = gated(original);
  assert.equal(wrapped.description, "Refund an order");
  assert.notEqual(wrapped.inputSchema, original.inputSchema);
  assert.throws(() => gated({}), TypeError);
  assert.throws(() => gated(original, { effect: "sideways" }), RangeError);
});
