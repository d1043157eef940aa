// Run by tests/npm.rs in a project of its own, where the packed tarball is installed, under
// Node.js, Deno and Bun: the package imports by its name and judges calls.
import assert from "node:assert/strict";

import { LoadError, Rejected, Spec, ToolSet } from "toolargs";

const spec = new Spec({ type: "object", properties: { n: { type: "integer" } } }, { effect: "read_only" });
const result = spec.parse('{"n": "12345678901234567890", "x": 1}');
assert.deepEqual(result.arguments, { n: 12345678901234567890n });
assert.deepEqual(result.repairs.map((r) => r.rule), ["strip_unknown_field", "numeric_string_to_int"]);
assert.throws(() => spec.validate('{"n": true}'), Rejected);
assert.throws(() => new Spec("{"), LoadError);
const stream = spec.stream();
for (const piece of '{"n": 5, "é": "😀"}') stream.feed(piece);
assert.deepEqual(stream.finish().arguments, { n: 5 });
const tools = new ToolSet({ tools: [{ name: "t", inputSchema: { type: "object" } }, { name: "u", inputSchema: 1 }] });
assert.deepEqual(tools.names, ["t"]);
assert.equal(tools.unchecked[0][0], "u");
// Only the entry is exported.
await assert.rejects(import("toolargs/dist/toolargs_js.js"));

const runtime = typeof Deno !== "undefined" ? "Deno" : typeof Bun !== "undefined" ? "Bun" : "Node.js";
console.log(`${runtime}: imported ${import.meta.resolve("toolargs")}`);
