// The `toolargs` package on Cloudflare's runtime (workerd; the `workerd` export condition, which
// wrangler resolves): there the WebAssembly module is imported as a module, compiled when the
// worker is deployed, since the runtime compiles none from bytes.

import { initSync } from "../dist/toolargs_js.js";
import module from "../dist/toolargs_js_bg.wasm";

initSync({ module });

export { LoadError, ParseResult, Rejected, Session, Spec, ToolSet } from "./api.js";
