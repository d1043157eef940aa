// Bundled by tests/npm.rs with esbuild for Node.js (`--bundle --platform=node`, as CommonJS and as
// an ES module, with `--loader:.wasm=binary`), then run from a folder of its own, far from any
// node_modules: `toolargs/init` is handed the module's bytes, which the bundle carries.
import { initSync, Spec } from "toolargs/init";
import wasm from "toolargs/toolargs.wasm";

initSync(wasm);
const spec = new Spec({ type: "object", properties: { n: { type: "integer" } } });
const result = spec.parse('{"n": "12345678901234567890"}');
if (!result.ok || result.arguments.n !== 12345678901234567890n) throw new Error("not a BigInt");
// `import.meta` is empty in the CommonJS bundle.
const format = import.meta.url ? "ES module" : "CommonJS";
console.log(`bundled for Node.js as ${format}: ${result.repairs[0].rule}`);
