//! The npm package's suite, from `cargo test`: the package is built as a user builds it
//! (`npm ci`, then `npm run build`, in a target directory of its own: the outer `cargo test`
//! holds the workspace's), then
//!
//! - its Node.js suite runs (`npm test`: `test/*.test.mjs`), and again under Node.js 18, the
//!   oldest its `engines` names (`test/node18`: the `node` npm package, pinned);
//! - its `browser` entry, served over HTTP, judges refund calls in headless Chromium as Node.js
//!   does (`test/browser`; Chromium must be installed: `.ci/run` installs it);
//! - the packed tarball installs into a project of its own and is imported there, under
//!   Node.js, Deno, Bun and workerd, Cloudflare's runtime (its framework entries too, under the
//!   first three), bundled for browsers by esbuild, and resolved, bundled and run under the
//!   `edge-light` condition of Vercel's Edge runtime (`test/consumer`, with each pinned as an
//!   npm package);
//! - its verdicts equal `Spec::parse`'s on the same definitions and texts, call by call
//!   (outcome, arguments, repairs, errors, the text for the model; and the same call streamed
//!   in pieces): over the refund corpus (`TOOLARGS_CORPUS`, or 3 000 calls of
//!   `scripts/gen_corpus.py`), calls made from the MCP tools of `tests/data/mcp-tools`, and
//!   BFCL's ground truth when `TOOLARGS_BFCL` names it (`scripts/bfcl.py`). Relative paths in
//!   the two variables are read from the workspace's root, as the root crate's tests read them.
//!
//! `cargo test -p toolargs-js -- --nocapture` prints the counts.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::{json, Map, Value};
use toolargs_dynamic::{load_tool_list_lenient, Spec};

fn run(what: &str, command: &mut Command) -> String {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{stdout}\n{stderr}",
        output.status
    );
    stdout
}

fn package() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn workspace() -> &'static Path {
    package().parent().expect("the package is in the workspace")
}

fn scratch() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("npm")
}

/// `npm ci` and `npm run build`, once for all the tests of the run.
fn built() -> &'static Path {
    static BUILT: OnceLock<()> = OnceLock::new();
    BUILT.get_or_init(|| {
        let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .parent()
            .expect("the target directory")
            .join("js-target");
        run(
            "npm ci",
            Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund"])
                .current_dir(package()),
        );
        let log = run(
            "npm run build",
            Command::new("npm")
                .args(["run", "build"])
                .env("CARGO_TARGET_DIR", target)
                .current_dir(package()),
        );
        println!("{log}");
    });
    package()
}

#[test]
fn the_node_suite_passes() {
    let out = run(
        "npm test",
        Command::new("npm").arg("test").current_dir(built()),
    );
    let tail: Vec<&str> = out.lines().filter(|l| l.starts_with("# ")).collect();
    println!("{}", tail.join("\n"));
}

#[test]
fn the_node_suite_passes_on_node_18() {
    // Node.js 18, the oldest `engines` names, as the npm registry ships it (the `node` package,
    // pinned in `test/node18`), runs the same suite, in a folder of its own.
    let dir = scratch().join("node18");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    for file in ["package.json", "package-lock.json"] {
        fs::copy(package().join("test/node18").join(file), dir.join(file)).unwrap();
    }
    run(
        "npm ci (Node.js 18)",
        Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir),
    );
    let node = dir.join("node_modules/.bin/node");
    let version = run("node --version", Command::new(&node).arg("--version"));
    assert!(version.starts_with("v18."), "{version}");
    let mut suites: Vec<String> = fs::read_dir(built().join("test"))
        .unwrap()
        .filter_map(|e| e.unwrap().file_name().into_string().ok())
        .filter(|name| name.ends_with(".test.mjs"))
        .map(|name| format!("test/{name}"))
        .collect();
    suites.sort();
    let out = run(
        "node --test (Node.js 18)",
        Command::new(&node)
            .arg("--test")
            .args(&suites)
            .current_dir(built()),
    );
    let tail: Vec<&str> = out.lines().filter(|l| l.starts_with("# ")).collect();
    println!("Node.js {}\n{}", version.trim(), tail.join("\n"));
}

