// The public API over the WebAssembly module, once it is loaded: `index.js` (every runtime that
// serves the package's files) and `workerd.js` (Cloudflare's) load it, then re-export this.
//
// Every verdict is the gate's: values are written as the JSON text they stand for
// (`json.js`), the text crosses into the module (`io.js`), and the verdict comes back as a
// tape the values are made from (`tape.js`) or as JSON text read into values, with `BigInt`
// for the integers a number cannot hold exactly.

import {
  Failure as NativeFailure,
  Session as NativeSession,
  Spec as NativeSpec,
  ToolSet as NativeToolSet,
  maxDepth,
  maxPayloadBytes,
  notJson,
} from "../dist/toolargs_js.js";
import { verdictText, writeInput } from "./io.js";
import { tapeArguments, tapeRepairs } from "./tape.js";
import { NotJson, makeBig, readDocument, wellFormed, writeJson, wtf8 } from "./json.js";

// The gate's limits, read from the module when first needed (it is loaded after this module
// is evaluated).
let limits;
const limitsOf = () => (limits ??= { depth: maxDepth(), bytes: maxPayloadBytes() });

const WRAP = Symbol("toolargs.wrap");
/** The module's spec of a `Spec` and the names a tape's members index, and the text a held
 * call's result tells the model: set by the classes' static blocks, for this module alone. */
let nativeOf;
let namesOf;
let holdFor;
/** The most a stream hands the module at once, in UTF-16 units or bytes. */
const SLICE = 1 << 20;
const EMPTY = Object.freeze([]);

/** A tool definition that cannot be loaded; the message says where and why. */
export class LoadError extends Error {
  constructor(message) {
    super(message);
    this.name = "LoadError";
  }
}

/** Thrown by `Spec.validate` for a call the gate rejects. */
export class Rejected extends Error {
  #model;

  constructor(errors, forModel) {
    super(forModel);
    this.name = "Rejected";
    this.errors = errors;
    this.#model = forModel;
  }

  /** The model-facing JSON text of the rejection: `{"ok":false,"errors":[...]}`. */
  forModel() {
    return this.#model;
  }
}

/** The verdict on one call. `ok` and `arguments` are read when the verdict comes back, and
 * so are the repairs when they come as a tape (`tape.js`); otherwise the repairs, and the
 * errors always, only when first asked for. */
export class ParseResult {
  /** The repairs: their JSON text (read on first use), or the array; `null` for none. */
  #repairs;
  /** The places of the repairs' integers beyond a number, for `BigInt`s. */
  #big;
  /** For a rejection: the model's text, from which the errors are read on first use. */
  #model;
  #errors;

  constructor(token, ok, args, repairs, big, model) {
    if (token !== WRAP) throw new TypeError("a result is made by spec.parse()");
    this.ok = ok;
    this.arguments = args;
    this.#repairs = repairs;
    this.#big = big;
    this.#model = model;
  }

  static {
    holdFor = (result, text) => {
      result.#model = text;
    };
  }

