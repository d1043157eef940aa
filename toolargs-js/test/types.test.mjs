// The TypeScript declarations compile against a use of every member (`types/usage.ts`), under
// `--strict`, and reject a misuse.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
const tsc = join(pkg, "node_modules", "typescript", "bin", "tsc");
const flags = ["--ignoreConfig", "--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext", "--skipLibCheck", "false"];

function compile(file, more = []) {
  return spawnSync(process.execPath, [tsc, ...flags, ...more, file], { cwd: pkg, encoding: "utf8" });
}

test("the declarations describe every member as used", () => {
  const run = compile(join(pkg, "test", "types", "usage.ts"));
  assert.equal(run.status, 0, run.stdout + run.stderr);
});

test("the declarations of toolargs/ai, toolargs/mcp and toolargs/agents compile with the SDKs' own types", () => {
  // The SDKs' own declarations name Node.js's types and @types/json-schema, which are not
  // installed here: declaration files are not checked (the later `skipLibCheck` wins).
  const run = compile(join(pkg, "test", "types", "frameworks.ts"), ["--skipLibCheck", "true"]);
  assert.equal(run.status, 0, run.stdout + run.stderr);
});

test("and refuse what the API does not take", () => {
  const dir = mkdtempSync(join(pkg, "test", "types", "tmp-"));
  try {
    const file = join(dir, "misuse.ts");
    writeFileSync(
      file,
      [
        'import { type Code, Session, Spec } from "toolargs";',
        'import { z } from "zod";',
        'new Spec({}, { effect: "harmless" });',
        'const n: number = new Spec({}).parse("{}").ok;',
        'new Spec({}).toolDefinition("openai");',
        "new Session({ correctionPerTool: 2 });",
        'const typed = Spec.fromZod(z.object({ amount_cents: z.number() })).parse("{}");',
        "const asText: string = typed.ok ? typed.arguments.amount_cents : '';",
        'const unread: number = typed.arguments.amount_cents;',
        'const code: Code = "no_such_code";',
        "",
      ].join("\n"),
    );
    const run = compile(file);
    assert.notEqual(run.status, 0);
    assert.match(run.stdout + run.stderr, /harmless/);
    assert.match(run.stdout + run.stderr, /boolean/);
    assert.match(run.stdout + run.stderr, /"openai".*Dialect/);
    assert.match(run.stdout + run.stderr, /correctionPerTool/);
    // A zod schema's spec gives its output type, readable only once `ok` is known.
    assert.match(run.stdout + run.stderr, /Type 'number' is not assignable to type 'string'/);
    assert.match(run.stdout + run.stderr, /'typed.arguments' is possibly 'null'/);
    assert.match(run.stdout + run.stderr, /"no_such_code".*Code/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
