// toolargs against JSON.parse + ajv and zod 4, and a session against its set, on the refund
// corpus (BENCHMARKS.md):
//
//   bash scripts/corpus.sh 5000                   # from the workspace: target/corpus/refund.jsonl
//   cd toolargs-js && npm run build && (cd bench && npm ci) && node bench/bench.mjs [CORPUS]
//
// Each judges every call of the corpus from its JSON text (a call logged decoded is written
// with JSON.stringify) and, when it accepts the call, gives its arguments as a value:
// `spec.parse(text)` (its `arguments`, and for the count its `repairs`); ajv (compiled once,
// with ajv-formats) on `JSON.parse(text)`; zod's `safeParse(JSON.parse(text))` with the same
// schema written in zod. Then, on the calls the schema accepts (a corpus of independent calls
// is no conversation: after a rejected one, each would be judged its correction), the calls
// in a set (`toolset.parse(name, text)`) and in one session over it (`session.parse(name,
// text)`, then `session.executed` for each call it lets run, as the framework entries do),
// the refund's amount declared money in US cents: each call weighed, fingerprinted and
// recorded (no duplicate window, so that every round judges alike); and in a session over a
// set with no meaning declared, where the schema alone decides.
// A text JSON.parse refuses is a rejection. The time per call is the median of ROUNDS rounds
// over the whole corpus, the contenders interleaved in each round, after WARMUP rounds of warm-up
// (V8 compiles a WebAssembly function with its optimising compiler only once it has run a
// while: here about 35 000 calls, seven rounds, until which a call takes twice as long), by
// the wall clock or (CLOCK=cpu) the process's CPU time, which counts V8's helper threads (the
// collection of any contender's garbage among them); ratios are medians of each round's. Then
// where toolargs' time goes: a call into the module that does nothing, copying the text in,
// the gate in the module, and the result made in JavaScript: from a tape for the accepted
// calls, from the verdict's text (copied out, then parsed) for the others.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";

import { Spec, ToolSet } from "../dist/node.js";
import { verdictStart, verdictText, writeInput } from "../dist/io.js";
import { maxDepth, Spec as NativeSpec } from "../dist/toolargs_js.js";

const require = createRequire(import.meta.url);
const decoder = new TextDecoder();
const Ajv = require("ajv");
const addFormats = require("ajv-formats");
const { z } = await import("zod");

const here = dirname(fileURLToPath(import.meta.url));
const workspace = resolve(here, "../..");
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const WARMUP = Number(process.env.WARMUP ?? 10);

const corpusFile = process.argv[2] ?? join(workspace, "target/corpus/refund.jsonl");
const texts = readFileSync(corpusFile, "utf8")
  .split("\n")
  .filter((l) => l !== "")
  .map((l) => JSON.parse(l))
  .filter((r) => r.tool === "issue_refund" && r.arguments != null)
  .map((r) => (typeof r.arguments === "string" ? r.arguments : JSON.stringify(r.arguments)));

const tools = JSON.parse(
  readFileSync(join(workspace, "toolargs-cli/tests/data/tools.json"), "utf8"),
);
const definition = tools.tools.find((t) => t.function?.name === "issue_refund");
const schema = definition.function.parameters;

const spec = new Spec(definition);
const meaning = { issue_refund: { amount_cents: { semantic: "money", currency: "USD", minor_units: true, critical: true } } };
const toolset = new ToolSet([definition], { meaning });
const session = toolset.session({ duplicateWindowMs: 0 });
const plainSession = new ToolSet([definition]).session();
const ajv = new Ajv.default({ allErrors: false });
addFormats.default(ajv);
const validate = ajv.compile(schema);
const zodSchema = z.strictObject({
  order_id: z.string().regex(/^ord_[A-Za-z0-9]{8}$/),
  amount_cents: z.number().int().min(1).max(50000),
  notify_customer: z.boolean().default(false),
  reason: z.enum(["damaged", "late", "duplicate", "other"]),
  tags: z.array(z.string()).default([]),
  effective_date: z.iso.date().optional(),
});

