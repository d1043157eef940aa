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
} from "./toolargs_js.js";
import { verdictText, writeInput } from "./io.js";
import { makeBig, NotJson, readDocument, wellFormed, writeJson, wtf8 } from "./json.js";
import { tapeArguments, tapeRepairs } from "./tape.js";
import type {
  ArgumentError,
  Arguments,
  Change,
  Decision,
  Dialect,
  Effect,
  Fed,
  Finding,
  JsonObject,
  JsonValue,
  Repair,
  SessionOptions,
  SpecOptions,
  ToolSetOptions,
  UnknownPolicy,
} from "./types.js";

type NativeSpecT = NativeSpec;
type NativeStream = ReturnType<NativeSpec["stream"]>;
type Path = (string | number)[];

// The gate's limits, read from the module when first needed (it is loaded after this module
// is evaluated).
let limits: { depth: number; bytes: number } | undefined;
const limitsOf = () => (limits ??= { depth: maxDepth(), bytes: maxPayloadBytes() });

const WRAP = Symbol("toolargs.wrap");
/** The module's spec of a `Spec` and the names a tape's members index, and the text a held
 * call's result tells the model: set by the classes' static blocks, for this module alone. */
let nativeOf: (spec: Spec<unknown>) => NativeSpecT;
let namesOf: (spec: Spec<unknown>) => readonly string[] | null;
let holdFor: (result: Verdict, text: string) => void;
let makeResult: (
  ok: boolean,
  args: JsonObject | null,
  repairs: string | Repair[] | null,
  big?: Path[],
  model?: string,
) => Verdict;
let makeStream: (native: NativeStream) => ArgumentStream<unknown>;
/** The most a stream hands the module at once, in UTF-16 units or bytes. */
const SLICE = 1 << 20;
const EMPTY: readonly never[] = Object.freeze([]);

/** A tool definition that cannot be loaded; the message says where and why. */
export class LoadError extends Error {
  declare readonly name: "LoadError";

  constructor(message: string) {
    super(message);
    (this as { name: string }).name = "LoadError";
  }
}

/** Thrown by `Spec.validate` for a call the gate rejects. */
export class Rejected extends Error {
  declare readonly name: "Rejected";
  /** Every error of the call. */
  declare readonly errors: ArgumentError[];
  #model: string;

  /** A rejection with its errors and the text for the model (as `ParseResult.forModel()`). */
  constructor(errors: ArgumentError[], forModel: string) {
    super(forModel);
    (this as { name: string }).name = "Rejected";
    (this as { errors: ArgumentError[] }).errors = errors;
    this.#model = forModel;
  }

  /** The model-facing JSON text of the rejection: `{"ok":false,"errors":[...]}`. */
  forModel(): string {
    return this.#model;
  }
}

/** The verdict on one call, as made (`ParseResult` is its type, and the class for
 * `instanceof`). `ok` and `arguments` are own properties, read when the verdict comes back, and
 * so are the repairs when they come as a tape (`tape.ts`); otherwise the repairs, and the
 * errors always, only when first asked for (getters, the same array after). */
class Verdict {
  /** True when the call was accepted, with or without repairs. */
  declare readonly ok: boolean;
  /**
   * The arguments, as sent or repaired (with the defaults the schema declares filled in), or
   * `null` when rejected. An object for a tool; a bare schema of another type gives a value of
   * that type.
   */
  declare readonly arguments: JsonObject | null;
  /** The repairs: their JSON text (read on first use), or the array; `null` for none. */
  #repairs: string | Repair[] | null;
  /** The places of the repairs' integers beyond a number, for `BigInt`s. */
  #big: Path[] | undefined;
  /** For a rejection: the model's text, from which the errors are read on first use. */
  #model: string | undefined;
  #errors: ArgumentError[] | undefined;

  private constructor(
    token: symbol,
    ok: boolean,
    args: JsonObject | null,
    repairs: string | Repair[] | null,
    big?: Path[],
    model?: string,
  ) {
    if (token !== WRAP) throw new TypeError("a result is made by spec.parse()");
    const self = this as { ok: boolean; arguments: JsonObject | null };
    self.ok = ok;
    self.arguments = args;
    this.#repairs = repairs;
    this.#big = big;
    this.#model = model;
  }

