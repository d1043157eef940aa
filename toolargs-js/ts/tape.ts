// An accepted call's arguments and repairs made from a tape (`src/tape.rs`): places in the
// call's own text, which is ASCII, so that a place in its bytes is the same place in the
// string, and tagged values written after the tape. The values are made here, member by
// member, in the order of the tape (the declaration order `parse` gives); no JSON of them is
// written, copied out and parsed again.

import { ruleNames } from "./toolargs_js.js";
import { decode, memoryWords, verdictStart } from "./io.js";
import type { JsonObject, JsonValue, Repair } from "./types.js";

// A value's tag, then what it says (`src/tape.rs`).
const STRING = 0;
const NUMBER = 1;
const TRUE = 2;
const FALSE = 3;
const NULL = 4;
const LIST = 5;
const OBJECT = 6;
const TEXT = 7;
const NUMBER_TEXT = 8;
const BIG = 9;

/** The module's memory as words, the call's text, the next word to read and where the text
 * after the tape starts, while a tape is read. */
let words: Uint32Array;
let input = "";
let next = 0;
let textAt = 0;
/** The rules' names, read from the module when a repair first needs them. */
let rules: string[] | undefined;

/** The repairs of the tape last read by `tapeArguments`, or `null` when it has none. */
export let tapeRepairs: Repair[] | null = null;

/** The arguments of the tape verdict `code`, on the call's `text`, whose members are
 * `names`; sets `tapeRepairs`. */
export function tapeArguments(code: number, text: string | undefined, names: readonly string[]): JsonObject {
  const first = (verdictStart(code) + 3) >>> 2;
  words = memoryWords();
  textAt = (first + words[first]) * 4;
  input = text ?? "";
  next = first + 2;
  const args: JsonObject = {};
  for (let i = words[first + 1]; i > 0; i--) put(args, names[words[next++]], value());
  const count = words[next++];
  if (count === 0) {
    tapeRepairs = null;
  } else {
    if (rules === undefined) rules = JSON.parse(ruleNames()) as string[];
    const names = rules;
    const repairs: Repair[] = new Array(count);
    for (let i = 0; i < count; i++) {
      const path = value() as string;
      const rule = names[words[next++]] as Repair["rule"];
      const before = value();
      repairs[i] = { path, rule, before, after: value() };
    }
    tapeRepairs = repairs;
  }
  input = "";
  return args;
}

/** Sets `object[key]`, as `JSON.parse` would: an own member even for `__proto__`. */
function put(object: JsonObject, key: string, value: JsonValue): void {
  if (key === "__proto__") {
    const member = { value, writable: true, enumerable: true, configurable: true };
    Object.defineProperty(object, key, member);
  } else {
    object[key] = value;
  }
}

function value(): JsonValue {
  switch (words[next++]) {
    case STRING: {
      const from = words[next++];
      return input.slice(from, words[next++]);
    }
    case NUMBER:
      return integer(words[next++], words[next++]);
    case TRUE:
      return true;
    case FALSE:
      return false;
    case NULL:
      return null;
    case LIST: {
      const items: JsonValue[] = new Array(words[next++]);
      for (let i = 0; i < items.length; i++) items[i] = value();
      return items;
    }
    case OBJECT: {
      const object: JsonObject = {};
      for (let i = words[next++]; i > 0; i--) put(object, value() as string, value());
      return object;
    }
    case TEXT:
      return text();
    case NUMBER_TEXT:
      return Number(text());
    case BIG:
      return BigInt(text());
    default:
      throw new Error("toolargs: a tape holds an unknown tag");
  }
}

/** The text after the tape between the next two words. */
function text(): string {
  const from = textAt + words[next++];
  return decode(from, textAt + words[next++]);
}

/** The integer of at most 15 digits, `-` first when negative, from `from` to `to` in the
 * call's text: exact in a number. */
function integer(from: number, to: number): number {
  const negative = input.charCodeAt(from) === 45;
  let n = 0;
  for (let i = negative ? from + 1 : from; i < to; i++) n = n * 10 + (input.charCodeAt(i) - 48);
  return negative ? -n : n;
}