// Each returns 0 (accepted as sent), 1 (repaired) or 2 (rejected).
const contenders = {
  toolargs: (text) => {
    const r = spec.parse(text);
    return r.ok ? (r.arguments === null ? 3 : r.repairs.length ? 1 : 0) : 2;
  },
  "JSON.parse + ajv": (text) => {
    let value;
    try {
      value = JSON.parse(text);
    } catch {
      return 2;
    }
    return validate(value) ? 0 : 2;
  },
  "zod 4": (text) => {
    let value;
    try {
      value = JSON.parse(text);
    } catch {
      return 2;
    }
    return zodSchema.safeParse(value).success ? 0 : 2;
  },
  "toolset.parse": (text) => {
    const r = toolset.parse("issue_refund", text);
    return r.ok ? (r.repairs.length ? 1 : 0) : 2;
  },
  "session.parse": (text) => {
    const r = session.parse("issue_refund", text);
    if (r.decision !== "proceed" && r.decision !== "proceed_and_report") return 2;
    session.executed("issue_refund", r.arguments);
    return r.repairs.length ? 1 : 0;
  },
  "session, no meaning": (text) => {
    const r = plainSession.parse("issue_refund", text);
    if (r.decision !== "proceed") return 2;
    plainSession.executed("issue_refund", r.arguments);
    return r.repairs.length ? 1 : 0;
  },
};

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
let sink = 0;
// CLOCK=cpu: the process's CPU time (user and system, all its threads) instead of the wall
// clock, for a machine where other work competes for the cores.
const cpu = process.env.CLOCK === "cpu";
function time(f, items) {
  if (cpu) {
    const start = process.cpuUsage();
    for (const item of items) sink += f(item) | 0;
    const used = process.cpuUsage(start);
    return ((used.user + used.system) * 1000) / items.length;
  }
  const start = process.hrtime.bigint();
  for (const item of items) sink += f(item) | 0;
  return Number(process.hrtime.bigint() - start) / items.length;
}
// Each entry is a name, a function and the items it runs on, when not `items`.
function bench(entries, items, rounds = ROUNDS) {
  const ns = Object.fromEntries(entries.map(([name]) => [name, []]));
  for (let round = 0; round < WARMUP; round++) for (const [, f, own] of entries) time(f, own ?? items);
  for (let round = 0; round < rounds; round++) {
    // Interleaved, starting with another each round.
    for (let i = 0; i < entries.length; i++) {
      const [name, f, own] = entries[(round + i) % entries.length];
      ns[name].push(time(f, own ?? items));
    }
  }
  return Object.fromEntries(Object.entries(ns).map(([k, v]) => [k, median(v)]));
}
// Each contender runs in a worker thread of its own (its own heap and compiled code, so that
// none runs on what another left: V8 shares the hidden classes of objects `JSON.parse` makes
// within a thread), its passes interleaved with the others' in each round, starting with
// another each round. The ratio of the first to each is taken per round; its median.
const ask = (worker, message) =>
  new Promise((answer) => {
    worker.once("message", answer);
    worker.postMessage(message);
  });
/** The contenders timed on the calls the schema accepts alone. */
const ON_ACCEPTED = new Set(["toolset.parse", "session.parse", "session, no meaning"]);
if (!isMainThread) {
  const f = contenders[workerData];
  const items = ON_ACCEPTED.has(workerData) ? texts.filter((text) => spec.parse(text).ok) : texts;
  parentPort.on("message", (message) => {
    if (message === "count") {
      const c = [0, 0, 0];
      for (const text of items) c[f(text)]++;
      parentPort.postMessage(c);
    } else {
      parentPort.postMessage(time(f, items));
    }
  });
} else {
  await main();
}

async function benchRatios(workers, rounds = ROUNDS) {
  const ns = workers.map(() => []);
  for (let round = 0; round < WARMUP; round++) for (const worker of workers) await ask(worker, "time");
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < workers.length; i++) {
      const j = (round + i) % workers.length;
      ns[j].push(await ask(workers[j], "time"));
    }
  }
  return ns.map((mine, j) => ({
    ns: median(mine),
    ratio: median(ns[0].map((v, r) => v / mine[r])),
    rounds: mine,
  }));
}

