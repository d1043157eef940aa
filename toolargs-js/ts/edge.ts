// The `toolargs` package on Vercel's Edge runtime (the `edge-light` export condition, which
// Vercel's and Next.js's bundlers resolve for edge functions and middleware): there, as on
// Cloudflare's, no WebAssembly module is compiled from bytes at run time and no file is read,
// so the module is imported as a module (`?module`, Vercel's way), compiled when the function
// is built.

import module from "./toolargs_js_bg.wasm?module";
import { initSync } from "./toolargs_js.js";

initSync({ module });

export * from "./public.js";