/// `ts/names.ts` as the registry of repair rules and error codes makes it.
fn names_ts() -> String {
    let union = |names: Vec<&str>| -> String {
        names
            .iter()
            .map(|n| format!("\n  | \"{n}\""))
            .collect::<String>()
    };
    let rules = union(
        toolargs_core::Rule::ALL
            .iter()
            .map(|r| r.as_str())
            .collect(),
    );
    let codes = union(
        toolargs_core::Code::ALL
            .iter()
            .map(|c| c.as_str())
            .collect(),
    );
    format!(
        "// Generated from the Rust registry of repair rules and error codes (`toolargs_core::Rule::ALL`\n\
         // and `Code::ALL`, in their order) by `tests/npm.rs`, which fails when this file is not what\n\
         // they make, and writes it again when run with TOOLARGS_BLESS=1:\n\
         //\n\
         //   TOOLARGS_BLESS=1 cargo test -p toolargs-js --test npm the_names_are_the_registrys\n\
         \n\
         /** The stable name of a repair rule (`Repair.rule`): what was changed, with exactly one\n \
         * possible reading. */\n\
         export type Rule ={rules};\n\
         \n\
         /** The stable code of an argument error (`ArgumentError.code`), which the model can act on. */\n\
         export type Code ={codes};\n"
    )
}

#[test]
fn the_names_are_the_registrys() {
    // The rules and codes of the declarations are the Rust registry's: a rule or a code added,
    // renamed or removed there fails here until `ts/names.ts` is made again.
    let path = package().join("ts/names.ts");
    let made = names_ts();
    if std::env::var_os("TOOLARGS_BLESS").is_some() {
        fs::write(&path, &made).unwrap();
    }
    let file = fs::read_to_string(&path).unwrap_or_default();
    assert!(
        file == made,
        "ts/names.ts is not the registry's rules and codes: run\n  \
         TOOLARGS_BLESS=1 cargo test -p toolargs-js --test npm the_names_are_the_registrys\n\
         to write it again"
    );
    println!(
        "ts/names.ts: {} rules, {} codes",
        toolargs_core::Rule::ALL.len(),
        toolargs_core::Code::ALL.len()
    );
}

#[test]
fn the_package_lints_and_its_tests_type_check() {
    // `npm run lint`: Biome's linter over the sources, the scripts and the tests, then `tsc` on
    // the sources and on the tests (JavaScript checked against the generated declarations).
    let out = run(
        "npm run lint",
        Command::new("npm")
            .args(["run", "lint"])
            .current_dir(built()),
    );
    print!("{out}");
}

#[test]
fn the_packed_package_passes_attw_and_publint() {
    // `npm run check:package`: publint (`--strict`: a warning fails) and arethetypeswrong
    // (`attw --pack .`: every entry under node10, node16 from CommonJS and from ES modules, and
    // bundlers) on the tarball `npm pack` makes; either fails on any problem it reports.
    let out = run(
        "npm run check:package",
        Command::new("npm")
            .args(["run", "check:package"])
            .current_dir(built()),
    );
    assert!(
        out.contains("All good!") && out.contains("No problems found"),
        "{out}"
    );
    let summary: Vec<&str> = out
        .lines()
        .filter(|l| {
            l.contains("All good")
                || l.contains("No problems")
                || l.starts_with("node")
                || l.starts_with("bundler")
                || l.starts_with("\"")
        })
        .collect();
    println!("{}", summary.join("\n"));
}

#[test]
fn the_browser_entry_in_chromium_gives_the_verdicts_of_node() {
    // Chromium, installed when the machine has none; `test/browser/run.mjs` fails, and says
    // why, when it still cannot run one.
    run(
        "tests/chromium.sh (headless Chromium)",
        Command::new("bash").arg(package().join("tests").join("chromium.sh")),
    );
    let out = run(
        "test/browser/run.mjs (headless Chromium)",
        Command::new("node")
            .arg("test/browser/run.mjs")
            .current_dir(built()),
    );
    print!("{out}");
}

