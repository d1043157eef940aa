// The Node.js side of the differential test (`tests/npm.rs`): judges calls with the package and
// writes each verdict, for the Rust side to compare with `Spec::parse` on the same definition
// and text.
//
//   node test/differential.mjs SETS CASES OUT
//
// SETS is a JSON array of tool lists, each as JSON text; CASES has one call a line,
// `{"set": INDEX, "tool": NAME, "text": ARGUMENTS}`. OUT gets one line per set
// (`{"names", "unchecked"}`), then one per call: `{"parse": VERDICT, "stream": VERDICT}`, the
// verdict of `tools.parse` and of the call streamed in pieces of 7 UTF-16 units, each
// `{"ok", "arguments", "repairs", "errors", "model"}` with every BigInt written in its digits.

import { readFileSync, writeFileSync } from "node:fs";

import { ToolSet } from "toolargs";

const [setsFile, casesFile, outFile] = process.argv.slice(2);
const sets = JSON.parse(readFileSync(setsFile, "utf8")).map((text) => new ToolSet(text));
const out = sets.map((tools) => JSON.stringify({ names: tools.names, unchecked: tools.unchecked }));

const BIG = "\u0000big:";
const write = (value) =>
  JSON.stringify(value, (_, v) => (typeof v === "bigint" ? `${BIG}${v}` : v)).replace(
    /"\\u0000big:(-?\d+)"/g,
    "$1",
  );
const verdict = (r) => ({
  ok: r.ok,
  arguments: r.arguments,
  repairs: r.repairs,
  errors: r.errors,
  model: r.forModel(),
});

for (const line of readFileSync(casesFile, "utf8").split("\n")) {
  if (line === "") continue;
  const { set, tool, text } = JSON.parse(line);
  const tools = sets[set];
  const parsed = tools.parse(tool, text);
  const stream = tools.get(tool).stream();
  for (let i = 0; i < text.length; i += 7) stream.feed(text.slice(i, i + 7));
  out.push(write({ parse: verdict(parsed), stream: verdict(stream.finish()) }));
}
writeFileSync(outFile, out.join("\n") + "\n");
