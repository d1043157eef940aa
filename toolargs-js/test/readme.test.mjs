// The README's example runs as written, and each line `expression;  // value` there gives that
// value.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

test("the README's example gives the values its comments show", async () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const block = /```js\n([\s\S]*?)```/.exec(readme)[1];
  let checked = 0;
  const lines = block.split("\n").map((line) => {
    const match = /^(.*?);\s+\/\/ (.*)$/.exec(line);
    if (!match) return line;
    const [, expression, comment] = match;
    // The comment starts with a value (a JavaScript literal) when it shows one.
    for (let end = comment.length; end > 0; end--) {
      try {
        new Function(`return (${comment.slice(0, end)});`);
      } catch {
        continue;
      }
      if (/^'.*\.\.\..*'$/.test(comment.slice(0, end))) break; // an elided text
      checked++;
      return `check(${expression}, (${comment.slice(0, end)}), ${JSON.stringify(line)});`;
    }
    return line;
  });
  const entry = new URL("../js/index.js", import.meta.url).href;
  const module = `const check = globalThis.__check;\n${lines.join("\n")}`.replace(
    'from "toolargs"',
    `from ${JSON.stringify(entry)}`,
  );
  globalThis.__check = (actual, expected, line) => assert.deepEqual(actual, expected, line);
  await import(`data:text/javascript,${encodeURIComponent(module)}`);
  assert.ok(checked >= 4, `${checked} lines checked`);
});
