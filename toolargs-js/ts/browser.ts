// The `toolargs` package in browsers and their bundlers (the `browser` export condition): the
// WebAssembly module is fetched from beside this file's URL and compiled while streaming.
// Bundlers that follow `new URL("…", import.meta.url)` (Vite, webpack 5, Parcel) copy it among
// their assets.

import init from "./toolargs_js.js";

await init({ module_or_path: new URL("./toolargs_js_bg.wasm", import.meta.url) });

export * from "./public.js";
