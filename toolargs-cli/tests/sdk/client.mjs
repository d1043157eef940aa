// The official MCP TypeScript SDK as the client of `toolargs gate`: the checks of client.py,
// from the same `scenarios.json`, with `Client` and `StdioClientTransport`.
//
// Usage: node client.mjs CONTEXT (the JSON object client.py takes). It runs from the npm
// project that installed the SDK, so that its imports resolve there.

import { existsSync, openSync, closeSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";

const CLIENT = "node";
const MISSING = Symbol("missing");

function substitute(value, context) {
  if (typeof value === "string") {
    for (const key of ["venv", "node_modules", "sdk", "repo"]) {
      value = value.replaceAll(`{${key}}`, String(context[key]));
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, context));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, context)]));
  }
  return value;
}

function readText(path) {
  return path && existsSync(path) ? readFileSync(path, "utf8") : "";
}

// The JSON lines appended to a state file between two reads of it.
function newRecords(before, after) {
  if (!after.startsWith(before)) return [];
  const records = [];
  for (const line of after.slice(before.length).split("\n")) {
    try {
      if (line.trim()) records.push(JSON.parse(line));
    } catch {
      // Not a record.
    }
  }
  return records;
}

function normalized(result) {
  // An absent `isError` means false; the two sides must not differ on how it is written.
  return { ...result, isError: result.isError === true };
}

// One session with `server`, `side` "gated" or "direct": the tool list and each step's
// result, with what the call did to the server's state file.
async function session(name, server, side, context) {
  let command = substitute(server.command, context);
  const env = { ...getDefaultEnvironment() };
  let state = null;
  if (server.state_env) {
    state = join(context.run, `${CLIENT}-${name}-${side}.state`);
    env[server.state_env] = state;
  }
  const log = join(context.run, `${CLIENT}-${name}.verdicts.jsonl`);
  if (side === "gated") command = [context.gate, "gate", "--log", log, "--", ...command];
  const stderr = openSync(join(context.run, `${CLIENT}-${name}-${side}.stderr`), "w");
  const transport = new StdioClientTransport({ command: command[0], args: command.slice(1), env, stderr });
  const client = new Client({ name: "toolargs-sdk-test", version: "1.0.0" });
  const steps = [];
  let tools;
  try {
    await client.connect(transport);
    tools = await client.listTools();
    for (const step of server.steps) {
      const before = readText(state);
      let result;
      try {
        result = normalized(
          await client.callTool({ name: step.tool, arguments: substitute(step.arguments, context) }, undefined, {
            timeout: 60000,
          }),
        );
      } catch (error) {
        // A JSON-RPC error, or the SDK refusing a reply.
        result = { exception: `${error?.name}: ${error?.message}` };
      }
      const after = readText(state);
      steps.push({ result, changed: before !== after, records: newRecords(before, after) });
    }
  } finally {
    await client.close();
    closeSync(stderr);
  }
  const verdicts =
    side === "gated"
      ? readText(log)
          .split("\n")
          .filter((line) => line.trim())
          .map((line) => JSON.parse(line))
      : [];
  return { tools, steps, verdicts };
}

function field(value, path) {
  for (const key of path.split(".")) {
    if (!value || typeof value !== "object" || !(key in value)) return MISSING;
    value = value[key];
  }
  return value;
}

// The gate's `{"ok": false, "errors": [...]}`: the structured content, or the text.
function rejectionBody(result) {
  if ("structuredContent" in result) return result.structuredContent ?? {};
  try {
    return JSON.parse(result.content[0].text);
  } catch {
    return {};
  }
}

const failedCall = (result) => "exception" in result || result.isError === true;
const text = (value) => JSON.stringify(value);

