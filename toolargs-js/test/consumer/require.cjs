// Run by tests/npm.rs in the project where the packed tarball is installed, under Node.js and
// Bun: `require("toolargs")` loads the CommonJS build, which initialises the WebAssembly module
// synchronously (no top-level await), and its framework entries load the same way.
const assert = require("node:assert/strict");

const { LoadError, Rejected, Spec, ToolSet } = require("toolargs");
const { gateServer } = require("toolargs/mcp");
const { gatedTool } = require("toolargs/agents");

const spec = new Spec({ type: "object", properties: { n: { type: "integer" } } }, { effect: "read_only" });
const result = spec.parse('{"n": "12345678901234567890", "x": 1}');
assert.deepEqual(result.arguments, { n: 12345678901234567890n });
assert.deepEqual(
  result.repairs.map((r) => r.rule),
  ["strip_unknown_field", "numeric_string_to_int"],
);
assert.throws(() => spec.validate('{"n": true}'), Rejected);
assert.throws(() => new Spec("{"), LoadError);
assert.deepEqual(new ToolSet({ tools: [{ name: "t", inputSchema: { type: "object" } }] }).names, ["t"]);
assert.throws(() => gateServer({}), TypeError);
const made = gatedTool((_options) => ({ invoke: async (_, input) => input }), { parameters: { type: "object" } });
made.invoke({}, "[]").then((out) => {
  assert.equal(JSON.parse(out).ok, false);
  const runtime = typeof Bun !== "undefined" ? "Bun" : "Node.js";
  console.log(`${runtime}: required ${require.resolve("toolargs")}, ${require.resolve("toolargs/mcp")}`);
});
