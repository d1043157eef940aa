// The `toolargs` package on Node.js, Deno and Bun (the `node` export condition): the
// WebAssembly module is read from beside this file and compiled when the package is imported,
// synchronously: no top-level await, so that the CommonJS build (`require("toolargs")`, made
// from this file) loads it the same way. `Spec.fromZod` finds zod's `toJSONSchema` here, for a
// zod whose schemas have none of their own (4.0, 4.1, 3.25's `zod/v4`).

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

import { findZodWith, type ZodToJsonSchema } from "./api.js";
import { initSync } from "./toolargs_js.js";

let module: Uint8Array;
try {
  module = readFileSync(new URL("./toolargs_js_bg.wasm", import.meta.url));
} catch (e) {
  // Bundled (esbuild's `--platform=node`), this file is not beside the module any more.
  throw new Error(
    "toolargs: the WebAssembly module is not beside the package's entry (bundled?): in a bundle, " +
      'import from "toolargs/init" and hand it the module: initSync(bytes of "toolargs/toolargs.wasm"), ' +
      "which esbuild embeds with --loader:.wasm=binary",
    { cause: e },
  );
}
initSync({ module });
findZodWith(
  () => (createRequire(import.meta.url)("zod/v4/core") as { toJSONSchema?: ZodToJsonSchema }).toJSONSchema,
);

export * from "./public.js";