#[test]
fn the_packed_package_installs_and_imports_in_another_project() {
    // `test/consumer`, copied: a project of its own with Deno, Bun and workerd pinned, where the
    // tarball is installed and imported under each, and under Node.js.
    let dir = scratch().join("consumer");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    for file in [
        "package.json",
        "package-lock.json",
        "check.mjs",
        "worker.js",
        "config.capnp",
        "browser.mjs",
        "subpaths.mjs",
        "edge.mjs",
        "wasm-module.mjs",
        "require.cjs",
        "bundled.mjs",
        "plain.mjs",
    ] {
        fs::copy(package().join("test/consumer").join(file), dir.join(file)).unwrap();
    }
    let packed = run(
        "npm pack",
        Command::new("npm")
            .args(["pack", "--json", "--pack-destination"])
            .arg(&dir)
            .current_dir(built()),
    );
    let packed: Value = serde_json::from_str(&packed).expect("npm pack --json");
    let file = packed[0]["filename"].as_str().expect("the tarball's name");
    let mut files: Vec<&str> = packed[0]["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["path"].as_str())
        .collect();
    files.sort_unstable();
    assert_eq!(
        files,
        [
            "LICENSE-APACHE",
            "LICENSE-MIT",
            "README.md",
            "agents/package.json",
            "ai/package.json",
            "dist/agents.d.ts",
            "dist/agents.js",
            "dist/ai.d.ts",
            "dist/ai.js",
            "dist/api.d.ts",
            "dist/api.js",
            "dist/browser.d.ts",
            "dist/browser.js",
            "dist/callbacks.d.ts",
            "dist/callbacks.js",
            "dist/cjs/agents.d.ts",
            "dist/cjs/agents.js",
            "dist/cjs/ai.d.ts",
            "dist/cjs/ai.js",
            "dist/cjs/api.d.ts",
            "dist/cjs/api.js",
            "dist/cjs/callbacks.d.ts",
            "dist/cjs/callbacks.js",
            "dist/cjs/init.d.ts",
            "dist/cjs/init.js",
            "dist/cjs/io.d.ts",
            "dist/cjs/io.js",
            "dist/cjs/json.d.ts",
            "dist/cjs/json.js",
            "dist/cjs/langchain.d.ts",
            "dist/cjs/langchain.js",
            "dist/cjs/mcp.d.ts",
            "dist/cjs/mcp.js",
            "dist/cjs/names.d.ts",
            "dist/cjs/names.js",
            "dist/cjs/node.d.ts",
            "dist/cjs/node.js",
            "dist/cjs/package.json",
            "dist/cjs/public.d.ts",
            "dist/cjs/public.js",
            "dist/cjs/tape.d.ts",
            "dist/cjs/tape.js",
            "dist/cjs/toolargs_js.d.ts",
            "dist/cjs/toolargs_js.js",
            "dist/cjs/types.d.ts",
            "dist/cjs/types.js",
            "dist/edge.d.ts",
            "dist/edge.js",
            "dist/index.d.ts",
            "dist/index.js",
            "dist/init.d.ts",
            "dist/init.js",
            "dist/io.d.ts",
            "dist/io.js",
            "dist/json.d.ts",
            "dist/json.js",
            "dist/langchain.d.ts",
            "dist/langchain.js",
            "dist/mcp.d.ts",
            "dist/mcp.js",
            "dist/names.d.ts",
            "dist/names.js",
            "dist/node.d.ts",
            "dist/node.js",
            "dist/public.d.ts",
            "dist/public.js",
            "dist/tape.d.ts",
            "dist/tape.js",
            "dist/toolargs_js.d.ts",
            "dist/toolargs_js.js",
            "dist/toolargs_js_bg.wasm",
            "dist/types.d.ts",
            "dist/types.js",
            "dist/workerd.d.ts",
            "dist/workerd.js",
            "init/package.json",
            "langchain/package.json",
            "mcp/package.json",
            "package.json",
        ]
    );
    run(
        "npm ci (the consumer)",
        Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir),
    );
    run(
        "npm install <tarball>",
        Command::new("npm")
            .args([
                "install",
                "--no-audit",
                "--no-fund",
                "--no-save",
                "--offline",
            ])
            .arg(dir.join(file))
            .current_dir(&dir),
    );
    let bin = dir.join("node_modules/.bin");
    // The entry, then the frameworks' entries (`toolargs/ai` with the AI SDK installed there).
    for (runtime, command, args) in [
        ("Node.js", PathBuf::from("node"), vec![]),
        // Deno reads the module only with the permission to read; the AI SDK also reads the
        // environment and the host's name.
        (
            "Deno",
            bin.join("deno"),
            vec!["run", "--allow-read", "--allow-env", "--allow-sys"],
        ),
        ("Bun", bin.join("bun"), vec![]),
    ] {
        for (script, entries) in [
            ("check.mjs", &["node.js"][..]),
            ("subpaths.mjs", &["ai.js", "mcp.js", "agents.js"][..]),
        ] {
            // The entry alone asks Deno for nothing but reading.
            let args = match (runtime, script) {
                ("Deno", "check.mjs") => &args[..2],
                _ => &args[..],
            };
            let out = run(
                &format!("{runtime}: {script}"),
                Command::new(&command)
                    .args(args)
                    .arg(script)
                    .env("NO_COLOR", "1")
                    .env("DENO_NO_UPDATE_CHECK", "1")
                    .current_dir(&dir),
            );
            assert!(
                out.contains(&format!("{runtime}: imported "))
                    && entries
                        .iter()
                        .all(|e| out.contains(&format!("node_modules/toolargs/dist/{e}"))),
                "{out}"
            );
            print!("{out}");
        }
    }
    // `require("toolargs")`: the CommonJS build, under Node.js and Bun.
    for (runtime, command) in [("Node.js", PathBuf::from("node")), ("Bun", bin.join("bun"))] {
        let out = run(
            &format!("{runtime}: require.cjs"),
            Command::new(&command).arg("require.cjs").current_dir(&dir),
        );
        assert!(
            out.contains(&format!("{runtime}: required "))
                && out.contains("node_modules/toolargs/dist/cjs/node.js")
                && out.contains("node_modules/toolargs/dist/cjs/mcp.js"),
            "{out}"
        );
        print!("{out}");
    }
    // Cloudflare's runtime, with the module imported as wrangler bundles it; wrangler resolves
    // the `workerd` export condition, as Node.js does when told to.
    let resolved = run(
        "node --conditions=workerd",
        Command::new("node")
            .args(["--conditions=workerd", "--input-type=module", "-e"])
            .arg(r#"console.log(import.meta.resolve("toolargs"))"#)
            .current_dir(&dir),
    );
    assert!(
        resolved
            .trim_end()
            .ends_with("node_modules/toolargs/dist/workerd.js"),
        "{resolved}"
    );
    let output = Command::new(bin.join("workerd"))
        .args(["test", "config.capnp"])
        .current_dir(&dir)
        .output()
        .expect("workerd starts");
    let log = String::from_utf8_lossy(&output.stderr).into_owned()
        + &String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && log.contains("[ PASS ] main"),
        "workerd test:\n{log}"
    );
    println!("workerd: the worker's test passed");

    // For browsers: bundled by esbuild under the `browser` condition, then run where a fetch
    // reads `file:` URLs (Deno), with the module beside the bundle as a server would serve it.
    run(
        "esbuild --platform=browser",
        Command::new(bin.join("esbuild"))
            .args([
                "browser.mjs",
                "--bundle",
                "--format=esm",
                "--platform=browser",
            ])
            .arg("--outfile=bundle/app.js")
            .current_dir(&dir),
    );
    let bundle = fs::read_to_string(dir.join("bundle/app.js")).unwrap();
    assert!(
        bundle.contains("node_modules/toolargs/dist/browser.js") && !bundle.contains("node:fs"),
        "the bundle does not hold the browser entry alone"
    );
    fs::copy(
        dir.join("node_modules/toolargs/dist/toolargs_js_bg.wasm"),
        dir.join("bundle/toolargs_js_bg.wasm"),
    )
    .unwrap();
    let out = run(
        "Deno: bundle/app.js",
        Command::new(bin.join("deno"))
            .args(["run", "--allow-read", "bundle/app.js"])
            .env("NO_COLOR", "1")
            .env("DENO_NO_UPDATE_CHECK", "1")
            .current_dir(&dir),
    );
    assert!(
        out.contains("bundled for browsers: numeric_string_to_int"),
        "{out}"
    );
    print!("{out}");

    // Vercel's Edge runtime: its bundler resolves the `edge-light` condition, and gives a
    // module imported as `….wasm?module` as a compiled `WebAssembly.Module`, which
    // `wasm-module.mjs` does here. The entry, then the bundle esbuild makes of it, reads no file.
    let resolved = run(
        "node --conditions=edge-light",
        Command::new("node")
            .args(["--conditions=edge-light", "--input-type=module", "-e"])
            .arg(r#"console.log(import.meta.resolve("toolargs"))"#)
            .current_dir(&dir),
    );
    assert!(
        resolved
            .trim_end()
            .ends_with("node_modules/toolargs/dist/edge.js"),
        "{resolved}"
    );
    let out = run(
        "Node.js --conditions=edge-light: edge.mjs",
        Command::new("node")
            .args([
                "--conditions=edge-light",
                "--import",
                "./wasm-module.mjs",
                "edge.mjs",
            ])
            .current_dir(&dir),
    );
    assert!(
        out.contains("edge-light: numeric_string_to_int with")
            && out.contains("node_modules/toolargs/dist/edge.js"),
        "{out}"
    );
    print!("{out}");
    run(
        "esbuild --conditions=edge-light",
        Command::new(bin.join("esbuild"))
            .args([
                "edge.mjs",
                "--bundle",
                "--format=esm",
                "--platform=browser",
                "--conditions=edge-light",
                "--external:*.wasm?module",
                "--external:node:assert/strict",
                "--outfile=bundle/edge.js",
            ])
            .current_dir(&dir),
    );
    let bundle = fs::read_to_string(dir.join("bundle/edge.js")).unwrap();
    assert!(
        bundle.contains("node_modules/toolargs/dist/edge.js")
            && bundle.contains("./toolargs_js_bg.wasm?module")
            && !bundle.contains("node:fs"),
        "the edge bundle does not hold the edge entry alone"
    );
    let out = run(
        "Node.js: bundle/edge.js",
        Command::new("node")
            .args(["--import", "./wasm-module.mjs", "bundle/edge.js"])
            .current_dir(&dir),
    );
    assert!(out.contains("edge-light: numeric_string_to_int"), "{out}");
    println!("bundled for edge-light: {}", out.trim_end());

    // For Node.js: bundled by esbuild (`--platform=node`, CommonJS and ES module), the module's
    // bytes embedded (`toolargs/toolargs.wasm` with `--loader:.wasm=binary`) and handed to
    // `toolargs/init`; each bundle runs from a folder far from any node_modules, copying nothing.
    let far = scratch().join("bundled");
    let _ = fs::remove_dir_all(&far);
    fs::create_dir_all(&far).unwrap();
    for (format, file, says) in [
        ("cjs", "bundled.cjs", "CommonJS"),
        ("esm", "bundled.mjs", "ES module"),
    ] {
        run(
            &format!("esbuild --platform=node --format={format}"),
            Command::new(bin.join("esbuild"))
                .args([
                    "bundled.mjs",
                    "--bundle",
                    "--platform=node",
                    "--loader:.wasm=binary",
                ])
                .arg(format!("--format={format}"))
                .arg(format!("--outfile={}", far.join(file).display()))
                .current_dir(&dir),
        );
        let out = run(
            &format!("Node.js: the {format} bundle"),
            Command::new("node").arg(file).current_dir(&far),
        );
        assert!(
            out.contains(&format!(
                "bundled for Node.js as {says}: numeric_string_to_int"
            )),
            "{out}"
        );
        print!("{out}");
    }
    // The `node` entry bundled as is says what to do instead.
    run(
        "esbuild --platform=node (the node entry)",
        Command::new(bin.join("esbuild"))
            .args(["plain.mjs", "--bundle", "--platform=node", "--format=cjs"])
            .arg(format!("--outfile={}", far.join("plain.cjs").display()))
            .current_dir(&dir),
    );
    let output = Command::new("node")
        .arg("plain.cjs")
        .current_dir(&far)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success()
            && said.contains("toolargs/init")
            && said.contains("--loader:.wasm=binary"),
        "{said}"
    );
    println!("the node entry bundled as is: it says to use toolargs/init");
}

