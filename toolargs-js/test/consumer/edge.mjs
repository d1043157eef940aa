// Run by tests/npm.rs under Node.js with `--conditions=edge-light`, as Vercel's bundler resolves
// the package for its Edge runtime: the `edge-light` entry imports the WebAssembly module as a
// module (`…_bg.wasm?module`), which `wasm-module.mjs` gives here as that bundler does: a
// `WebAssembly.Module` compiled ahead of the run.
import assert from "node:assert/strict";

import { Spec } from "toolargs";
import { gatedTool } from "toolargs/agents";

const spec = new Spec({ type: "object", properties: { n: { type: "integer" } } });
const result = spec.parse('{"n": "12345678901234567890"}');
assert.deepEqual(result.arguments, { n: 12345678901234567890n });
const made = gatedTool((_options) => ({ invoke: async (_, input) => input }), { parameters: { type: "object" } });
assert.equal(JSON.parse(await made.invoke({}, "[]")).ok, false);
console.log(`edge-light: ${result.repairs[0].rule} with ${import.meta.resolve("toolargs")}`);
