// The WebAssembly module imported as a module, as Cloudflare's and Vercel's bundlers give it
// (`workerd.ts`, `edge.ts`): compiled ahead of the run.
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}

declare module "*.wasm?module" {
  const module: WebAssembly.Module;
  export default module;
}