  /** Every repair, in the order made; empty when rejected or clean. */
  get repairs() {
    let repairs = this.#repairs;
    if (typeof repairs === "string" || repairs === null) {
      if (repairs === null) {
        repairs = [];
      } else {
        repairs = JSON.parse(repairs);
        if (this.#big.length > 0) {
          const holder = { repairs };
          for (const path of this.#big) makeBig(holder, path);
          repairs = holder.repairs;
        }
      }
      this.#repairs = repairs;
      this.#big = undefined;
    }
    return repairs;
  }

  /** Every error, in the order found; empty when accepted. */
  get errors() {
    if (this.#errors === undefined) {
      this.#errors = this.ok
        ? []
        : JSON.parse(this.#model).errors.map((e) => ({ path: e.path, code: e.error, message: e.message }));
    }
    return this.#errors;
  }

  /** The tool result to send back to the model: `{"ok":false,"errors":[...]}` when
   * rejected, or for a call a session holds for a confirmation (`confirm`) when it does not
   * run; `{"ok":true}` when accepted. */
  forModel() {
    return this.#model ?? OK_FOR_MODEL;
  }

  /** `JSON.stringify` writes all four, and a session's `decision` and `findings` (a `BigInt`
   * needs a replacer, as anywhere). */
  toJSON() {
    const out = { ok: this.ok, arguments: this.arguments, repairs: this.repairs, errors: this.errors };
    if (this.decision !== undefined) {
      out.decision = this.decision;
      out.findings = this.findings;
    }
    return out;
  }
}

const OK_FOR_MODEL = '{"ok":true}';

/** The verdict the module kept (`src/convert.rs`), given its code (`src/io.rs`), whose two low
 * bits are its kind: 0, the arguments; 1, the arguments, the repairs and the places of the
 * integers beyond a number, a line each; 2, the rejection's text for the model; 3, a tape of
 * the arguments and repairs (`tape.js`), with the spec's member `names`, its places in the
 * call's `input` when there is one. */
function verdictOf(code, input, names) {
  const kind = code & 3;
  if (kind === 3) {
    const args = tapeArguments(code, input, names);
    return new ParseResult(WRAP, true, args, tapeRepairs);
  }
  return verdictOfText(kind, verdictText(code));
}

/** The verdict of `kind` 0, 1 or 2 (`verdictOf`), from its `text`. */
function verdictOfText(kind, text) {
  if (kind === 0) return new ParseResult(WRAP, true, JSON.parse(text), null);
  if (kind === 2) return new ParseResult(WRAP, false, null, null, undefined, text);
  const end = text.indexOf("\n");
  const last = text.lastIndexOf("\n");
  const holder = { arguments: JSON.parse(text.slice(0, end)) };
  const later = [];
  // Most repaired calls hold no integer beyond a number: their list is `[]`.
  const big = last + 3 === text.length ? EMPTY : JSON.parse(text.slice(last + 1));
  for (const path of big) {
    if (path[0] === "arguments") makeBig(holder, path);
    else later.push(path);
  }
  return new ParseResult(WRAP, true, holder.arguments, text.slice(end + 1, last), later);
}

/** One tool's argument contract, loaded from a JSON Schema or a tool definition. */
export class Spec {
  #native;
  /** The names a tape's members index (`tape.js`), or `null` when the spec's calls never
   * come as a tape. */
  #names;

  constructor(definition, options) {
    if (definition === WRAP) {
      this.#native = options;
      this.#names = JSON.parse(options.memberNames);
      return;
    }
    const { effect, unknown, meaning, name } = options ?? {};
    checkOption("effect", effect);
    checkOption("unknown", unknown);
    checkOption("name", name);
    const text = definitionText(definition);
    const declared = meaningText(meaning);
    this.#native = loading(() =>
      NativeSpec.load(text, effect ?? undefined, unknown ?? undefined, declared, name ?? undefined),
    );
    this.#names = JSON.parse(this.#native.memberNames);
  }

  static {
    nativeOf = (spec) => spec.#native;
    namesOf = (spec) => spec.#names;
  }

  /** Loads a zod 4 schema, through zod's own JSON Schema export of its input. */
  static fromZod(schema, options) {
    return new Spec(zodJsonSchema(schema), options);
  }

  /** The tool's name: the `name` option, or the definition's when it gives one. */
  get name() {
    return this.#native.name ?? null;
  }

  /** The tool's description, when the definition gives one. */
  get description() {
    return this.#native.description ?? null;
  }

  /** What the tool does, when set or annotated. */
  get effect() {
    return this.#native.effect ?? null;
  }

  /** What happens to keys the schema does not declare: `"strip"` or `"reject"`. */
  get unknown() {
    return this.#native.unknown;
  }

  /** What loaded with a warning, one sentence each. */
  get warnings() {
    return this.#native.warnings;
  }

  /** Judges one call's arguments; never throws for what they hold. */
  parse(args) {
    return judge(this.#native, args, this.#names);
  }

  /** The arguments of a call that passes (as sent or repaired); throws `Rejected` for one
   * that does not. */
  validate(args) {
    const result = judge(this.#native, args, this.#names);
    if (result.ok) return result.arguments;
    throw new Rejected(result.errors, result.forModel());
  }

  /** A stream of one call, judged while it arrives. */
  stream() {
    return new ArgumentStream(WRAP, this.#native.stream());
  }

  /** The tool's definition in `dialect`'s request shape (a name of the declarations'
   * `Dialect`: `"json_schema"`, then one per provider, such as `"openai_chat"`,
   * `"openai_chat_strict"`, `"anthropic"` or `"gemini"`), its schema lowered to what that
   * provider accepts;
   * `lowering(dialect)` lists what it does not show. The spec enforces the full schema. */
  toolDefinition(dialect) {
    checkDialect(dialect);
    const native = this.#native;
    return JSON.parse(loading(() => native.toolDefinition(dialect)));
  }

  /** What `toolDefinition(dialect)` does not show as the schema says, keyword by keyword:
   * `{ path, keyword, instead, enforced }`, `path` a JSON pointer in the schema and `enforced`
   * true when the gate still enforces it. */
  lowering(dialect) {
    checkDialect(dialect);
    const native = this.#native;
    return JSON.parse(loading(() => native.lowering(dialect)));
  }
}

/** The tools of a list of definitions, or of an MCP `tools/list` result, each loaded on its
 * own. */
export class ToolSet {
  #native;
  #specs = new Map();

  constructor(definitions, options) {
    let list = definitions;
    // A whole JSON-RPC response to `tools/list`: its result holds the tools.
    if (isPlainObject(list) && !("tools" in list) && "result" in list) list = list.result;
    const text = definitionText(list);
    const declared = meaningText(options?.meaning);
    this.#native = loading(() => NativeToolSet.load(text, declared));
    this.names = Object.freeze(this.#native.names);
    this.unchecked = Object.freeze(JSON.parse(this.#native.unchecked).map((p) => Object.freeze(p)));
  }

  /** Whether `name` is a tool that loaded. */
  has(name) {
    return this.get(name) !== undefined;
  }

  /** The spec of the tool `name`, or `undefined` when it is not one that loaded. */
  get(name) {
    let spec = this.#specs.get(name);
    if (spec === undefined && typeof name === "string") {
      const native = this.#native.get(name);
      if (native === undefined) return undefined;
      spec = new Spec(WRAP, native);
      this.#specs.set(name, spec);
    }
    return spec;
  }

  /** Judges a call to the tool `name`; a name that is not a tool that loaded throws
   * `RangeError`. */
  parse(name, args) {
    const spec = this.get(name);
    if (spec === undefined) throw new RangeError(this.#native.whyNot(String(name)));
    return spec.parse(args);
  }

  /** A session over the tools: one conversation's calls, judged by their meaning too, with
   * `options` (`correctionsPerTool`, `correctionsPerSession`, `duplicateWindowMs`). */
  session(options) {
    return new Session(options, WRAP, this, this.#native);
  }
}

/** The session options, in the order the module takes them. */
const SESSION_OPTIONS = ["correctionsPerTool", "correctionsPerSession", "duplicateWindowMs"];

/** The session options given, each a number or absent, in the module's order; their ranges
 * are the module's to check. */
function sessionOptions(options) {
  if (options === undefined || options === null) return [undefined, undefined, undefined];
  if (typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(`session options must be an object, not ${Array.isArray(options) ? "an array" : typeof options}`);
  }
  for (const key of Object.keys(options)) {
    if (!SESSION_OPTIONS.includes(key)) {
      throw new TypeError(
        `${JSON.stringify(key)} is not a session option (correctionsPerTool, correctionsPerSession, duplicateWindowMs)`,
      );
    }
  }
  return SESSION_OPTIONS.map((key) => {
    const value = options[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "number") throw new TypeError(`${key} must be a number, not ${typeof value}`);
    return value;
  });
}

/** The decisions, by the module's index of each. */
const DECISIONS = ["proceed", "proceed_and_report", "confirm", "reject"];

/** A session's results that passed, by their `arguments`: the session, the tool, the ticket
 * the module keeps the judgment by and the arguments' JSON text as judged. A call recorded
 * with those arguments, written the same, is recorded by its ticket, with the fingerprint its
 * judgment computed. */
const PASSED = new WeakMap();

/** One conversation's calls: a call after one of its tool's was rejected is a correction,
 * compared with that original; corrections are capped, and an action that ran is not run
 * again unasked. `new Session(options)` judges calls to any spec, given with each call;
 * `toolset.session(options)` also takes the names of the set's tools. The decisions are the
 * Rust session's. */
export class Session {
  #native;
  /** For a set's session: the set, and its module's set (which says why a name is not one
   * of its tools). */
  #tools = null;
  #set = null;
  #ran = 0;

  constructor(options, token, tools, set) {
    const [perTool, perSession, window] = sessionOptions(options);
    this.#native = loading(() => new NativeSession(perTool, perSession, window));
    if (token === WRAP) {
      this.#tools = tools;
      this.#set = set;
    }
  }

  /** Judges a call to `tool` (a `Spec`, or the name of a tool of the set): the verdict, with
   * `decision` and `findings`. A call not to run for its meaning is not `ok`, its errors
   * those for the model; one held for a confirmation stays `ok`, and its `forModel()` is
   * what the model is told when it does not run. */
  parse(tool, args) {
    const spec = this.#spec(tool);
    const nativeSpec = nativeOf(spec);
    const native = this.#native;
    let code;
    let input;
    let text = args;
    if (args instanceof Uint8Array || args instanceof ArrayBuffer) {
      code = native.judge(nativeSpec, args instanceof ArrayBuffer ? new Uint8Array(args) : args);
    } else {
      if (typeof args !== "string") {
        try {
          text = writeJson(args, limitsOf().depth, limitsOf().bytes);
        } catch (e) {
          if (!(e instanceof NotJson)) throw e;
          text = undefined;
          code = native.judgeNotJson(nativeSpec, JSON.stringify(e.steps), e.what);
        }
      }
      if (text === undefined) {
        // Judged above.
      } else if (text.length > limitsOf().bytes || !wellFormed(text)) {
        code = native.judge(nativeSpec, wellFormed(text) ? encoder.encode(text) : wtf8(text));
      } else {
        const length = writeInput(text);
        const ascii = length === text.length;
        code = native.judgeInput(nativeSpec, length, ascii);
        // A tape's places are places in the text when it is ASCII.
        if (ascii) input = text;
      }
    }
    // The verdict is read before anything else crosses.
    const kind = code & 3;
    let result;
    let written;
    if (kind === 3) {
      result = verdictOf(code, input, namesOf(spec));
    } else {
      const verdict = verdictText(code);
      result = verdictOfText(kind, verdict);
      if (kind !== 2) written = kind === 0 ? verdict : verdict.slice(0, verdict.indexOf("\n"));
    }
    result.decision = DECISIONS[native.decision];
    const findings = native.findings;
    result.findings = findings === undefined ? [] : JSON.parse(findings);
    if (result.decision === "confirm") holdFor(result, native.held);
    const ticket = native.ticket;
    if (ticket !== 0 && written !== undefined && result.arguments !== null && typeof result.arguments === "object") {
      PASSED.set(result.arguments, { session: this, spec: nativeSpec, ticket, written });
    }
    return result;
  }

  /** Records that a call to `tool` (a `Spec`, or the name of a tool of the set) with `args`
   * ran: its tool's corrections are over, and the same action again is a duplicate. Nothing
   * is recorded for a tool whose meaning is not declared. */
  executed(tool, args) {
    const nativeSpec = nativeOf(this.#spec(tool));
    if (!nativeSpec.hasMeaning) return;
    let text = args;
    if (args instanceof ArrayBuffer) text = new Uint8Array(args);
    else if (!(args instanceof Uint8Array) && typeof args !== "string") {
      try {
        text = writeJson(args, limitsOf().depth, limitsOf().bytes);
      } catch (e) {
        if (e instanceof NotJson) throw new TypeError(`the arguments are not JSON: ${e.what}`);
        throw e;
      }
    }
    this.#ran += 1;
    const label = `call ${this.#ran}`;
    const passed = args !== null && typeof args === "object" ? PASSED.get(args) : undefined;
    if (
      passed !== undefined &&
      passed.session === this &&
      passed.spec === nativeSpec &&
      passed.written === text &&
      this.#native.executedTicket(passed.ticket, label)
    ) {
      PASSED.delete(args);
      return;
    }
    const bytes = typeof text !== "string" ? text : wellFormed(text) ? encoder.encode(text) : wtf8(text);
    this.#native.executed(nativeSpec, bytes, label);
  }

  /** The spec of `tool`: a `Spec`, or the name of a tool of the set. */
  #spec(tool) {
    if (tool instanceof Spec) return tool;
    if (this.#tools === null) {
      throw new TypeError(
        `a session made by new Session() judges a call with its tool's Spec, not ${typeof tool === "string" ? `the name ${JSON.stringify(tool)}` : typeof tool}`,
      );
    }
    const spec = this.#tools.get(tool);
    if (spec === undefined) throw new RangeError(this.#set.whyNot(String(tool)));
    return spec;
  }
}

const encoder = new TextEncoder();

/** The `meaning` option as JSON text, or `undefined` when not given. */
function meaningText(meaning) {
  if (meaning === undefined || meaning === null) return undefined;
  if (!isPlainObject(meaning)) throw new TypeError("meaning must be an object");
  try {
    return writeJson(meaning, limitsOf().depth, limitsOf().bytes);
  } catch (e) {
    if (!(e instanceof NotJson)) throw e;
    throw new LoadError(`the meaning: ${e.what}`);
  }
}

/** One call's arguments judged while they arrive. */
class ArgumentStream {
  #native;
  /** A high surrogate that ended the last piece: the next piece may complete its character. */
  #held = "";
  #finished = false;

  constructor(token, native) {
    if (token !== WRAP) throw new TypeError("a stream is made by spec.stream()");
    this.#native = native;
  }

  /** Takes the next piece of the arguments' text (a string, or bytes that may end inside a
   * character). */
  feed(piece) {
    this.#open();
    let errors;
    if (typeof piece === "string") {
      // A long piece goes in slices, as if it had come so: the verdict is the same however the
      // text is cut, and the module holds a slice at a time.
      for (let at = 0; at < piece.length || at === 0; at += SLICE) {
        errors = this.#feedText(piece.length > SLICE ? piece.slice(at, at + SLICE) : piece);
      }
    } else if (piece instanceof Uint8Array) {
      this.#flush();
      for (let at = 0; at < piece.length || at === 0; at += SLICE) {
        errors = this.#native.feedBytes(piece.length > SLICE ? piece.subarray(at, at + SLICE) : piece);
      }
    } else {
      throw new TypeError("a piece is a string or a Uint8Array");
    }
    return errors === undefined
      ? { rejected: false, errors: EMPTY }
      : { rejected: true, errors: JSON.parse(errors) };
  }

  #feedText(piece) {
    let text = this.#held + piece;
    this.#held = "";
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.#held = text.slice(-1);
      text = text.slice(0, -1);
    }
    return wellFormed(text) ? this.#native.feed(text) : this.#native.feedBytes(wtf8(text));
  }

  /** The members complete and accepted so far, as the parser will pass them on. */
  partial() {
    this.#open();
    return readDocument(this.#native.partial());
  }

  /** Bytes received so far. */
  get received() {
    return this.#finished ? 0 : this.#native.received;
  }

  /** The verdict on the whole text: exactly `parse`'s. */
  finish() {
    this.#open();
    this.#flush();
    const verdict = this.#native.finish();
    this.#finished = true;
    this.#native.free();
    return verdictOf(verdict);
  }

  #open() {
    if (this.#finished) throw new Error("the stream is finished");
  }

  /** A high surrogate held back that no piece completed: a lone surrogate, fed as such. */
  #flush() {
    if (this.#held !== "") {
      this.#native.feedBytes(wtf8(this.#held));
      this.#held = "";
    }
  }
}

function judge(native, args, names) {
  if (typeof args === "string") return judgeText(native, args, names);
  if (args instanceof Uint8Array) return judgeBytes(native, args, names);
  if (args instanceof ArrayBuffer) return judgeBytes(native, new Uint8Array(args), names);
  let text;
  try {
    text = writeJson(args, limitsOf().depth, limitsOf().bytes);
  } catch (e) {
    if (e instanceof NotJson) return verdictOf(notJson(JSON.stringify(e.steps), e.what));
    throw e;
  }
  return judgeText(native, text, names);
}

function judgeText(native, text, names) {
  // Each UTF-16 unit is at least a byte of UTF-8: past the limit in units, past it in bytes.
  if (text.length > limitsOf().bytes) return judgeInPieces(native, text);
  if (!wellFormed(text)) return verdictOf(native.parseBytes(wtf8(text)), undefined, names);
  const length = writeInput(text);
  // As many bytes as units: ASCII, where a tape's places are places in `text`.
  return verdictOf(native.parseInput(length, length === text.length), text, names);
}

function judgeBytes(native, bytes, names) {
  if (bytes.length > limitsOf().bytes) return judgeInPieces(native, bytes);
  return verdictOf(native.parseBytes(bytes), undefined, names);
}

/** A payload certainly past the size limit, streamed: its first piece is already past the
 * limit, so the stream reads none of it and only counts the bytes of the rest, fed a slice at
 * a time. The module never holds the whole payload, and the verdict is `parse`'s
 * (`too_large`, with the size). */
function judgeInPieces(nativeSpec, payload) {
  const native = nativeSpec.stream();
  let first = limitsOf().bytes + 2;
  if (typeof payload === "string") {
    // Not half a pair at its end: the rest starts with a whole character.
    const last = payload.charCodeAt(first - 1);
    if (last >= 0xd800 && last <= 0xdbff) first -= 1;
    const head = payload.slice(0, first);
    if (wellFormed(head)) native.feed(head);
    else native.feedBytes(wtf8(head));
  } else {
    native.feedBytes(payload.subarray(0, first));
  }
  const stream = new ArgumentStream(WRAP, native);
  stream.feed(typeof payload === "string" ? payload.slice(first) : payload.subarray(first));
  return stream.finish();
}

/** A definition as JSON text: text as given, bytes as UTF-8, anything else written as JSON. */
function definitionText(definition) {
  if (typeof definition === "string") {
    if (!wellFormed(definition)) {
      throw new LoadError("the definition is not valid Unicode (it holds a lone surrogate)");
    }
    return definition;
  }
  if (definition instanceof Uint8Array || definition instanceof ArrayBuffer) {
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(definition);
    } catch {
      throw new LoadError("the definition is not valid UTF-8");
    }
  }
  try {
    return writeJson(definition, limitsOf().depth, limitsOf().bytes);
  } catch (e) {
    if (!(e instanceof NotJson)) throw e;
    const [error] = verdictOf(notJson(JSON.stringify(e.steps), e.what)).errors;
    throw new LoadError(`${error.path}: ${error.message}`);
  }
}

/** Runs a load, turning its failure into `LoadError` (the definition) or `RangeError` (an
 * option). */
function loading(load) {
  try {
    return load();
  } catch (e) {
    if (!(e instanceof NativeFailure)) throw e;
    const { kind, message } = e;
    e.free();
    throw kind === "load" ? new LoadError(message) : new RangeError(message);
  }
}

function checkDialect(dialect) {
  if (typeof dialect !== "string") {
    throw new TypeError(`dialect must be a string, not ${dialect === null ? "null" : typeof dialect}`);
  }
}

function checkOption(name, value) {
  if (value !== undefined && value !== null && typeof value !== "string") {
    throw new TypeError(`${name} must be a string, not ${typeof value}`);
  }
}

function isPlainObject(value) {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** The JSON Schema of what a zod 4 schema accepts as input, by zod's own export. */
function zodJsonSchema(schema) {
  if (schema !== null && typeof schema === "object") {
    if (typeof schema.toJSONSchema === "function") return schema.toJSONSchema({ io: "input" });
    const standard = schema["~standard"]?.jsonSchema;
    if (typeof standard?.input === "function") return standard.input({ target: "draft-2020-12" });
  }
  throw new TypeError(
    "Spec.fromZod takes a zod 4 schema (for another schema, pass its JSON Schema to new Spec)",
  );
}
