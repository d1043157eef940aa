// JavaScript values as the JSON text the gate reads, and the gate's documents back as values.
// Nothing here decides anything about the arguments: a value is written as exactly the JSON it
// stands for, and what JSON cannot carry is named, for the gate to reject.

/** Thrown by `writeJson` for a value that is not JSON: where (`steps`) and what was found. */
export class NotJson {
  constructor(
    readonly steps: (string | number)[],
    readonly what: string,
  ) {}
}

/**
 * Writes `value` as JSON text:
 *
 * - a number as the double it is: an integer within ±(2^53 − 1) in its digits, any other
 *   integral double as every digit of its exact value and `.0` (a float to the gate:
 *   `1152921504606846976.0` for `2 ** 60`, where `JSON.stringify` writes another integer,
 *   `1152921504606847000`), any other finite number as the shortest text that reads back as
 *   the same double (`String(x)`), and `NaN` and `±Infinity` as the tokens the gate rejects
 *   (`non_finite_number`), where `JSON.stringify` writes `null`;
 * - a `BigInt` in all its digits;
 * - a string as `JSON.stringify` writes it (a lone surrogate as its `\u` escape, which the gate
 *   rejects);
 * - arrays, and plain objects (those whose prototype is `Object.prototype`, of any realm, or
 *   `null`) member by member in `Object.keys` order; a member whose value is `undefined` is
 *   left out, as `JSON.stringify` leaves it out.
 *
 * Anything else (`undefined` elsewhere, a function, a symbol, a `Date`, a `Map`, a class
 * instance, a value whose getter throws) throws `NotJson` with its path. Past `maxDepth`
 * levels one more empty level is written and the walk stops, and past `maxBytes` characters
 * nothing more is written: the gate then answers `too_deep` or `too_large`, as it answers
 * text, and a value that holds itself ends.
 */
export function writeJson(value: unknown, maxDepth: number, maxBytes: number): string {
  const steps: (string | number)[] = [];
  let out = "";

  const write = (v: unknown, depth: number): void => {
    if (out.length > maxBytes) return;
    switch (typeof v) {
      case "string":
        out += JSON.stringify(v);
        return;
      case "number":
        out += number(v);
        return;
      case "boolean":
        out += v ? "true" : "false";
        return;
      case "bigint":
        out += v.toString();
        return;
      case "object":
        break;
      default:
        throw new NotJson(steps.slice(), `${describe(v)} is not JSON`);
    }
    if (v === null) {
      out += "null";
      return;
    }
    if (depth > maxDepth) {
      out += "[]";
      return;
    }
    if (Array.isArray(v)) {
      out += "[";
      const length = v.length;
      for (let i = 0; i < length && out.length <= maxBytes; i++) {
        if (i > 0) out += ",";
        steps.push(i);
        const item = v[i];
        if (item === undefined) {
          throw new NotJson(steps.slice(), "an `undefined` item is not JSON");
        }
        write(item, depth + 1);
        steps.pop();
      }
      out += "]";
      return;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== null && Object.getPrototypeOf(proto) !== null) {
      throw new NotJson(steps.slice(), `${describe(v)} is not JSON`);
    }
    out += "{";
    let first = true;
    for (const key of Object.keys(v)) {
      if (out.length > maxBytes) break;
      steps.push(key);
      const item = (v as Record<string, unknown>)[key];
      if (item !== undefined) {
        if (!first) out += ",";
        first = false;
        out += JSON.stringify(key);
        out += ":";
        write(item, depth + 1);
      }
      steps.pop();
    }
    out += "}";
  };

  try {
    write(value, 1);
  } catch (e) {
    if (e instanceof NotJson) throw e;
    // A getter or a proxy that throws: the value cannot be read, so it is not JSON.
    throw new NotJson(steps.slice(), `a value that throws ${errorName(e)} when read`);
  }
  return out;
}

function number(x: number): string {
  if (Number.isSafeInteger(x)) return String(x);
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  // An integral double beyond 2^53 − 1: every digit of its exact value, as a float (`String`
  // writes the shortest digits that read back as the same double, which as an integer are
  // another number: 2 ** 60 is 1152921504606846976, not 1152921504606847000).
  if (Number.isInteger(x)) return `${BigInt(x)}.0`;
  return String(x);
}

function describe(v: unknown): string {
  if (v === undefined) return "`undefined`";
  if (typeof v === "function") return "a function";
  if (typeof v === "symbol") return "a symbol";
  let name: unknown;
  try {
    name = (v as { constructor?: { name?: unknown } }).constructor?.name;
  } catch {
    name = undefined;
  }
  return typeof name === "string" && name !== ""
    ? `a value of type \`${name}\``
    : "an object that is not a plain object";
}

function errorName(e: unknown): string {
  try {
    return e instanceof Error ? e.name : typeof e;
  } catch {
    return "an error";
  }
}

/**
 * A document of the gate (`{"v": VALUE, "big": [PATH, ...]}`) as the value it holds: each
 * integer listed in `big` (written there as its digits in a string) becomes a `BigInt`.
 */
export function readDocument(text: string): unknown {
  const doc: { v: unknown; big: (string | number)[][] } = JSON.parse(text);
  for (const path of doc.big) makeBig(doc, ["v", ...path]);
  return doc.v;
}

/** Makes a `BigInt` of the integer written as its digits at `path` (keys and indices) from
 * `holder` down; the path has at least one step. */
export function makeBig(holder: object, path: readonly (string | number)[]): void {
  // biome-ignore lint/suspicious/noExplicitAny: a walk down a decoded JSON document.
  let parent: any = holder;
  for (let i = 0; i < path.length - 1; i++) parent = parent[path[i] as string];
  const last = path[path.length - 1] as string;
  parent[last] = BigInt(parent[last]);
}

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `text` is valid Unicode: no lone surrogate, so that UTF-8 holds it exactly. */
export const wellFormed: (text: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === "function"
    ? (text) => (text as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (text) => !LONE.test(text);

/**
 * `text` in UTF-8, with each lone surrogate in the three bytes of its code unit (WTF-8): not
 * UTF-8, so the gate rejects it as it rejects any text that is not, where an encoder would
 * have put U+FFFD in its place.
 */
export function wtf8(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 3);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      out[n++] = c;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
    } else if (c < 0x10000) {
      out[n++] = 0xe0 | (c >> 12);
      out[n++] = 0x80 | ((c >> 6) & 0x3f);
    } else {
      out[n++] = 0xf0 | (c >> 18);
      out[n++] = 0x80 | ((c >> 12) & 0x3f);
      out[n++] = 0x80 | ((c >> 6) & 0x3f);
    }
    out[n++] = 0x80 | (c & 0x3f);
  }
  return out.subarray(0, n);
}
