// `toolargs/ai` with the Vercel AI SDK (`ai`, pinned in package-lock.json): each case is one
// tool call from the SDK's own mock model, through `generateText` and `streamText`.

import assert from "node:assert/strict";
import { test } from "node:test";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import { MockLanguageModelV4, convertArrayToReadableStream } from "ai/test";
import { z } from "zod";
import { Rejected, Session } from "toolargs";
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
    // @ts-expect-error -- a mock of the SDK's model, its results written as plain objects
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt);
      const content = steps[prompts.length - 1];
      const unified = content[0].type === "tool-call" ? "tool-calls" : "stop";
      return { content, finishReason: { unified, raw: unified }, usage, warnings: [] };
    },
    // @ts-expect-error -- a mock of the SDK's model, its results written as plain objects
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

// The refund of the sessions' tests: the amount in cents of the currency beside it, critical.
const RefundInput = z.object({
  order_id: z.string(),
  amount_cents: z.number().int(),
  currency: z.string().regex(/^[A-Z]{3}$/),
});
const AMOUNT = { semantic: "money", currency: "currency", minor_units: true, critical: true };

/** The codes of the gate's errors the model read as the tool's output. */
function told(output) {
  assert.equal(output.type, "error-text", JSON.stringify(output));
  return JSON.parse(output.value).errors.map((e) => e.error);
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
    // @ts-expect-error -- a mock of the SDK's model, its results written as plain objects
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
    // @ts-expect-error -- a JSON value the test knows the shape of, read without narrowing
    assert.equal(error.error.name, "Rejected");
    // @ts-expect-error -- a JSON value the test knows the shape of, read without narrowing
    assert.deepEqual(error.error.errors.map((e) => [e.path, e.code]), [
      ["$.overwrite", "unknown_field"],
    ]);
    const output = toolOutput(prompts);
    assert.equal(output.type, "error-text");
    // @ts-expect-error -- a mock of the SDK's model, its results written as plain objects
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

  test(`${run}: in a session, a refund's corrections that change what it means never reach execute, nor does the same refund twice`, async () => {
    const seen = [];
    const session = new Session();
    const tools = {
      issue_refund: gated(refundTool(seen, RefundInput), {
        session,
        name: "issue_refund",
        effect: "destructive",
        meaning: { amount_cents: AMOUNT },
      }),
    };
    /** One turn of the conversation: the model calls the refund with `input`; what it read. */
    const turn = async (input) => {
      const { model, prompts } = modelCalling("issue_refund", input);
      await call(tools, model);
      return toolOutput(prompts);
    };
    // Dollars where cents go: rejected by the schema.
    assert.deepEqual(told(await turn('{"order_id":"ord_1","amount_cents":"19.99","currency":"USD"}')), [
      "ambiguous_integer",
    ]);
    // Its correction passes the schema, and means a hundred times the refund.
    assert.deepEqual(told(await turn('{"order_id":"ord_1","amount_cents":199900,"currency":"USD"}')), [
      "meaning_changed",
    ]);
    assert.deepEqual(seen, []);
    // The one that means it runs, once.
    const ran = await turn('{"order_id":"ord_1","amount_cents":1999,"currency":"USD"}');
    assert.deepEqual(ran, { type: "json", value: { refunded: true } });
    assert.deepEqual(seen, [{ order_id: "ord_1", amount_cents: 1999, currency: "USD" }]);
    // The same refund again, in another layout: held, not run twice.
    assert.deepEqual(told(await turn('{"currency":"USD","amount_cents":1999.0,"order_id":"ord_1"}')), [
      "duplicate_action",
    ]);
    // Another order: a comma for the decimal point, then a correction in another currency.
    assert.deepEqual(told(await turn('{"order_id":"ord_2","amount_cents":"15,00","currency":"USD"}')), [
      "ambiguous_integer",
    ]);
    assert.ok(told(await turn('{"order_id":"ord_2","amount_cents":1500,"currency":"CAD"}')).includes("meaning_changed"));
    assert.equal(seen.length, 1);
  });

  test(`${run}: in a session, a read-only tool's calls run, the same one twice too`, async () => {
    const seen = [];
    const session = new Session();
    const lookup = gated(refundTool(seen, z.object({ order_id: z.string() })), {
      session,
      name: "lookup",
      effect: "read_only",
      meaning: { order_id: { semantic: "entity", entity: "order" } },
    });
    for (let i = 0; i < 2; i++) {
      const { model, prompts } = modelCalling("lookup", '{"order_id":"ord_1","verbose":true}');
      await call({ lookup }, model);
      assert.deepEqual(toolOutput(prompts), { type: "json", value: { refunded: true } });
    }
    assert.deepEqual(seen, [{ order_id: "ord_1" }, { order_id: "ord_1" }]);
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
  // @ts-expect-error -- a JSON value the test knows the shape of, read without narrowing
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
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  assert.throws(() => gated({}), TypeError);
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  assert.throws(() => gated(original, { effect: "sideways" }), RangeError);
  // In a session: a Session, the tool's name, and an execute to run.
  const session = new Session();
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  assert.throws(() => gated(original, { session: {}, name: "refund" }), /Session/);
  assert.throws(() => gated(original, { session }), (e) => e instanceof TypeError && /name/.test(e.message));
  const client = tool({ inputSchema: z.object({ a: z.number() }) });
  assert.throws(() => gated(client, { session, name: "ask" }), (e) => e instanceof TypeError && /execute/.test(e.message));
  assert.equal(gated(original, { session, name: "refund" }).description, "Refund an order");
});

test("a session shared by two gated tools: each tool's corrections are its own, the cap is the session's", async () => {
  const seen = [];
  const session = new Session({ correctionsPerSession: 1 });
  const options = (name) => ({ session, name, effect: "destructive", meaning: { amount_cents: AMOUNT } });
  const tools = {
    // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
    issue_refund: gated(refundTool(seen, RefundInput), options("issue_refund")),
    // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
    charge: gated(refundTool(seen, RefundInput), options("charge")),
  };
  const turn = async (name, input) => {
    const { model, prompts } = modelCalling(name, input);
    await generateText({ model, tools, prompt: "go", stopWhen: stepCountIs(2) });
    return toolOutput(prompts);
  };
  const dollars = '{"order_id":"ord_1","amount_cents":"19.99","currency":"USD"}';
  const cents = '{"order_id":"ord_1","amount_cents":1999,"currency":"USD"}';
  told(await turn("issue_refund", dollars));
  told(await turn("charge", dollars));
  // The refund's correction is the one the session allows; the charge's is refused.
  assert.equal((await turn("issue_refund", cents)).type, "json");
  assert.deepEqual(told(await turn("charge", cents)), ["retry_budget_exhausted"]);
  assert.equal(seen.length, 1);
});

test("in a session, an execute that throws is not recorded as run, and a streamed one once its last output is read", async () => {
  const session = new Session();
  let fail = true;
  const calls = [];
  const flaky = gated(
    tool({
      inputSchema: RefundInput,
      execute: async (input) => {
        calls.push(input);
        if (fail) throw new Error("the payment provider timed out");
        return "refunded";
      },
    }),
    { session, name: "issue_refund", effect: "destructive", meaning: { amount_cents: AMOUNT } },
  );
  const cents = '{"order_id":"ord_1","amount_cents":1999,"currency":"USD"}';
  let { model, prompts } = modelCalling("issue_refund", cents);
  await generateText({ model, tools: { issue_refund: flaky }, prompt: "go", stopWhen: stepCountIs(2) });
  assert.equal(toolOutput(prompts).type, "error-text");
  fail = false;
  ({ model, prompts } = modelCalling("issue_refund", cents));
  await generateText({ model, tools: { issue_refund: flaky }, prompt: "go", stopWhen: stepCountIs(2) });
  assert.deepEqual(toolOutput(prompts), { type: "text", value: "refunded" });
  assert.equal(calls.length, 2);

  const streamed = [];
  const progress = gated(
    tool({
      inputSchema: RefundInput,
      async *execute(input) {
        streamed.push(input);
        yield "started";
        yield "refunded";
      },
    }),
    { session, name: "refund_in_steps", effect: "destructive", meaning: { amount_cents: AMOUNT } },
  );
  for (let i = 0; i < 2; i++) {
    ({ model, prompts } = modelCalling("refund_in_steps", cents));
    await generateText({ model, tools: { refund_in_steps: progress }, prompt: "go", stopWhen: stepCountIs(2) });
  }
  assert.equal(streamed.length, 1);
  assert.deepEqual(told(toolOutput(prompts)), ["duplicate_action"]);
});

test("onRepair and onReject are told of each call repaired or refused, once, with the tool's name", async () => {
  const told = [];
  const callbacks = {
    onRepair: (result, name) => told.push(["repair", name, result.repairs.map((r) => r.rule)]),
    onReject: (result, name) => told.push(["reject", name, result.errors.map((e) => e.code), result.decision]),
  };
  const schema = z.object({ order_id: z.string(), amount_cents: z.number().int() });
  const seen = [];
  for (const input of [
    '{"order_id": "A1", "amount_cents": "1999"}',
    '{"order_id": "A1", "amount_cents": "19.99"}',
    '{"order_id": "A1", "amount_cents": 5}',
  ]) {
    const { model } = modelCalling("refund", input);
    const tools = { refund: gated(refundTool(seen, schema), { name: "refund", ...callbacks }) };
    await generateText({ model, tools, prompt: "go", stopWhen: stepCountIs(2) });
  }
  assert.deepEqual(told, [
    ["repair", "refund", ["numeric_string_to_int"]],
    ["reject", "refund", ["ambiguous_integer"], undefined],
  ]);
  assert.deepEqual(seen, [{ order_id: "A1", amount_cents: 1999 }, { order_id: "A1", amount_cents: 5 }]);

  // In a session: the gate's rejection is told once, and the correction the session refuses
  // (it changes what the refund means) too, with its decision.
  told.length = 0;
  const session = new Session();
  for (const input of [
    '{"order_id": "A1", "amount_cents": "19.99", "currency": "USD"}',
    '{"order_id": "A1", "amount_cents": 199900, "currency": "USD"}',
  ]) {
    const { model } = modelCalling("issue_refund", input);
    const issue_refund = gated(refundTool(seen, RefundInput), {
      session,
      name: "issue_refund",
      meaning: { amount_cents: AMOUNT },
      ...callbacks,
    });
    await generateText({ model, tools: { issue_refund }, prompt: "go", stopWhen: stepCountIs(2) });
  }
  assert.deepEqual(told, [
    ["reject", "issue_refund", ["ambiguous_integer"], undefined],
    ["reject", "issue_refund", ["meaning_changed"], "reject"],
  ]);
  // A tool without a name is told `null`.
  told.length = 0;
  const { model } = modelCalling("refund", '{"order_id": "A1", "amount_cents": "7"}');
  await generateText({ model, tools: { refund: gated(refundTool(seen, schema), callbacks) }, prompt: "go", stopWhen: stepCountIs(2) });
  assert.deepEqual(told, [["repair", null, ["numeric_string_to_int"]]]);
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  assert.throws(() => gated(refundTool([], schema), { onReject: "count" }), TypeError);
});
