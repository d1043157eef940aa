// The `toolargs` package on Cloudflare's runtime (workerd; the `workerd` export condition, which
// wrangler resolves): there the WebAssembly module is imported as a module, compiled when the
// worker is deployed, since the runtime compiles none from bytes.

import module from "./toolargs_js_bg.wasm";
import { initSync } from "./toolargs_js.js";

initSync({ module });

export * from "./public.js";
