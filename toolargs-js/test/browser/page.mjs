// Runs in Chromium (`index.html`): the package's `browser` entry, through the import map
// `run.mjs` writes from package.json, judges the calls of `/calls.json` (to the tools of `/tools.json`) and posts the verdicts
// back to `/result` (or what went wrong to `/error`).
import { ToolSet } from "toolargs";

import { decodeCalls, verdicts } from "./verdicts.mjs";

try {
  const definitions = await (await fetch("/tools.json")).text();
  const calls = decodeCalls(await (await fetch("/calls.json")).text());
  const lines = verdicts(ToolSet, definitions, calls);
  await fetch("/result", {
    method: "POST",
    body: JSON.stringify({ userAgent: navigator.userAgent, lines }),
  });
} catch (e) {
  await fetch("/error", { method: "POST", body: String(e?.stack ?? e) });
}