/// Calls against one list of tool definitions.
struct Set {
    what: &'static str,
    definitions: String,
    calls: Vec<(String, String)>,
}

#[test]
fn verdicts_equal_spec_parse_call_by_call() {
    let mut sets = vec![refund_corpus()];
    sets.extend(mcp_tools());
    match bfcl() {
        Some(set) => sets.push(set),
        None => println!("TOOLARGS_BFCL is not set: BFCL's calls were not compared"),
    }

    let dir = scratch().join("differential");
    fs::create_dir_all(&dir).unwrap();
    let definitions: Vec<&str> = sets.iter().map(|s| s.definitions.as_str()).collect();
    fs::write(
        dir.join("sets.json"),
        serde_json::to_string(&definitions).unwrap(),
    )
    .unwrap();
    let mut cases = String::new();
    for (index, set) in sets.iter().enumerate() {
        for (tool, text) in &set.calls {
            cases.push_str(&json!({"set": index, "tool": tool, "text": text}).to_string());
            cases.push('\n');
        }
    }
    fs::write(dir.join("cases.jsonl"), cases).unwrap();
    run(
        "node test/differential.mjs",
        Command::new("node")
            .arg("test/differential.mjs")
            .arg(dir.join("sets.json"))
            .arg(dir.join("cases.jsonl"))
            .arg(dir.join("out.jsonl"))
            .current_dir(built()),
    );
    let out = fs::read_to_string(dir.join("out.jsonl")).unwrap();
    let mut lines = out.lines();

    let mut lists = Vec::new();
    for set in &sets {
        let list = load_tool_list_lenient(&set.definitions).unwrap();
        let names: Vec<&str> = list.specs.iter().filter_map(Spec::name).collect();
        let unchecked: Vec<Value> = list
            .refused
            .iter()
            .map(|r| json!([r.name, r.error.to_string()]))
            .collect();
        let node: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
        assert_eq!(
            node["names"],
            json!(names),
            "{}: the tools loaded",
            set.what
        );
        assert_eq!(
            node["unchecked"],
            json!(unchecked),
            "{}: the tools refused",
            set.what
        );
        let specs: HashMap<String, Spec> = list
            .specs
            .into_iter()
            .filter_map(|s| Some((s.name()?.to_owned(), s)))
            .collect();
        lists.push(specs);
    }

    let mut failures = Vec::new();
    let mut counts: Vec<(&str, usize, usize, usize)> = Vec::new();
    for (set, specs) in sets.iter().zip(&lists) {
        let (mut compared, mut rejected) = (0, 0);
        for (tool, text) in &set.calls {
            let node: Value = serde_json::from_str(lines.next().expect("a verdict a call"))
                .expect("a verdict is JSON");
            let verdict = specs[tool].parse(text.as_str());
            rejected += usize::from(verdict.is_err());
            let expected = expected(&verdict);
            for door in ["parse", "stream"] {
                if !same(&node[door], &expected) && failures.len() < 20 {
                    failures.push(format!(
                        "{} {tool} {text}\n  {door}: {}\n  Rust:  {expected}",
                        set.what, node[door]
                    ));
                }
            }
            compared += 1;
        }
        match counts.iter_mut().find(|c| c.0 == set.what) {
            Some(count) => {
                count.1 += 1;
                count.2 += compared;
                count.3 += rejected;
            }
            None => counts.push((set.what, 1, compared, rejected)),
        }
    }
    assert!(lines.next().is_none(), "more verdicts than calls");
    let total: usize = counts.iter().map(|c| c.2).sum();
    println!("differential: {total} calls compared, each parsed and streamed");
    for (what, lists, compared, rejected) in &counts {
        println!("  {what}: {compared} calls to {lists} tool lists ({rejected} rejected)");
    }
    assert!(
        failures.is_empty(),
        "verdicts that differ:\n{}",
        failures.join("\n")
    );
    assert!(total > 10_000, "{total} calls");
}

