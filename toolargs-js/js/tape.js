// The arguments of an accepted call made from a tape (`src/tape.rs`): places in the call's
// own text, which is ASCII, so that a place in its bytes is the same place in the string.
// The object is made here, member by member, in the order of the tape (the declaration order
// `parse` gives); no JSON of the arguments is written, copied out and parsed again.

import { decode, verdictStart, words } from "./io.js";

// A value's tag, then what it says (`src/tape.rs`).
const STRING = 0;
const NUMBER = 1;
const TRUE = 2;
const FALSE = 3;
const NULL = 4;
const LIST = 5;
const JSON_TEXT = 6;
const NO_REPAIRS = 0xffffffff;
const EMPTY = Object.freeze([]);

/** The call's text, the next word to read and where the text after the tape starts, while
 * a tape is read. */
let input = "";
let next = 0;
let textAt = 0;

/** What a tape's verdict holds after its arguments: the repairs' JSON text (or `null` when
 * there are none) and the places of their integers beyond a number. Set by `tapeArguments`. */
export let tapeRepairs = null;
export let tapeBig = EMPTY;

/** The names a spec's tapes index (`memberNames`), or `null` when its calls never come as a
 * tape: also when a name is `__proto__`, which an assignment would not make a member of. */
export function tapeNames(json) {
  const names = JSON.parse(json);
  return names === null || names.includes("__proto__") ? null : names;
}

/** The arguments of the tape verdict `code`, on the call's `text`, whose members are
 * `names`; sets `tapeRepairs` and `tapeBig`. */
export function tapeArguments(code, text, names) {
  const start = verdictStart(code);
  const first = (start + 3) >>> 2;
  const count = words[first];
  const repairsAt = words[first + 1];
  const members = words[first + 2];
  textAt = (first + count) * 4;
  input = text;
  next = first + 3;
  const args = {};
  for (let i = 0; i < members; i++) {
    const name = names[words[next++]];
    args[name] = value();
  }
  input = "";
  if (repairsAt === NO_REPAIRS) {
    tapeRepairs = null;
    tapeBig = EMPTY;
  } else {
    const rest = decode(textAt + repairsAt, start + (code >>> 3));
    const line = rest.lastIndexOf("\n");
    tapeRepairs = rest.slice(0, line);
    tapeBig = line + 3 === rest.length ? EMPTY : JSON.parse(rest.slice(line + 1));
  }
  return args;
}

function value() {
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
      const items = new Array(words[next++]);
      for (let i = 0; i < items.length; i++) items[i] = value();
      return items;
    }
    case JSON_TEXT: {
      const from = textAt + words[next++];
      return JSON.parse(decode(from, textAt + words[next++]));
    }
    default:
      throw new Error("toolargs: a tape holds an unknown tag");
  }
}

/** The integer of at most 15 digits, `-` first when negative, from `from` to `to` in the
 * call's text: exact in a number. */
function integer(from, to) {
  const negative = input.charCodeAt(from) === 45;
  let n = 0;
  for (let i = negative ? from + 1 : from; i < to; i++) n = n * 10 + (input.charCodeAt(i) - 48);
  return negative ? -n : n;
}
