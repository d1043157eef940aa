// The README's examples run as written, and each line `expression;  // value` there gives that
// value: the first (```js) as it stands, those of `toolargs/ai` (```js ai), `toolargs/mcp`
// (```js mcp) and `toolargs/agents` (```js agents) with the SDKs' own mock model and client,
// or a model of the test's, in scope.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { MockLanguageModelV4 } from "ai/test";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

/** The block's lines, each `expression;  // value` made a check of that value. */
function checked(block) {
  let count = 0;
  const lines = block.split("\n").map((line) => {
    const match = /^(.*?);\s+\/\/ (.*)$/.exec(line);
    if (!match) return line;
    const [, expression, comment] = match;
    // The comment starts with a value (a JavaScript literal) when it shows one.
    for (let end = comment.length; end > 0; end--) {
      try {
        new Function(`return (${comment.slice(0, end)});`);
      } catch {
        continue;
      }
      if (/^'.*\.\.\..*'$/.test(comment.slice(0, end))) break; // an elided text
      count++;
      return `check(${expression}, (${comment.slice(0, end)}), ${JSON.stringify(line)});`;
    }
    return line;
  });
  return { text: `const check = globalThis.__check;\n${lines.join("\n")}`, count };
}

globalThis.__check = (actual, expected, line) => assert.deepEqual(actual, expected, line);

test("the README's example gives the values its comments show", async () => {
  const block = /```js\n([\s\S]*?)```/.exec(readme)[1];
  const { text, count } = checked(block);
  const entry = new URL("../dist/node.js", import.meta.url).href;
  const module = text.replace('from "toolargs"', `from ${JSON.stringify(entry)}`);
  await import(`data:text/javascript,${encodeURIComponent(module)}`);
  assert.ok(count >= 4, `${count} lines checked`);
});

/** Runs the README's block `js <name>` as a module of the package (where `toolargs/ai`
 * resolves), after `prelude`; returns how many values it checked. */
async function runBlock(name, prelude) {
  const block = new RegExp("```js " + name + "\\n([\\s\\S]*?)```").exec(readme)[1];
  const { text, count } = checked(block);
  const imports = text.split("\n").filter((l) => l.startsWith("import "));
  const rest = text.split("\n").filter((l) => !l.startsWith("import "));
  const dir = mkdtempSync(join(fileURLToPath(new URL(".", import.meta.url)), "readme-"));
  try {
    const file = join(dir, `${name}.mjs`);
    writeFileSync(file, [...imports, prelude, ...rest].join("\n"));
    await import(pathToFileURL(file).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return count;
}

test("the README's lowering example gives the values its comments show", async () => {
  assert.equal(await runBlock("lowering", ""), 3);
});

test("the README's toolargs/ai example gives the values its comments show", async () => {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
  const call = (input) => ({
    content: [{ type: "tool-call", toolCallId: "c", toolName: "refund", input }],
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage,
    warnings: [],
  });
  const done = {
    content: [{ type: "text", text: "done" }],
    finishReason: { unified: "stop", raw: "stop" },
    usage,
    warnings: [],
  };
  const steps = [
    call('{"order_id": "A1", "amount_cents": "1999", "notify": "false"}'),
    done,
    call('{"order_id": "A1", "amount_cents": 1999, "notify": true, "overwrite": true}'),
    done,
  ];
  // @ts-expect-error -- a mock of the SDK's model, its results written as plain objects
  globalThis.__ai = { model: new MockLanguageModelV4({ doGenerate: async () => steps.shift() }) };
  const count = await runBlock("ai", 'const { model } = globalThis.__ai, prompt = "Refund A1";');
  assert.equal(steps.length, 0);
  assert.ok(count >= 3, `${count} lines checked`);
});

test("the README's toolargs/mcp example gives the values its comments show", async () => {
  const count = await runBlock("mcp", "");
  assert.ok(count >= 3, `${count} lines checked`);
});

test("the README's toolargs/agents example gives the values its comments show", async () => {
  const { Usage } = await import("@openai/agents");
  const calls = [
    '{"order_id": "A1", "amount_cents": "1999"}',
    '{"order_id": "A1", "amount_cents": "19.99"}',
  ];
  let turn = 0;
  const model = {
    async getResponse() {
      turn++;
      const output =
        turn % 2 === 1
          ? [{ type: "function_call", callId: `c${turn}`, name: "refund", arguments: calls[(turn - 1) / 2], status: "completed" }]
          : [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "done" }] }];
      return { usage: new Usage(), output, responseId: `r${turn}` };
    },
    async *getStreamedResponse() {
      throw new Error("not streamed here");
    },
  };
  globalThis.__agents = { model };
  const count = await runBlock("agents", "const { model } = globalThis.__agents;");
  assert.equal(turn, 4);
  assert.ok(count >= 2, `${count} lines checked`);
});
