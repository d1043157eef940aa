// The verdicts of a list of calls, each written as one line of JSON (a BigInt in all its
// digits), the same in the browser (`page.mjs`) and under Node.js (`run.mjs`), which compares
// them line by line.

const BIG = "\u0000big:";
const write = (value) =>
  JSON.stringify(value, (_, v) => (typeof v === "bigint" ? `${BIG}${v}` : v)).replace(
    /"\\u0000big:(-?\d+)"/g,
    "$1",
  );

/**
 * Calls as JSON text, `[tool, arguments]` each, the arguments JSON text or a decoded value (a
 * BigInt and NaN travel as marked strings, which `decodeCalls` turns back).
 */
export const encodeCalls = (calls) =>
  JSON.stringify(calls, (_, v) =>
    typeof v === "bigint" ? `${BIG}${v}` : Number.isNaN(v) ? "\u0000NaN" : v,
  );

export const decodeCalls = (text) =>
  JSON.parse(text, (_, v) =>
    typeof v !== "string" || !v.startsWith("\u0000")
      ? v
      : v === "\u0000NaN"
        ? NaN
        : BigInt(v.slice(BIG.length)),
  );

const hasBigInt = (v) =>
  typeof v === "bigint" ||
  (v !== null && typeof v === "object" && Object.values(v).some(hasBigInt));

/** `calls`: `[tool, arguments]`, the arguments as JSON text or a decoded value. */
export function verdicts(ToolSet, definitions, calls) {
  const tools = new ToolSet(definitions);
  return calls.map(([tool, args]) => {
    const r = tools.parse(tool, args);
    return write({
      ok: r.ok,
      arguments: r.arguments,
      repairs: r.repairs,
      errors: r.errors,
      model: r.forModel(),
      bigint: hasBigInt([r.arguments, r.repairs]),
    });
  });
}
