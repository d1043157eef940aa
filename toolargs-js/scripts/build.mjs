// `npm run build`: the WebAssembly module and its glue, from the Rust sources of the workspace,
// then the package's TypeScript over them.
//
//   1. the Rust target `wasm32-unknown-unknown`, added with rustup when missing;
//   2. the `wasm-bindgen` command at the version of the crate's `wasm-bindgen` (Cargo.toml),
//      installed with `cargo install` under the workspace's target directory when missing;
//   3. `cargo build --profile wasm-release --target wasm32-unknown-unknown -p toolargs-js`
//      (the workspace's profile: fat LTO, one codegen unit, `panic = "abort"`), at
//      `opt-level = 3` (set here, over the profile's `"z"`): a verdict in under half the time,
//      for a module a fifth larger (0.67 MB gzipped);
//   4. `wasm-bindgen --target web` into `dist/`: one module and one ES module of glue (with its
//      declarations, which the TypeScript is checked against), which each entry loads its way
//      (read from a file, fetched, or imported as a module);
//   5. binaryen's `wasm-opt -O3` on the module (the `binaryen` npm package, pinned in
//      `package-lock.json`; skipped, with a warning, where it is not installed): 4% off a
//      verdict's time and 5% off the module;
//   6. `tsc` (`tsconfig.json`): `ts/*.ts` to ES modules and their declarations in `dist/`;
//   7. the CommonJS build, for `require("toolargs")`: each module of the `node` entry, of
//      `toolargs/init` and of the framework entries made CommonJS by esbuild (`dist/cjs/`, a folder whose
//      `package.json` says `"type": "commonjs"`), with the declarations beside them;
//   8. the licences of the workspace (`LICENSE-MIT`, `LICENSE-APACHE`) copied beside
//      `package.json`, for the tarball.
//
// CARGO_TARGET_DIR is honoured for the build; the tools go to `<workspace>/target/js-tools`.

import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = dirname(here);
const workspace = dirname(pkg);
const targetDir = process.env.CARGO_TARGET_DIR || join(workspace, "target");
const tools = join(workspace, "target", "js-tools");
const out = join(pkg, "dist");
const TARGET = "wasm32-unknown-unknown";

function run(command, args, options = {}) {
  console.error(`> ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", ...options });
  if (result.error) throw new Error(`${command}: ${result.error.message}`);
  return result.status === 0;
}

function must(command, args, options) {
  if (!run(command, args, options)) {
    console.error(`${command} failed`);
    process.exit(1);
  }
}

function output(command, args) {
  try {
    return execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return null;
  }
}

// 1. The target.
const installed = output("rustup", ["target", "list", "--installed"]);
if (installed === null) {
  console.error("rustup not found: the Rust toolchain must have the target " + TARGET);
} else if (!installed.split("\n").includes(TARGET)) {
  must("rustup", ["target", "add", TARGET]);
}

// 2. wasm-bindgen, at the crate's version.
const manifest = readFileSync(join(pkg, "Cargo.toml"), "utf8");
const version = /^wasm-bindgen = \{ version = "=([^"]+)"/m.exec(manifest)?.[1];
if (!version) throw new Error("Cargo.toml: no `wasm-bindgen = { version = \"=X\" ... }`");
const bindgen = join(tools, "bin", process.platform === "win32" ? "wasm-bindgen.exe" : "wasm-bindgen");
if ((output(bindgen, ["--version"]) ?? "").trim() !== `wasm-bindgen ${version}`) {
  mkdirSync(tools, { recursive: true });
  // Unoptimized (`--debug`): it builds in a third of the time of a release build (under two
  // minutes), and still handles this module in under a second, byte for byte the same.
  const install = ["install", "wasm-bindgen-cli", "--version", version, "--bin", "wasm-bindgen", "--debug"];
  const where = ["--root", tools, "--force"];
  // Locked to the dependencies wasm-bindgen-cli was released with; when the registry no
  // longer offers one of them, resolved again within its requirements.
  if (!run("cargo", [...install, "--locked", ...where])) {
    console.error("wasm-bindgen-cli: its lock file does not resolve here; installing unlocked");
    must("cargo", [...install, ...where]);
  }
}

// 3. The module.
const locked = existsSync(join(workspace, "Cargo.lock")) ? ["--locked"] : [];
must(
  "cargo",
  ["build", "--profile", "wasm-release", "--target", TARGET, "-p", "toolargs-js", ...locked],
  { cwd: workspace, env: { ...process.env, CARGO_PROFILE_WASM_RELEASE_OPT_LEVEL: "3" } },
);

// 4. The glue.
const wasm = join(targetDir, TARGET, "wasm-release", "toolargs_js.wasm");
rmSync(out, { recursive: true, force: true });
must(bindgen, [
  "--target", "web",
  // Names and producers are for debuggers and tools: a third of the module, and nothing a user
  // runs needs them.
  "--remove-name-section",
  "--remove-producers-section",
  "--out-dir", out,
  "--out-name", "toolargs_js",
  wasm,
]);

// 5. wasm-opt, from binaryen's npm package (JavaScript: no binary to download).
const module = join(out, "toolargs_js_bg.wasm");
const wasmOpt = join(pkg, "node_modules", "binaryen", "bin", "wasm-opt");
if (existsSync(wasmOpt)) {
  must(process.execPath, [wasmOpt, "-O3", module, "-o", module]);
} else {
  console.error("wasm-opt not found (npm install installs binaryen): the module is left as built");
}

// The declarations of the module's own exports are not needed.
rmSync(join(out, "toolargs_js_bg.wasm.d.ts"), { force: true });

// 6. The TypeScript.
const tsc = join(pkg, "node_modules", "typescript", "bin", "tsc");
if (!existsSync(tsc)) {
  console.error("tsc not found: run npm install first");
  process.exit(1);
}
must(process.execPath, [tsc, "-p", join(pkg, "tsconfig.json")]);

// 7. CommonJS, module by module, for the `node` entry (which awaits nothing) and the framework
// entries: `import.meta.url` is there the URL the file would have in `dist/`, beside the
// WebAssembly module.
const cjs = join(out, "cjs");
mkdirSync(cjs, { recursive: true });
writeFileSync(join(cjs, "package.json"), '{\n  "type": "commonjs"\n}\n');
const modules = ["node", "public", "api", "io", "tape", "json", "types", "names", "toolargs_js", "init", "callbacks", "ai", "mcp", "agents", "langchain"];
const { buildSync } = await import("esbuild");
buildSync({
  entryPoints: modules.map((name) => join(out, `${name}.js`)),
  format: "cjs",
  platform: "node",
  target: "node18",
  logLevel: "warning",
  define: { "import.meta.url": "__toolargs_url" },
  banner: {
    js: 'var __toolargs_url = require("node:url").pathToFileURL(require("node:path").join(__dirname, "..", require("node:path").basename(__filename))).href;',
  },
  outdir: cjs,
});
for (const name of modules) copyFileSync(join(out, `${name}.d.ts`), join(cjs, `${name}.d.ts`));

// 8. The licences.
for (const licence of ["LICENSE-MIT", "LICENSE-APACHE"]) copyFileSync(join(workspace, licence), join(pkg, licence));

const built = readFileSync(module);
const kb = (n) => `${Math.round(n / 1000)} kB`;
console.error(
  `dist/toolargs_js_bg.wasm: ${kb(built.length)}, ${kb(gzipSync(built, { level: 9 }).length)} gzipped, ` +
    `${kb(brotliCompressSync(built).length)} with brotli`,
);
