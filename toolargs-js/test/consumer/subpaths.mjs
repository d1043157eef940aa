// Run by tests/npm.rs beside check.mjs, under Node.js, Deno and Bun: the package's entries for
// the frameworks import by their names (`toolargs/ai` with the AI SDK installed here,
// `toolargs/mcp`, `toolargs/agents`) and judge calls over the same module. (Under Deno, the AI
// SDK asks for more than the package: the environment and the host's name.)
import assert from "node:assert/strict";

import { jsonSchema, tool } from "ai";
import { gatedTool } from "toolargs/agents";
import { gated, repairToolCall } from "toolargs/ai";
import { gateServer } from "toolargs/mcp";

const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"], additionalProperties: false };
const aiTool = gated(tool({ inputSchema: jsonSchema(schema), execute: async (input) => input }));
assert.deepEqual(await aiTool.inputSchema.validate({ n: "5" }), { success: true, value: { n: 5 } });
assert.equal(typeof repairToolCall(), "function");
assert.throws(() => gateServer({}), TypeError);
const agentsTool = gatedTool((options) => ({ name: options.name, invoke: async (_, input) => `ran ${input}` }), {
  name: "t",
  parameters: schema,
});
assert.equal(await agentsTool.invoke({}, '{"n": "5"}'), 'ran {"n":5}');
assert.equal(JSON.parse(await agentsTool.invoke({}, '{"n": 1.5}')).errors[0].error, "lossy_number");

const runtime = typeof Deno !== "undefined" ? "Deno" : typeof Bun !== "undefined" ? "Bun" : "Node.js";
console.log(`${runtime}: imported ${["ai", "mcp", "agents"].map((s) => import.meta.resolve(`toolargs/${s}`)).join(", ")}`);
