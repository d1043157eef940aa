// Run by tests/npm.rs under workerd, Cloudflare's runtime (`workerd test config.capnp`): the
// package's `workerd` entry, as wrangler resolves it, with the WebAssembly module imported as a
// module (the runtime compiles none from bytes).
import { LoadError, Rejected, Spec, ToolSet } from "./node_modules/toolargs/dist/workerd.js";

function check(condition, what) {
  if (!condition) throw new Error(what);
}

export default {
  async test() {
    const spec = new Spec({ type: "object", properties: { n: { type: "integer" } } }, { effect: "read_only" });
    const result = spec.parse('{"n": "12345678901234567890", "x": 1}');
    check(result.arguments.n === 12345678901234567890n, "a BigInt");
    check(result.repairs.map((r) => r.rule).join() === "strip_unknown_field,numeric_string_to_int", "repairs");
    let rejected = false;
    try {
      spec.validate('{"n": true}');
    } catch (e) {
      rejected = e instanceof Rejected;
    }
    check(rejected, "Rejected");
    let failed = false;
    try {
      new Spec("{");
    } catch (e) {
      failed = e instanceof LoadError;
    }
    check(failed, "LoadError");
    const stream = spec.stream();
    for (const piece of '{"n": 5, "é": "😀"}') stream.feed(piece);
    check(stream.finish().arguments.n === 5, "a stream");
    check(new ToolSet({ tools: [{ name: "t", inputSchema: { type: "object" } }] }).names[0] === "t", "a tool set");
    console.log("workerd: judged with node_modules/toolargs/dist/workerd.js");
  },
};