/// The verdict as the Node.js side writes it.
fn expected(verdict: &Result<toolargs_core::Parsed<Value>, toolargs_core::Rejection>) -> Value {
    match verdict {
        Ok(parsed) => json!({
            "ok": true,
            "arguments": parsed.args,
            "repairs": parsed.repairs.iter().map(|r| json!({
                "path": r.path, "rule": r.rule.as_str(), "before": r.before, "after": r.after,
            })).collect::<Vec<_>>(),
            "errors": [],
            "model": r#"{"ok":true}"#,
        }),
        Err(rejection) => json!({
            "ok": false,
            "arguments": null,
            "repairs": [],
            "errors": rejection.errors().iter().map(|e| json!({
                "path": e.path, "code": e.code.as_str(), "message": e.message,
            })).collect::<Vec<_>>(),
            "model": rejection.for_model(),
        }),
    }
}

/// Equal values, numbers by value: an integer exactly (a BigInt is written in its digits), a
/// float as the same double (JavaScript writes `5.0` as `5`). Keys in the same order.
fn same(node: &Value, rust: &Value) -> bool {
    match (node, rust) {
        (Value::Number(a), Value::Number(b)) => match (integer(a), integer(b)) {
            (Some(a), Some(b)) => a == b,
            _ => a.as_f64() == b.as_f64() && a.as_f64().is_some(),
        },
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|((ka, a), (kb, b))| ka == kb && same(a, b))
        }
        _ => node == rust,
    }
}

