// Bundled by tests/npm.rs with esbuild for browsers (the package's `browser` entry, which never
// names `node:fs`), then run by Deno, whose `fetch` reads the module from its `file:` URL as a
// browser fetches it from a server.
import { Spec } from "toolargs";

const spec = new Spec({ type: "object", properties: { n: { type: "integer" } } });
const result = spec.parse('{"n": "12345678901234567890"}');
if (result.arguments.n !== 12345678901234567890n) throw new Error("not a BigInt");
console.log(`bundled for browsers: ${result.repairs[0].rule}`);
