// The `toolargs` package: the Rust gate for LLM tool-call arguments, in WebAssembly.
//
// This entry loads the WebAssembly module once, when it is imported, and exports the API
// (`api.js`). One artifact for every runtime that can read or fetch the package's files: the
// module sits beside its glue and is found from this file's URL. From a file (Node.js, Deno,
// Bun) it is read and compiled at once; from a server it is fetched and compiled while
// streaming. Bundlers for browsers take `browser.js` (the `browser` export condition), which
// never names `node:fs`; Cloudflare's runtime, which compiles no module at run time, takes
// `workerd.js` (the `workerd` condition).

import init, { initSync } from "../dist/toolargs_js.js";

const wasmUrl = new URL("../dist/toolargs_js_bg.wasm", import.meta.url);
if (wasmUrl.protocol === "file:") {
  const { readFileSync } = await import(/* webpackIgnore: true */ /* @vite-ignore */ "node:fs");
  initSync({ module: readFileSync(wasmUrl) });
} else {
  await init({ module_or_path: wasmUrl });
}

export { LoadError, ParseResult, Rejected, Session, Spec, ToolSet } from "./api.js";