  static {
    holdFor = (result, text) => {
      result.#model = text;
    };
    makeResult = (ok, args, repairs, big, model) => new Verdict(WRAP, ok, args, repairs, big, model);
  }

  /** Every repair, in the order made; empty when rejected or clean. Read from the verdict
   * when first asked for (a getter), the same array after. */
  get repairs(): Repair[] {
    let repairs = this.#repairs;
    if (typeof repairs === "string" || repairs === null) {
      if (repairs === null) {
        repairs = [];
      } else {
        repairs = JSON.parse(repairs) as Repair[];
        const big = this.#big as Path[];
        if (big.length > 0) {
          const holder = { repairs };
          for (const path of big) makeBig(holder, path);
          repairs = holder.repairs;
        }
      }
      this.#repairs = repairs;
      this.#big = undefined;
    }
    return repairs;
  }

  /** Every error, in the order found; empty when accepted. Read from the verdict when first
   * asked for (a getter), the same array after. */
  get errors(): ArgumentError[] {
    if (this.#errors === undefined) {
      this.#errors = this.ok ? [] : errorsOf(this.#model as string);
    }
    return this.#errors;
  }

  /** The tool result to send back to the model: `{"ok":false,"errors":[...]}` when rejected,
   * or for a call a session holds for a confirmation (`"confirm"`) when it does not run;
   * `{"ok":true}` when accepted. */
  forModel(): string {
    return this.#model ?? OK_FOR_MODEL;
  }

  /** What `JSON.stringify` writes: `ok`, `arguments`, `repairs` and `errors` (and a session's
   * `decision` and `findings`; a `BigInt` needs a replacer, as anywhere). */
  toJSON(): { ok: boolean; arguments: JsonObject | null; repairs: Repair[]; errors: ArgumentError[] } {
    const out: {
      ok: boolean;
      arguments: JsonObject | null;
      repairs: Repair[];
      errors: ArgumentError[];
      decision?: Decision;
      findings?: Finding[];
    } = { ok: this.ok, arguments: this.arguments, repairs: this.repairs, errors: this.errors };
    const session = this as { decision?: Decision; findings?: Finding[] };
    if (session.decision !== undefined) {
      out.decision = session.decision;
      out.findings = session.findings;
    }
    return out;
  }
}

// `instanceof` and the inspector name the class as the package exports it.
Object.defineProperty(Verdict, "name", { value: "ParseResult" });

/** What every verdict has, accepted or rejected. */
export interface ResultMethods {
  /** The tool result to send back to the model: `{"ok":false,"errors":[...]}` when rejected,
   * or for a call a session holds for a confirmation (`"confirm"`) when it does not run;
   * `{"ok":true}` when accepted. */
  forModel(): string;
  /** What `JSON.stringify` writes: `ok`, `arguments`, `repairs` and `errors` (and a session's
   * `decision` and `findings`). */
  toJSON(): { ok: boolean; arguments: JsonValue; repairs: Repair[]; errors: ArgumentError[] };
}

/** A call accepted, as sent or repaired. */
export interface AcceptedResult<T = JsonObject> extends ResultMethods {
  /** True: the call was accepted, with or without repairs. */
  readonly ok: true;
  /**
   * The arguments, as sent or repaired, with the defaults the schema declares filled in: `T`,
   * the output type of the zod schema a spec was loaded from (`Spec.fromZod`), or a JSON
   * object. An integer beyond ±(2^53 − 1) is a `bigint`, whatever `T` says.
   */
  readonly arguments: T;
  /** Every repair, in the order made; empty when the call was clean. Read from the verdict
   * when first asked for (a getter), the same array after. */
  readonly repairs: Repair[];
  /** Empty. */
  readonly errors: [];
}

/** A call rejected: every error of it, at once. */
export interface RejectedResult extends ResultMethods {
  /** False: the call was rejected. */
  readonly ok: false;
  /** `null`. */
  readonly arguments: null;
  /** Empty. */
  readonly repairs: [];
  /** Every error, in the order found. Read from the verdict when first asked for (a getter),
   * the same array after. */
  readonly errors: ArgumentError[];
}

/**
 * The verdict on one call: accepted (`ok: true`, the `arguments` and the `repairs`) or rejected
 * (`ok: false`, the `errors`), told apart by `ok`.
 *
 * ```ts
 * const result = spec.parse(text);
 * if (result.ok) run(result.arguments);
 * else reply(result.forModel());
 * ```
 */