fn integer(n: &serde_json::Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

/// A record's arguments as text: as logged when a string, written when decoded.
fn arguments_text(record: &Value) -> Option<String> {
    match &record["arguments"] {
        Value::String(text) => Some(text.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}

fn refund_corpus() -> Set {
    let path = match std::env::var_os("TOOLARGS_CORPUS") {
        Some(path) => workspace().join(path),
        None => {
            let path = scratch().join("refund.jsonl");
            fs::create_dir_all(scratch()).unwrap();
            run(
                "scripts/gen_corpus.py",
                Command::new("python3")
                    .arg(workspace().join("scripts").join("gen_corpus.py"))
                    .arg("3000")
                    .arg(&path),
            );
            path
        }
    };
    let corpus = fs::read_to_string(&path).unwrap();
    let calls = corpus
        .lines()
        .filter_map(|line| {
            let record: Value = serde_json::from_str(line).unwrap();
            Some((
                record["tool"].as_str()?.to_owned(),
                arguments_text(&record)?,
            ))
        })
        .collect();
    Set {
        what: "refund corpus",
        definitions: fs::read_to_string(workspace().join("toolargs-cli/tests/data/tools.json"))
            .unwrap(),
        calls,
    }
}

fn bfcl() -> Option<Set> {
    let folder = workspace().join(std::env::var_os("TOOLARGS_BFCL")?);
    let calls = fs::read_to_string(folder.join("calls.jsonl"))
        .unwrap()
        .lines()
        .filter_map(|line| {
            let record: Value = serde_json::from_str(line).unwrap();
            Some((
                record["tool"].as_str()?.to_owned(),
                arguments_text(&record)?,
            ))
        })
        .collect::<Vec<_>>();
    let definitions = fs::read_to_string(folder.join("tools.json")).unwrap();
    let list = load_tool_list_lenient(&definitions).unwrap();
    let loaded: Vec<&str> = list.specs.iter().filter_map(Spec::name).collect();
    let calls = calls
        .into_iter()
        .filter(|(tool, _)| loaded.contains(&tool.as_str()))
        .collect();
    Some(Set {
        what: "BFCL",
        definitions,
        calls,
    })
}

/// Each server's `tools/list` result, with calls made from each tool's schema.
fn mcp_tools() -> Vec<Set> {
    let folder = workspace().join("tests/data/mcp-tools");
    let mut files: Vec<PathBuf> = fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 20);
    files
        .iter()
        .map(|file| {
            let definitions = fs::read_to_string(file).unwrap();
            let listing: Value = serde_json::from_str(&definitions).unwrap();
            let mut calls = Vec::new();
            for tool in listing["tools"].as_array().unwrap() {
                let Some(name) = tool["name"].as_str() else {
                    continue;
                };
                if load_tool_list_lenient(&json!([tool]).to_string())
                    .is_ok_and(|l| l.specs.is_empty())
                {
                    continue;
                }
                for text in made_calls(&tool["inputSchema"]) {
                    calls.push((name.to_owned(), text));
                }
            }
            Set {
                what: "MCP tools",
                definitions,
                calls,
            }
        })
        .collect()
}

/// Calls made from a tool's schema: none, the required properties, every property, each of
/// those with an invented key, fenced or encoded twice, text that is not a call, and for each
/// property (of the first 8) the values a model sends instead of the one asked for.
fn made_calls(schema: &Value) -> Vec<String> {
    let properties: Vec<(&String, &Value)> = schema["properties"]
        .as_object()
        .map(|p| p.iter().take(8).collect())
        .unwrap_or_default();
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let minimal: Map<String, Value> = properties
        .iter()
        .filter(|(k, _)| required.contains(&k.as_str()))
        .map(|(k, s)| ((*k).clone(), good(s)))
        .collect();
    let full: Map<String, Value> = properties
        .iter()
        .map(|(k, s)| ((*k).clone(), good(s)))
        .collect();
    let mut invented = full.clone();
    invented.insert("zz_invented".to_owned(), json!(true));
    let full_text = Value::Object(full.clone()).to_string();
    let mut calls = vec![
        "{}".to_owned(),
        Value::Object(minimal).to_string(),
        full_text.clone(),
        Value::Object(invented).to_string(),
        format!("```json\n{full_text}\n```"),
        Value::String(full_text.clone()).to_string(),
        String::new(),
        "null".to_owned(),
        "[]".to_owned(),
        full_text[..full_text.len() / 2].to_owned(),
        r#"{"a": 1, "a": 2}"#.to_owned(),
    ];
    for (key, property) in &properties {
        let mut variants = vec![
            json!("7"),
            json!("-3"),
            json!("TRUE"),
            json!("false"),
            json!("1,5"),
            json!(12345678901234567890u64),
            json!(1.0),
            json!(19.99),
            Value::Null,
            json!([]),
            json!({}),
            json!(""),
            json!(["a", 2]),
            json!("2026-13-01"),
        ];
        if let Some(Value::String(first)) = property["enum"].get(0) {
            variants.push(json!(first.to_uppercase()));
        }
        for variant in variants {
            let mut call = full.clone();
            call.insert((*key).clone(), variant);
            calls.push(Value::Object(call).to_string());
        }
    }
    calls
}

/// A value of the schema's own type, or close to it.
fn good(schema: &Value) -> Value {
    if let Some(value) = schema.get("const") {
        return value.clone();
    }
    if let Some(first) = schema["enum"].get(0) {
        return first.clone();
    }
    let kind = match &schema["type"] {
        Value::String(kind) => kind.as_str(),
        Value::Array(kinds) => kinds.first().and_then(Value::as_str).unwrap_or(""),
        _ => "",
    };
    match kind {
        "integer" => schema["minimum"].as_i64().map_or(json!(1), |m| json!(m)),
        "number" => json!(1.5),
        "boolean" => json!(true),
        "array" => json!([]),
        "object" => json!({}),
        "null" => Value::Null,
        _ => json!("x"),
    }
}