async function main() {
  const names = Object.keys(contenders);
  const workers = names.map(
    (name) => new Worker(new URL(import.meta.url), { workerData: name, argv: process.argv.slice(2) }),
  );
  const counts = Object.fromEntries(
    await Promise.all(names.map(async (name, j) => [name, await ask(workers[j], "count")])),
  );
  const results = (await benchRatios(workers)).map((r, j) => ({ name: names[j], ...r }));
  await Promise.all(workers.map((worker) => worker.terminate()));

  // Where toolargs' time goes, each over the corpus or the part of it named: the module's
  // own calls, as `spec.parse` makes them (`js/io.js`). An accepted call comes back as a tape
  // its arguments and repairs are made from (`js/tape.js`); a rejection, as text.
  const native = NativeSpec.load(JSON.stringify(definition), undefined, undefined);
  const tiny = new Spec({ type: "object" });
  const tinyNative = NativeSpec.load('{"type": "object"}', undefined, undefined);
  // Every code the module gives must be read, or the wrapper loses track of its verdicts.
  const moduleParse = (nativeSpec, text) => {
    const length = writeInput(text);
    const code = nativeSpec.parseInput(length, length === text.length);
    verdictStart(code);
    return code;
  };
  const items = texts.map((text) => {
    const code = moduleParse(native, text);
    const document = (code & 3) === 3 ? "" : verdictText(code);
    return { text, kind: code & 3, document, bytes: new TextEncoder().encode(document) };
  });
  const taped = items.filter(({ kind }) => kind === 3);
  const written = items.filter(({ kind }) => kind !== 3);
  const parts = bench(
    [
      ["spec.parse(text), as above", ({ text }) => (spec.parse(text).ok ? 1 : 0)],
      ["a call into the module that does nothing (maxDepth())", () => maxDepth()],
      ['spec.parse("{}") for {type: "object"}', () => (tiny.parse("{}").ok ? 1 : 0)],
      ["  the module's parse of it", () => moduleParse(tinyNative, "{}")],
      ["the module's parse: text in, gate, verdict kept", ({ text }) => moduleParse(native, text)],
      ["  copying in: the text written into the module", ({ text }) => writeInput(text)],
      [
        `the ${taped.length} calls with a tape: spec.parse(text)`,
        ({ text }) => (spec.parse(text).ok ? 1 : 0),
        taped,
      ],
      ["  the module's parse of them", ({ text }) => moduleParse(native, text), taped],
      [
        `the ${written.length} verdicts as text: copying out (TextDecoder)`,
        ({ bytes }) => decoder.decode(bytes).length,
        written,
      ],
      [
        "  the accepted arguments' JSON.parse",
        ({ kind, document }) =>
          kind !== 2
            ? JSON.parse(document.slice(0, (document.indexOf("\n") + 1 || document.length + 1) - 1)) === null
              ? 0
              : 1
            : 0,
        written,
      ],
    ],
    items,
  );

  console.log(
    `${texts.length} calls of ${corpusFile}, median of ${ROUNDS} rounds after ${WARMUP} of warm-up, ` +
      `${cpu ? "CPU time" : "wall clock"}, ` +
      `each contender in a worker thread of its own, Node.js ${process.version}`,
  );
  for (const { name, ns, ratio } of results) {
    const [clean, repaired, rejected] = counts[name];
    const against = ON_ACCEPTED.has(name) ? "(the accepted calls)  " : `toolargs / this ${ratio.toFixed(2)}x  `;
    console.log(
      `  ${name.padEnd(20)} ${ns.toFixed(0).padStart(6)} ns/call  ${against}` +
        `accepted as sent ${clean}, repaired ${repaired}, rejected ${rejected}`,
    );
  }
  // What a session costs over its set, per round.
  const over = (name, base) => {
    const [mine, theirs] = [name, base].map((n) => results.find((r) => r.name === n).rounds);
    return median(mine.map((v, r) => v / theirs[r])).toFixed(2);
  };
  console.log(
    `session.parse / toolset.parse ${over("session.parse", "toolset.parse")}x, ` +
      `without meaning ${over("session, no meaning", "toolset.parse")}x`,
  );
  const base = results[0].ns;
  console.log(`where toolargs' ${base.toFixed(0)} ns go (ns per call):`);
  for (const [name, v] of Object.entries(parts))
    console.log(`  ${v.toFixed(0).padStart(6)}  ${name}`);
  if (sink === 0.5) console.log("");
}