export type ParseResult<T = JsonObject> = AcceptedResult<T> | RejectedResult;

/** The class of every verdict, for `instanceof`; a verdict is made by a spec, never by `new`. */
export const ParseResult = Verdict as unknown as abstract new (token: never) => ParseResult<unknown>;

/** What a session decides of a call, beside the schema's verdict. */
export interface SessionDecision {
  /** What to do with the call. `"reject"` is not `ok`: the errors are the schema's, or those
   * of a call not to run for its meaning (`meaning_changed`, `retry_budget_exhausted`);
   * `"confirm"` stays `ok`, and the user must be asked (the code is in `findings`). */
  readonly decision: Decision;
  /** What the session found; empty for a tool whose meaning is not declared. */
  readonly findings: Finding[];
}

/** The verdict on one call in a session: the schema's, and what its meaning decides. */
export type SessionResult<T = JsonObject> = ParseResult<T> & SessionDecision;

/** The errors of a text for the model, as `errors` gives them. */
function errorsOf(model: string): ArgumentError[] {
  const parsed = JSON.parse(model) as { errors: { path: string; error: string; message: string }[] };
  return parsed.errors.map((e) => ({ path: e.path, code: e.error, message: e.message }) as ArgumentError);
}

const OK_FOR_MODEL = '{"ok":true}';

/** The verdict the module kept (`src/convert.rs`), given its code (`src/io.rs`), whose two low
 * bits are its kind: 0, the arguments; 1, the arguments, the repairs and the places of the
 * integers beyond a number, a line each; 2, the rejection's text for the model; 3, a tape of
 * the arguments and repairs (`tape.ts`), with the spec's member `names`, its places in the
 * call's `input` when there is one. */
function verdictOf(code: number, input?: string, names?: readonly string[] | null): Verdict {
  const kind = code & 3;
  if (kind === 3) {
    const args = tapeArguments(code, input, names as readonly string[]);
    return makeResult(true, args, tapeRepairs);
  }
  return verdictOfText(kind, verdictText(code));
}

/** The verdict of `kind` 0, 1 or 2 (`verdictOf`), from its `text`. */
function verdictOfText(kind: number, text: string): Verdict {
  if (kind === 0) return makeResult(true, JSON.parse(text), null);
  if (kind === 2) return makeResult(false, null, null, undefined, text);
  const end = text.indexOf("\n");
  const last = text.lastIndexOf("\n");
  const holder = { arguments: JSON.parse(text.slice(0, end)) as JsonObject };
  const later: Path[] = [];
  // Most repaired calls hold no integer beyond a number: their list is `[]`.
  const big: readonly Path[] = last + 3 === text.length ? EMPTY : JSON.parse(text.slice(last + 1));
  for (const path of big) {
    if (path[0] === "arguments") makeBig(holder, path);
    else later.push(path);
  }
  return makeResult(true, holder.arguments, text.slice(end + 1, last), later);
}

/** One tool's argument contract, loaded from a JSON Schema or a tool definition. `T` is what an
 * accepted call's `arguments` are: a JSON object, or the output type of the zod schema of
 * `Spec.fromZod`. */
export class Spec<T = JsonObject> {
  #native: NativeSpecT;
  /** The names a tape's members index (`tape.ts`), or `null` when the spec's calls never
   * come as a tape. */
  #names: readonly string[] | null;

