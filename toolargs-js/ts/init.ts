// `toolargs/init`: the package without its WebAssembly module loaded, for those that hand it the
// module themselves: a bundle that carries the module's bytes (esbuild's `--loader:.wasm=binary`
// on `toolargs/toolargs.wasm`, which the package exports), a module compiled ahead of the run,
// or a URL it is served at. Nothing here reads a file or fetches by itself: `initSync` or
// `init` first, then the API, which is every other entry's.

import load, { type InitInput, initSync as loadSync } from "./toolargs_js.js";

export * from "./public.js";

/**
 * Loads the WebAssembly module from its bytes (`toolargs/toolargs.wasm`, as a bundler embeds
 * it) or from a module compiled ahead, at once. The first load is kept: a later call does
 * nothing, as do calls after another entry of the package loaded it.
 */
export function initSync(module: BufferSource | WebAssembly.Module): void {
  loadSync({ module });
}

/**
 * Loads the WebAssembly module from a URL (fetched, and compiled while streaming when served as
 * `application/wasm`), a `Request`, a `Response`, its bytes, or a module compiled ahead. The
 * first load is kept.
 */
export async function init(source: InitInput | Promise<InitInput>): Promise<void> {
  await load({ module_or_path: source });
}
