// The `toolargs` package on Vercel's Edge runtime (the `edge-light` export condition, which
// Vercel's and Next.js's bundlers resolve for edge functions and middleware): there, as on
// Cloudflare's, no WebAssembly module is compiled from bytes at run time and no file is read,
// so the module is imported as a module (`?module`, Vercel's way), compiled when the function
// is built.

import { initSync } from "../dist/toolargs_js.js";
import module from "../dist/toolargs_js_bg.wasm?module";

initSync({ module });

export { LoadError, ParseResult, Rejected, Session, Spec, ToolSet } from "./api.js";