// The failures of one step, as sentences.
function checkStep(step, index, gated, direct, byName) {
  const failures = [];
  const g = gated.steps[index];
  const d = direct.steps[index];
  const verdict = gated.verdicts[index] ?? {};
  const expected = step.gate;
  if (verdict.tool !== step.tool || verdict.outcome !== expected) {
    failures.push(`the gate's log says ${text(verdict)}, expected ${expected} for ${step.tool}`);
  }
  if (step.rules && !isDeepStrictEqual(verdict.rules, step.rules)) {
    failures.push(`repairs ${text(verdict.rules)}, expected ${text(step.rules)}`);
  }
  if (step.codes && !isDeepStrictEqual(verdict.codes, step.codes)) {
    failures.push(`error codes ${text(verdict.codes)}, expected ${text(step.codes)}`);
  }
  const result = g.result;
  if (expected === "rejected") {
    const body = rejectionBody(result);
    const codes = (body.errors ?? []).map((e) => e.error);
    if (result.isError !== true || body.ok !== false) {
      failures.push(`a rejection is an isError result with ok: false, got ${text(result)}`);
    }
    if (step.codes && !isDeepStrictEqual(codes, step.codes)) {
      failures.push(`the rejection has codes ${text(codes)}, expected ${text(step.codes)}`);
    }
    // The errors are `structuredContent` too, unless the tool declares an output schema,
    // which every `structuredContent` of its results must match.
    const typed = gated.tools.tools.some((tool) => tool.name === step.tool && "outputSchema" in tool);
    if ("structuredContent" in result === typed) {
      failures.push(
        `structuredContent ${typed ? "present" : "absent"}, the tool declares ${typed ? "an" : "no"} output schema: ${text(result)}`,
      );
    }
    if (g.changed || g.records.length) failures.push("the rejected call reached the server: its state changed");
  } else if ("exception" in result) {
    failures.push(`the gated call failed: ${result.exception}`);
  }
  const same = step.same ?? (expected === "clean" ? "result" : "none");
  if (same === "result" && !isDeepStrictEqual(g.result, d.result)) {
    failures.push(`gated and direct results differ:\n  gated  ${text(g.result)}\n  direct ${text(d.result)}`);
  }
  if (same === "fields") {
    for (const path of step.fields) {
      const gv = field(g.result, path);
      const dv = field(d.result, path);
      if (gv === MISSING || !isDeepStrictEqual(gv, dv)) {
        failures.push(`${path}: gated ${String(text(gv))}, direct ${String(text(dv))}`);
      }
    }
  }
  if (step.same_as) {
    const other = gated.steps[byName[step.same_as]].result;
    if (!isDeepStrictEqual(result, other)) {
      failures.push(`gated result differs from "${step.same_as}"'s:\n  ${text(result)}\n  ${text(other)}`);
    }
  }
  if (step.direct) {
    const accepted = !failedCall(d.result);
    if (accepted !== (step.direct === "accepted")) {
      failures.push(`directly, expected the server to say ${step.direct}: ${text(d.result)}`);
    }
  }
  for (const [side, outcome] of Object.entries(step.state ?? {})) {
    const changed = (side === "gated" ? g : d).changed;
    if (changed !== (outcome === "changed")) {
      failures.push(`${side}: the server's state is ${changed ? "changed" : "unchanged"}, expected ${outcome}`);
    }
  }
  for (const [side, args] of Object.entries(step.received ?? {})) {
    const got = (side === "gated" ? g : d).records.map((record) => record.arguments);
    if (!isDeepStrictEqual(got, [args])) failures.push(`${side}: the tool received ${text(got)}, expected [${text(args)}]`);
  }
  for (const [key, wanted] of [
    ["includes", true],
    ["excludes", false],
  ]) {
    for (const [side, pieces] of Object.entries(step[key] ?? {})) {
      const written = text((side === "gated" ? g : d).result);
      for (const piece of pieces) {
        if (written.includes(piece) !== wanted) {
          failures.push(`${side}: the result ${wanted ? "lacks" : "holds"} "${piece}": ${written}`);
        }
      }
    }
  }
  return failures;
}

// One line saying how a call was answered.
function describe(result) {
  let said;
  if ("exception" in result) said = `error: ${result.exception}`;
  else if (result.isError) said = `isError: ${(result.content ?? []).map((c) => c.text ?? "").join(" ")}`;
  else return "accepted";
  return said.split(/\s+/).join(" ").slice(0, 160);
}

const context = JSON.parse(process.argv[2]);
const scenarios = JSON.parse(readFileSync(join(context.sdk, "scenarios.json"), "utf8"));
const names = context.servers ?? Object.keys(scenarios.servers);
let cases = 0;
const failures = [];
for (const name of names) {
  const server = scenarios.servers[name];
  // Gated first, as client.py does.
  const gated = await session(name, server, "gated", context);
  const direct = await session(name, server, "direct", context);
  console.log(`== ${CLIENT} client, ${name} server`);
  cases += 1;
  const sameTools = isDeepStrictEqual(gated.tools, direct.tools);
  if (!sameTools) failures.push(`${name}: the tool lists differ:\n  gated  ${text(gated.tools)}\n  direct ${text(direct.tools)}`);
  console.log(`  tools/list: ${direct.tools.tools.length} tools, gated == direct: ${sameTools}`);
  cases += 1;
  if (gated.verdicts.length !== server.steps.length) {
    failures.push(`${name}: ${gated.verdicts.length} verdicts logged for ${server.steps.length} calls`);
  }
  const byName = Object.fromEntries(server.steps.map((step, i) => [step.name, i]));
  server.steps.forEach((step, index) => {
    cases += 1;
    const found = checkStep(step, index, gated, direct, byName);
    const verdict = gated.verdicts[index] ?? {};
    const detail = verdict.rules?.length ? verdict.rules : verdict.codes?.length ? verdict.codes : "";
    console.log(
      `  ${found.length ? "FAIL" : "ok  "} ${step.name}: gate ${verdict.outcome} ${detail && text(detail)}; direct ${describe(direct.steps[index].result)}`,
    );
    failures.push(...found.map((failure) => `${name}: ${step.name}: ${failure}`));
  });
}
console.log(`${CLIENT} client: ${cases} cases, ${failures.length} failures`);
for (const failure of failures) console.log(`FAILED ${failure}`);
process.exit(failures.length ? 1 : 0);