  /**
   * Loads `definition`: a JSON Schema (2020-12, draft-07 or OpenAPI 3.0's subset) or a tool
   * definition in the OpenAI (chat or responses), Anthropic, Gemini or MCP shape, as an
   * object, JSON text or UTF-8 bytes.
   *
   * @throws {LoadError} the definition cannot be loaded (not JSON, a keyword the gate cannot
   *   enforce as written, a remote `$ref`, ...), or a declaration of its meaning does not fit
   *   it; the message says where and why.
   * @throws {RangeError} `effect` or `unknown` is not one of its names.
   * @throws {TypeError} `meaning` is not an object, or `name` not a string.
   */
  constructor(definition: object | string | Uint8Array | ArrayBuffer, options?: SpecOptions);
  constructor(definition: unknown, options?: unknown) {
    if (definition === WRAP) {
      this.#native = options as NativeSpecT;
      this.#names = JSON.parse(this.#native.memberNames);
      return;
    }
    const { effect, unknown, meaning, name } = (options ?? {}) as SpecOptions;
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

  /**
   * Loads a zod 4 schema through zod's own JSON Schema export of what it accepts as input
   * (`schema.toJSONSchema({ io: "input" })`): a defaulted field is optional.
   *
   * @throws {TypeError} `schema` is not a zod 4 schema.
   * @throws {LoadError} zod's JSON Schema cannot be loaded.
   */
  static fromZod<S>(schema: S, options?: ZodOptions): Spec<ZodOutput<S>> {
    return new Spec<ZodOutput<S>>(zodJsonSchema(schema, options?.toJSONSchema), options);
  }

  /** The tool's name: the `name` option, or the definition's when it gives one. */
  get name(): string | null {
    return this.#native.name ?? null;
  }

  /** The tool's description, when the definition gives one. */
  get description(): string | null {
    return this.#native.description ?? null;
  }

  /** What the tool does, when set or annotated. */
  get effect(): Effect | null {
    return (this.#native.effect as Effect | undefined) ?? null;
  }

  /** What happens to undeclared keys, at every depth. */
  get unknown(): UnknownPolicy {
    return this.#native.unknown as UnknownPolicy;
  }

  /** What loaded with a warning (an annotation the gate does not act on, a default it dropped),
   * one sentence each. */
  get warnings(): string[] {
    return this.#native.warnings;
  }

  /** Judges one call's arguments. Never throws for what they hold. */
  parse(args: Arguments): ParseResult<T> {
    return judge(this.#native, args, this.#names) as unknown as ParseResult<T>;
  }

  /**
   * The arguments of a call that passes, as sent or repaired.
   *
   * @throws {Rejected} the call is rejected.
   */
  validate(args: Arguments): T {
    const result = judge(this.#native, args, this.#names);
    if (result.ok) return result.arguments as T;
    throw new Rejected(result.errors, result.forModel());
  }

  /** A stream of one call, judged while it arrives. */
  stream(): ArgumentStream<T> {
    return makeStream(this.#native.stream()) as ArgumentStream<T>;
  }

  /**
   * The tool's definition as `dialect`'s API takes it (OpenAI chat:
   * `{ type: "function", function: {...} }`), its schema lowered to what that provider
   * accepts; `lowering(dialect)` lists what it does not show. The spec enforces the full
   * schema. A tool strict mode cannot express comes with `strict: false`.
   *
   * @throws {TypeError} `dialect` is not a string.
   * @throws {RangeError} `dialect` is not one of the names (the message lists them).
   */
  toolDefinition(dialect: Dialect): JsonObject {
    checkDialect(dialect);
    const native = this.#native;
    return JSON.parse(loading(() => native.toolDefinition(dialect)));
  }

  /**
   * What `toolDefinition(dialect)` does not show as the schema says, keyword by keyword, in
   * the order met; empty for `"json_schema"`.
   *
   * @throws {TypeError} `dialect` is not a string.
   * @throws {RangeError} `dialect` is not one of the names (the message lists them).
   */
  lowering(dialect: Dialect): Change[] {
    checkDialect(dialect);
    const native = this.#native;
    return JSON.parse(loading(() => native.lowering(dialect)));
  }
}

/**
 * The tools of a list of definitions (or of an MCP `tools/list` result, or a whole JSON-RPC
 * response to one), each loaded on its own: one that does not load is named in `unchecked` and
 * does not stop the others.
 */
export class ToolSet {
  #native: NativeToolSet;
  #specs = new Map<string, Spec>();
  /** The names of the tools that loaded, in the order of the definitions. */
  declare readonly names: readonly string[];
  /** `[name, reason]` for each definition that did not load (`name` is `null` when it has
   * none), and for each second definition of a name. */
  declare readonly unchecked: readonly (readonly [string | null, string])[];

  /**
   * @throws {LoadError} `definitions` is not a list of definitions, or a declaration of a
   *   tool's meaning does not fit it (or names no tool of the list); the message names it.
   * @throws {TypeError} `meaning` is not an object.
   */
  constructor(definitions: object | string | Uint8Array | ArrayBuffer, options?: ToolSetOptions) {
    let list: unknown = definitions;
    // A whole JSON-RPC response to `tools/list`: its result holds the tools.
    if (isPlainObject(list) && !("tools" in list) && "result" in list) list = list.result;
    const text = definitionText(list);
    const declared = meaningText(options?.meaning);
    this.#native = loading(() => NativeToolSet.load(text, declared));
    const self = this as { names: readonly string[]; unchecked: readonly (readonly [string | null, string])[] };
    self.names = Object.freeze(this.#native.names);
    self.unchecked = Object.freeze(
      (JSON.parse(this.#native.unchecked) as [string | null, string][]).map((p) => Object.freeze(p)),
    );
  }

  /** Whether `name` is a tool that loaded. */
  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** The spec of the tool `name`, or `undefined` when it is not one that loaded. */
  get(name: string): Spec | undefined {
    let spec = this.#specs.get(name);
    if (spec === undefined && typeof name === "string") {
      const native = this.#native.get(name);
      if (native === undefined) return undefined;
      spec = new Spec(WRAP as never, native as never);
      this.#specs.set(name, spec);
    }
    return spec;
  }

  /**
   * Judges a call to the tool `name`. Never throws for what the arguments hold.
   *
   * @throws {RangeError} `name` is not a tool that loaded (the message says why).
   */
  parse(name: string, args: Arguments): ParseResult {
    const spec = this.get(name);
    if (spec === undefined) throw new RangeError(this.#native.whyNot(String(name)));
    return spec.parse(args);
  }

  /**
   * A session over the tools: one conversation's calls, weighed by their meaning too.
   *
   * @throws {TypeError} `options` is not an object, holds a key that is not an option, or a
   *   value that is not a number.
   * @throws {RangeError} a value is outside its range (the message names it).
   */
  session(options?: SessionOptions): Session {
    return new (Session as unknown as SetSession)(options, WRAP, this, this.#native);
  }
}

/** `Session`'s constructor as a set calls it. */
type SetSession = new (
  options: SessionOptions | undefined,
  token: symbol,
  tools: ToolSet,
  set: NativeToolSet,
) => Session;

/** The session options, in the order the module takes them. */
const SESSION_OPTIONS = ["correctionsPerTool", "correctionsPerSession", "duplicateWindowMs"] as const;

/** The session options given, each a number or absent, in the module's order; their ranges
 * are the module's to check. */
function sessionOptions(options: unknown): (number | undefined)[] {
  if (options === undefined || options === null) return [undefined, undefined, undefined];
  if (typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(`session options must be an object, not ${Array.isArray(options) ? "an array" : typeof options}`);
  }
  for (const key of Object.keys(options)) {
    if (!(SESSION_OPTIONS as readonly string[]).includes(key)) {
      throw new TypeError(
        `${JSON.stringify(key)} is not a session option (correctionsPerTool, correctionsPerSession, duplicateWindowMs)`,
      );
    }
  }
  return SESSION_OPTIONS.map((key) => {
    const value: unknown = (options as SessionOptions)[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "number") throw new TypeError(`${key} must be a number, not ${typeof value}`);
    return value;
  });
}

/** The decisions, by the module's index of each. */
const DECISIONS: readonly Decision[] = ["proceed", "proceed_and_report", "confirm", "reject"];

/** A session's results that passed, by their `arguments`: the session, the tool, the ticket
 * the module keeps the judgment by and the arguments' JSON text as judged. A call recorded
 * with those arguments, written the same, is recorded by its ticket, with the fingerprint its
 * judgment computed. */
const PASSED = new WeakMap<object, { session: Session; spec: NativeSpecT; ticket: number; written: string }>();

/**
 * One conversation's calls: a call to a tool after its call was rejected is a correction,
 * compared with that original by what the values mean; an action repeated within the window
 * (ten minutes) of one that ran is a duplicate (`confirm`, `duplicate_action`); corrections
 * are capped (two per tool, twenty in all). Tools whose meaning is not declared are judged by
 * their schema alone. The decisions are the Rust session's.
 *
 * `new Session(options)` judges calls to any spec, given with each call and told apart by
 * its name (`Spec`'s `name` option names a bare schema): one session for a conversation's
 * tools, gated one by one (`toolargs/ai`'s and `toolargs/agents`' `session` option).
 * `toolset.session(options)` is one over a set's tools, which also takes their names.
 */
export class Session {
  #native: NativeSession;
  /** For a set's session: the set, and its module's set (which says why a name is not one
   * of its tools). */
  #tools: ToolSet | null = null;
  #set: NativeToolSet | null = null;
  #ran = 0;

  /**
   * @throws {TypeError} `options` is not an object, holds a key that is not an option, or a
   *   value that is not a number.
   * @throws {RangeError} a value is outside its range (the message names it).
   */
  constructor(options?: SessionOptions);
  constructor(options?: unknown, token?: symbol, tools?: ToolSet, set?: NativeToolSet) {
    const [perTool, perSession, window] = sessionOptions(options);
    this.#native = loading(() => new NativeSession(perTool, perSession, window));
    if (token === WRAP) {
      this.#tools = tools as ToolSet;
      this.#set = set as NativeToolSet;
    }
  }

  /**
   * Judges a call to `tool` in the conversation: its `Spec`, or for a set's session the name
   * of one of its tools. Never throws for what the arguments hold. A call not to run for its
   * meaning is not `ok`, its errors those for the model; one held for a confirmation stays
   * `ok`, and its `forModel()` is what the model is told when it does not run.
   *
   * @throws {RangeError} `tool` is a name that is not a tool of the set (the message says
   *   why).
   * @throws {TypeError} `tool` is a name, and the session was made by `new Session()`.
   */
  parse<T = JsonObject>(tool: Spec<T> | string, args: Arguments): SessionResult<T> {
    const spec = this.#spec(tool);
    const nativeSpec = nativeOf(spec);
    const native = this.#native;
    let code: number | undefined;
    let input: string | undefined;
    let text: unknown = args;
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
      if (typeof text !== "string") {
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
    const verdictCode = code as number;
    const kind = verdictCode & 3;
    let result: Verdict;
    let written: string | undefined;
    if (kind === 3) {
      result = verdictOf(verdictCode, input, namesOf(spec));
    } else {
      const verdict = verdictText(verdictCode);
      result = verdictOfText(kind, verdict);
      if (kind !== 2) written = kind === 0 ? verdict : verdict.slice(0, verdict.indexOf("\n"));
    }
    const held = result as { decision: Decision; findings: Finding[] } & Verdict;
    held.decision = DECISIONS[native.decision];
    const findings = native.findings;
    held.findings = findings === undefined ? [] : JSON.parse(findings);
    if (held.decision === "confirm") holdFor(result, native.held as string);
    const ticket = native.ticket;
    if (ticket !== 0 && written !== undefined && result.arguments !== null && typeof result.arguments === "object") {
      PASSED.set(result.arguments, { session: this, spec: nativeSpec, ticket, written });
    }
    return held as unknown as SessionResult<T>;
  }

  /**
   * Records that a call to `tool` with `args` ran: its tool's corrections are over, and the
   * same action again within the window is a duplicate. Nothing is recorded for a tool whose
   * meaning is not declared. A result's `arguments`, unchanged, are recorded by the
   * fingerprint their judgment computed.
   *
   * @throws {RangeError} `tool` is a name that is not a tool of the set.
   * @throws {TypeError} `tool` is a name and the session was made by `new Session()`, or
   *   `args` is not JSON (for a tool whose meaning is declared).
   */
  executed(tool: Spec<unknown> | string, args: Arguments): void {
    const nativeSpec = nativeOf(this.#spec(tool));
    if (!nativeSpec.hasMeaning) return;
    let text: string | Uint8Array;
    if (args instanceof ArrayBuffer) text = new Uint8Array(args);
    else if (args instanceof Uint8Array || typeof args === "string") text = args;
    else {
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
      PASSED.delete(args as object);
      return;
    }
    const bytes = typeof text !== "string" ? text : wellFormed(text) ? encoder.encode(text) : wtf8(text);
    this.#native.executed(nativeSpec, bytes, label);
  }

  /** The spec of `tool`: a `Spec`, or the name of a tool of the set. */
  #spec(tool: unknown): Spec<unknown> {
    if (tool instanceof Spec) return tool;
    if (this.#tools === null) {
      throw new TypeError(
        `a session made by new Session() judges a call with its tool's Spec, not ${typeof tool === "string" ? `the name ${JSON.stringify(tool)}` : typeof tool}`,
      );
    }
    const spec = this.#tools.get(tool as string);
    if (spec === undefined) throw new RangeError((this.#set as NativeToolSet).whyNot(String(tool)));
    return spec;
  }
}

const encoder = new TextEncoder();

/** The `meaning` option as JSON text, or `undefined` when not given. */
function meaningText(meaning: unknown): string | undefined {
  if (meaning === undefined || meaning === null) return undefined;
  if (!isPlainObject(meaning)) throw new TypeError("meaning must be an object");
  try {
    return writeJson(meaning, limitsOf().depth, limitsOf().bytes);
  } catch (e) {
    if (!(e instanceof NotJson)) throw e;
    throw new LoadError(`the meaning: ${e.what}`);
  }
}

/**
 * One call's arguments judged while they arrive. The verdict of `finish` is exactly `parse`'s
 * on the whole text, however it was cut.
 */
class ArgumentStream<T = JsonObject> {
  #native: NativeStream;
  /** A high surrogate that ended the last piece: the next piece may complete its character. */
  #held = "";
  #finished = false;

  private constructor(token: symbol, native: NativeStream) {
    if (token !== WRAP) throw new TypeError("a stream is made by spec.stream()");
    this.#native = native;
  }

  static {
    makeStream = (native) => new ArgumentStream(WRAP, native);
  }

  /**
   * Takes the next piece of the text: a string (a surrogate pair may be split between two
   * pieces) or bytes (which may end inside a character).
   */
  feed(piece: string | Uint8Array): Fed {
    this.#open();
    let errors: string | undefined;
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

  #feedText(piece: string): string | undefined {
    let text = this.#held + piece;
    this.#held = "";
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.#held = text.slice(-1);
      text = text.slice(0, -1);
    }
    return wellFormed(text) ? this.#native.feed(text) : this.#native.feedBytes(wtf8(text));
  }

  /** The members complete and accepted so far, as the parser will pass them on (repaired; a
   * stripped key left out). Always an object. */
  partial(): JsonObject {
    this.#open();
    return readDocument(this.#native.partial()) as JsonObject;
  }

  /** Bytes received so far. */
  get received(): number {
    return this.#finished ? 0 : this.#native.received;
  }

  /** The verdict on the whole text. The stream is done: any later call throws. */
  finish(): ParseResult<T> {
    this.#open();
    this.#flush();
    const verdict = this.#native.finish();
    this.#finished = true;
    this.#native.free();
    return verdictOf(verdict as number) as unknown as ParseResult<T>;
  }

  #open(): void {
    if (this.#finished) throw new Error("the stream is finished");
  }

  /** A high surrogate held back that no piece completed: a lone surrogate, fed as such. */
  #flush(): void {
    if (this.#held !== "") {
      this.#native.feedBytes(wtf8(this.#held));
      this.#held = "";
    }
  }
}

export type { ArgumentStream };


function judge(native: NativeSpecT, args: Arguments, names: readonly string[] | null): Verdict {
  if (typeof args === "string") return judgeText(native, args, names);
  if (args instanceof Uint8Array) return judgeBytes(native, args, names);
  if (args instanceof ArrayBuffer) return judgeBytes(native, new Uint8Array(args), names);
  let text: string;
  try {
    text = writeJson(args, limitsOf().depth, limitsOf().bytes);
  } catch (e) {
    if (e instanceof NotJson) return verdictOf(notJson(JSON.stringify(e.steps), e.what));
    throw e;
  }
  return judgeText(native, text, names);
}

function judgeText(native: NativeSpecT, text: string, names: readonly string[] | null): Verdict {
  // Each UTF-16 unit is at least a byte of UTF-8: past the limit in units, past it in bytes.
  if (text.length > limitsOf().bytes) return judgeInPieces(native, text);
  if (!wellFormed(text)) return verdictOf(native.parseBytes(wtf8(text)), undefined, names);
  const length = writeInput(text);
  // As many bytes as units: ASCII, where a tape's places are places in `text`.
  return verdictOf(native.parseInput(length, length === text.length), text, names);
}

function judgeBytes(native: NativeSpecT, bytes: Uint8Array, names: readonly string[] | null): Verdict {
  if (bytes.length > limitsOf().bytes) return judgeInPieces(native, bytes);
  return verdictOf(native.parseBytes(bytes), undefined, names);
}

/** A payload certainly past the size limit, streamed: its first piece is already past the
 * limit, so the stream reads none of it and only counts the bytes of the rest, fed a slice at
 * a time. The module never holds the whole payload, and the verdict is `parse`'s
 * (`too_large`, with the size). */
function judgeInPieces(nativeSpec: NativeSpecT, payload: string | Uint8Array): Verdict {
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
  const stream = makeStream(native);
  stream.feed(typeof payload === "string" ? payload.slice(first) : payload.subarray(first));
  return stream.finish() as unknown as Verdict;
}

/** A definition as JSON text: text as given, bytes as UTF-8, anything else written as JSON. */
function definitionText(definition: unknown): string {
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
function loading<T>(load: () => T): T {
  try {
    return load();
  } catch (e) {
    if (!(e instanceof NativeFailure)) throw e;
    const { kind, message } = e;
    e.free();
    throw kind === "load" ? new LoadError(message) : new RangeError(message);
  }
}

function checkDialect(dialect: unknown): void {
  if (typeof dialect !== "string") {
    throw new TypeError(`dialect must be a string, not ${dialect === null ? "null" : typeof dialect}`);
  }
}

function checkOption(name: string, value: unknown): void {
  if (value !== undefined && value !== null && typeof value !== "string") {
    throw new TypeError(`${name} must be a string, not ${typeof value}`);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** zod's own `toJSONSchema` (`z.toJSONSchema`, or `toJSONSchema` of `zod/v4/core`). */
export type ZodToJsonSchema = (schema: never, params: { io: "input" }) => object;

/** The options of `Spec.fromZod`: the spec's, and zod's own JSON Schema export. */
export interface ZodOptions extends SpecOptions {
  /**
   * zod's `toJSONSchema` (`z.toJSONSchema`), for a schema whose zod has no JSON Schema export
   * on its schemas (zod 4.0 and 4.1, and 3.25's `zod/v4`). Without it, the entries for
   * Node.js, Deno, Bun and `require` use `zod/v4/core`'s, found from the package (the zod
   * installed beside it); the others throw `TypeError` asking for it.
   */
  toJSONSchema?: ZodToJsonSchema | null;
}

/** What an accepted call's `arguments` are for a spec of the zod schema `S`: its output type
 * (read from its Standard Schema types, as zod 3.25 and 4 declare them), or a JSON object. */
export type ZodOutput<S> = S extends { readonly "~standard": { readonly types?: infer Types } }
  ? NonNullable<Types> extends { readonly output: infer O }
    ? O
    : JsonObject
  : JsonObject;

/** Where the entries that can load a package find zod's `toJSONSchema` (`node.ts`). */
let findZod: (() => ZodToJsonSchema | undefined) | undefined;

/** Sets how `Spec.fromZod` finds zod's `toJSONSchema` when neither the schema nor the caller
 * gives one: for the entries that can load a package. */
export function findZodWith(find: () => ZodToJsonSchema | undefined): void {
  let found: ZodToJsonSchema | undefined | null = null;
  findZod = () => {
    if (found === null) {
      try {
        found = find();
      } catch {
        found = undefined;
      }
    }
    return found;
  };
}

/** The JSON Schema of what a zod 4 schema accepts as input, by zod's own export: the schema's
 * (zod 4.2 and later), its Standard JSON Schema, or zod's `toJSONSchema` (given, or found). */
function zodJsonSchema(schema: unknown, given: ZodToJsonSchema | null | undefined): object {
  if (schema !== null && typeof schema === "object") {
    const zod = schema as {
      toJSONSchema?: (params: { io: "input" }) => object;
      "~standard"?: { jsonSchema?: { input?: (params: { target: string }) => object } };
    };
    if (typeof zod.toJSONSchema === "function") return zod.toJSONSchema({ io: "input" });
    const standard = zod["~standard"]?.jsonSchema;
    if (typeof standard?.input === "function") return standard.input({ target: "draft-2020-12" });
    if ("_zod" in schema) {
      const convert = given ?? findZod?.();
      if (typeof convert === "function") return convert(schema as never, { io: "input" });
      throw new TypeError(
        "Spec.fromZod: this zod (4.0, 4.1, or 3.25's zod/v4) has no JSON Schema export on its schemas, " +
          "and none was found: pass zod's, Spec.fromZod(schema, { toJSONSchema: z.toJSONSchema })",
      );
    }
  }
  throw new TypeError(
    "Spec.fromZod takes a zod 4 schema (zod 4, or 3.25's zod/v4; for another schema, pass its JSON Schema to new Spec)",
  );
}
