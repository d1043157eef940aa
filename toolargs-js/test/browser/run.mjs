// The `browser` entry of the package in headless Chromium (run by tests/npm.rs, after the build):
//
//   node test/browser/run.mjs [CORPUS]
//
// A static server on 127.0.0.1 (the module as `application/wasm`, so that it compiles while
// streaming) serves the package's folder and a page whose import map resolves `toolargs` to the
// `browser` export of package.json. The page judges refund calls (the first 40 of CORPUS, a
// JSONL file of scripts/gen_corpus.py, generated when not given, and calls written here: each
// kind of repair and rejection, and integers beyond 2^53, to a tool
// added here, that come back as BigInt) and posts
// its verdicts back; they must equal, line for line, those of the package under Node.js.
//
// Chromium is CHROMIUM, or `chromium`, `chromium-browser` or `google-chrome` on the PATH; without
// one this fails (.ci/run installs it). Chromium gets 60 s.

import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

import { ToolSet } from "../../dist/node.js";
import { decodeCalls, encodeCalls, verdicts } from "./verdicts.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const pkg = resolve(here, "../..");
const workspace = resolve(pkg, "..");

function chromium() {
  const names = process.env.CHROMIUM
    ? [process.env.CHROMIUM]
    : ["chromium", "chromium-browser", "google-chrome"];
  for (const name of names) {
    if (spawnSync(name, ["--version"], { stdio: "ignore" }).status === 0) return name;
  }
  console.error(
    `no Chromium: none of ${names.join(", ")} runs. Install it ` +
      "(Debian: apt-get install --no-install-recommends chromium, as .ci/run does) or set CHROMIUM.",
  );
  process.exit(2);
}

function corpusCalls() {
  let file = process.argv[2];
  let scratch;
  if (!file) {
    scratch = mkdtempSync(join(tmpdir(), "toolargs-browser-"));
    file = join(scratch, "refund.jsonl");
    const gen = spawnSync("python3", [join(workspace, "scripts/gen_corpus.py"), "40", file], {
      stdio: "inherit",
    });
    if (gen.status !== 0) throw new Error("scripts/gen_corpus.py failed");
  }
  const calls = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .slice(0, 40)
    .map((l) => JSON.parse(l))
    .filter((r) => typeof r.tool === "string" && r.arguments != null)
    .map((r) => [r.tool, r.arguments]);
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  return calls;
}

const R = (args) => ["issue_refund", args];
const written = [
  R('{"order_id": "ord_AbCd1234", "amount_cents": 1999, "reason": "late"}'),
  R(
    '{"order_id": "ord_AbCd1234", "amount_cents": "1999", "reason": "LATE", "notify_customer": "true"}',
  ),
  R('{"order_id": "ord_AbCd1234", "amount_cents": 1999.0, "reason": "late", "tags": "vip"}'),
  R('```json\n{"order_id": "ord_AbCd1234", "amount_cents": 5, "reason": "other"}\n```'),
  R('"{\\"order_id\\": \\"ord_AbCd1234\\", \\"amount_cents\\": 5, \\"reason\\": \\"other\\"}"'),
  R('{"order_id": "ord_AbCd1234", "amount_cents": "19.99", "reason": "late", "note": "sorry"}'),
  R('{"order_id": "ord_AbCd1234", "amount_cents": 1999, "amount_cents": 2000, "reason": "late"}'),
  R(
    '{"order_id": "ord_AbCd1234", "amount_cents": 0, "reason": "late", "effective_date": "2026-13-01"}',
  ),
  R('{"order_id": "nope", "amount_cents": 12345678901234567890, "reason": "late"}'),
  R('{"order_id": "ord_AbCd1234", "amount_cents": 1e400, "reason": "late"}'),
  R('{"order_id": "ord_AbCd1234", "amount_cents": 1999, "reason": "late"'),
  R("not json"),
  R(""),
  R({ order_id: "ord_AbCd1234", amount_cents: "1999", reason: "damaged" }),
  R({ order_id: "ord_AbCd1234", amount_cents: 12345678901234567890n, reason: "late" }),
  R({ order_id: "ord_AbCd1234", amount_cents: NaN, reason: "late" }),
  ["search_orders", '{"query": "ord_AbCd1234", "limit": "10"}'],
  [
    "search_orders",
    '{"query": "x", "limit": 12345678901234567890, "cursor": 98765432109876543210}',
  ],
  ["search_orders", '{"query": "x", "page_token": 9007199254740993}'],
  ["search_orders", '{"query": 42}'],
  ["ledger_entry", '{"entry": 12345678901234567890}'],
  [
    "ledger_entry",
    '{"entry": "-9223372036854775808", "ids": [9007199254740993, "18446744073709551615"]}',
  ],
  ["ledger_entry", '{"entry": 9007199254740991, "ids": [1.0, "2"]}'],
  ["ledger_entry", '{"entry": 123456789012345678901234567890}'],
  ["ledger_entry", { entry: 2n ** 63n, ids: [1n, 2 ** 60] }],
];

