// The `toolargs` package where no other export condition applies: every runtime that can read
// or fetch the package's files. The WebAssembly module sits beside its glue and is found from
// this file's URL: from a file it is read and compiled at once; from a server it is fetched
// and compiled while streaming, awaited at the top level. Node.js, Deno and Bun take
// `node.js` (the `node` condition), which reads it without awaiting, and `require` takes the
// CommonJS build; bundlers for browsers take `browser.js` (the `browser` condition), which
// never names `node:fs`; Cloudflare's runtime, which compiles no module at run time, takes
// `workerd.js` (the `workerd` condition), and Vercel's Edge runtime `edge.js` (`edge-light`).

import init, { initSync } from "./toolargs_js.js";

const wasmUrl = new URL("./toolargs_js_bg.wasm", import.meta.url);
if (wasmUrl.protocol === "file:") {
  const { readFileSync } = await import(/* webpackIgnore: true */ /* @vite-ignore */ "node:fs");
  initSync({ module: readFileSync(wasmUrl) });
} else {
  await init({ module_or_path: wasmUrl });
}

export * from "./public.js";
