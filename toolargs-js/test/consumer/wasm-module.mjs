// `node --import ./wasm-module.mjs`: a module imported as `….wasm?module` is a
// `WebAssembly.Module` of that file, as Vercel's bundler makes it for its Edge runtime (and no
// other import of the run reads a file for the package).
import { register } from "node:module";

register(
  "data:text/javascript," +
    encodeURIComponent(`
      import { fileURLToPath } from "node:url";
      export async function load(url, context, next) {
        if (!url.startsWith("file:") || !url.endsWith(".wasm?module")) return next(url, context);
        const file = fileURLToPath(url.slice(0, -"?module".length));
        return {
          format: "module",
          shortCircuit: true,
          source: "import { readFileSync } from 'node:fs';" +
            "export default new WebAssembly.Module(readFileSync(" + JSON.stringify(file) + "));",
        };
      }
    `),
);