// The refund tools, and one whose integers have no bounds (the BigInt calls).
const refund = JSON.parse(
  readFileSync(join(workspace, "toolargs-cli/tests/data/tools.json"), "utf8"),
);
refund.tools.push({
  name: "ledger_entry",
  inputSchema: {
    type: "object",
    properties: { entry: { type: "integer" }, ids: { type: "array", items: { type: "integer" } } },
    required: ["entry"],
    additionalProperties: false,
  },
});
const definitions = JSON.stringify(refund);
const calls = [...corpusCalls(), ...written];
// Sent to the page as JSON; Node.js judges what the page decodes from it.
const sent = encodeCalls(calls);
const expected = verdicts(ToolSet, definitions, decodeCalls(sent));

const browserEntry = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).exports["."]
  .browser.default;
const page = `<!doctype html><meta charset="utf-8"><title>toolargs</title>
<script type="importmap">${JSON.stringify({ imports: { toolargs: browserEntry.slice(1) } })}</script>
<script type="module" src="/test/browser/page.mjs"></script>`;
const TYPES = {
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".json": "application/json",
  ".wasm": "application/wasm",
};

let done;
const outcome = new Promise((r) => (done = r));
const served = [];
const server = createServer((req, res) => {
  const path = new URL(req.url, "http://x").pathname;
  if (req.method === "POST") {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      res.end("ok");
      done({ path, body });
    });
    return;
  }
  served.push(path);
  if (path === "/") {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    return res.end(page);
  }
  if (path === "/calls.json") {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(sent);
  }
  if (path === "/tools.json") {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(definitions);
  }
  const file = normalize(join(pkg, decodeURIComponent(path)));
  const allowed = ["dist", join("test", "browser")].some((d) =>
    file.startsWith(join(pkg, d) + sep),
  );
  let bytes;
  try {
    bytes = allowed ? readFileSync(file) : null;
  } catch {}
  if (!bytes) {
    res.writeHead(404);
    return res.end();
  }
  res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
  res.end(bytes);
});
// @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
await new Promise((r) => server.listen(0, "127.0.0.1", r));
// @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
const url = `http://127.0.0.1:${server.address().port}/`;

const command = chromium();
const profile = mkdtempSync(join(tmpdir(), "toolargs-chromium-"));
const browser = spawn(
  command,
  [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--no-default-browser-check",
    `--user-data-dir=${profile}`,
    url,
  ],
  { detached: true, stdio: ["ignore", "ignore", "pipe"] },
);
let log = "";
browser.stderr.on("data", (c) => (log += c));
browser.on("exit", (code) => done({ path: "/exit", body: `Chromium exited (${code}):\n${log}` }));
const timer = setTimeout(
  () => done({ path: "/timeout", body: `no verdicts after 60 s:\n${log}` }),
  60_000,
);

const { path, body } = await outcome;
clearTimeout(timer);
// @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
const exited = new Promise((r) => (browser.exitCode === null ? browser.on("exit", r) : r()));
try {
  process.kill(-browser.pid, "SIGKILL");
} catch {}
server.close();
server.closeAllConnections?.();
await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
rmSync(profile, { recursive: true, force: true, maxRetries: 3 });

if (path !== "/result") {
  console.error(`Chromium: ${path}: ${body}`);
  process.exit(1);
}
const { userAgent, lines } = JSON.parse(body);
const failures = [];
for (let i = 0; i < Math.max(lines.length, expected.length); i++) {
  if (lines[i] !== expected[i]) {
    failures.push(
      `${JSON.stringify(calls[i]?.[1], (_, v) => (typeof v === "bigint" ? `${v}n` : v))}\n  browser: ${lines[i]}\n  Node.js: ${expected[i]}`,
    );
  }
}
if (!served.includes("/dist/toolargs_js_bg.wasm")) failures.push("the module was not fetched");
if (failures.length) {
  console.error(`verdicts that differ:\n${failures.join("\n")}`);
  process.exit(1);
}
const count = (f) => expected.filter((l) => f(JSON.parse(l))).length;
console.log(
  `${userAgent.match(/(Headless)?Chrome\/[\d.]+/)?.[0]}: ${lines.length} calls, the same verdicts as Node.js ` +
    `(${count((v) => v.ok && v.repairs.length === 0)} clean, ${count((v) => v.ok && v.repairs.length)} repaired, ` +
    `${count((v) => !v.ok)} rejected, ${count((v) => v.bigint)} with a BigInt)`,
);
