# workerd's configuration for `worker.js` (tests/npm.rs runs `workerd test config.capnp`): the
# package's modules as wrangler would bundle them, the WebAssembly one as a compiled module.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
);

const worker :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
    (name = "node_modules/toolargs/dist/workerd.js", esModule = embed "node_modules/toolargs/dist/workerd.js"),
    (name = "node_modules/toolargs/dist/public.js", esModule = embed "node_modules/toolargs/dist/public.js"),
    (name = "node_modules/toolargs/dist/api.js", esModule = embed "node_modules/toolargs/dist/api.js"),
    (name = "node_modules/toolargs/dist/io.js", esModule = embed "node_modules/toolargs/dist/io.js"),
    (name = "node_modules/toolargs/dist/tape.js", esModule = embed "node_modules/toolargs/dist/tape.js"),
    (name = "node_modules/toolargs/dist/json.js", esModule = embed "node_modules/toolargs/dist/json.js"),
    (name = "node_modules/toolargs/dist/toolargs_js.js", esModule = embed "node_modules/toolargs/dist/toolargs_js.js"),
    (name = "node_modules/toolargs/dist/toolargs_js_bg.wasm", wasm = embed "node_modules/toolargs/dist/toolargs_js_bg.wasm"),
  ],
  compatibilityDate = "2026-11-01",
);
