// The `toolargs` package on Node.js, Deno and Bun (the `node` export condition): the
// WebAssembly module is read from beside this file and compiled when the package is imported,
// synchronously: no top-level await, so that the CommonJS build (`require("toolargs")`, made
// from this file) loads it the same way.

import { readFileSync } from "node:fs";

import { initSync } from "./toolargs_js.js";

initSync({ module: readFileSync(new URL("./toolargs_js_bg.wasm", import.meta.url)) });

export * from "./public.js";
