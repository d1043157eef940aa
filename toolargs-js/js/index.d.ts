/**
 * The toolargs gate for LLM tool-call arguments, in WebAssembly.
 *
 * A model asked to refund $19.99 sends `"amount_cents": "1999"`: right data, wrong envelope.
 * The gate repairs what has exactly one reading, rejects everything with two or more (every
 * error of the call at once, each with a stable code and a JSON path), and records every
 * repair.
 *
 * ```ts
 * import { Spec } from "toolargs";
 *
 * const spec = new Spec({
 *   name: "refund",
 *   inputSchema: {
 *     type: "object",
 *     properties: { amount_cents: { type: "integer", minimum: 1, maximum: 50000 } },
 *     required: ["amount_cents"],
 *   },
 * });
 * const result = spec.parse('{"amount_cents": "1999"}');
 * result.ok;         // true
 * result.arguments;  // { amount_cents: 1999 }
 * result.repairs;    // [{ path: "$.amount_cents", rule: "numeric_string_to_int", before: "1999", after: 1999 }]
 * ```
 *
 * @packageDocumentation
 */

/**
 * A JSON value as the gate passes it on. Integers beyond ±(2^53 − 1), which a `number` cannot
 * hold exactly, are `bigint`s (`JSON.stringify` cannot write them: give it a replacer, or
 * write them with `String`). Every other number is a `number`.
 */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | JsonObject;

/** A JSON object as the gate passes it on. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/**
 * Arguments as a caller sends them: JSON text (preferred: nothing is lost on the way), its
 * UTF-8 bytes, or a decoded value.
 *
 * A decoded value is written as the JSON text it stands for: a `bigint` in all its digits,
 * `NaN` and `±Infinity` as the tokens the gate rejects, an integral number beyond 2^53 as its
 * exact value; a member whose value is `undefined` is left out (as `JSON.stringify` leaves it
 * out). What JSON cannot carry (`undefined` elsewhere, a function, a symbol, a `Date`, a `Map`,
 * a class instance) is rejected with `invalid_json` at its path.
 */
export type Arguments = string | Uint8Array | ArrayBuffer | object | null;

/**
 * What a tool does; it sets the defaults of the gate (a read-only tool strips unknown keys,
 * every other rejects them), as MCP's annotations would.
 */
export type Effect = "read_only" | "additive" | "destructive" | "external";

/** What happens to keys the schema does not declare. */
export type UnknownPolicy = "strip" | "reject";

/** A provider's dialect, for `Spec.toolDefinition` and `Spec.lowering`: JSON Schema as loaded,
 * OpenAI chat and Responses (strict mode or not), Anthropic, Gemini and MCP. */
export type Dialect =
  | "json_schema"
  | "openai_chat"
  | "openai_chat_strict"
  | "openai_responses"
  | "openai_responses_strict"
  | "anthropic"
  | "gemini"
  | "mcp";

/** One thing a lowered definition does not show as the schema says. */
export interface Change {
  /** Where, as a JSON pointer into the schema (`""` for its root). */
  path: string;
  /** The keyword (`"maxLength"`, `"oneOf"`, ...; `"strict"` when strict mode was left off). */
  keyword: string;
  /** What the provider is shown instead. */
  instead: string;
  /** True when the gate still enforces it (false for an annotation). */
  enforced: boolean;
  /** True when what the provider is shown means the same (an `allOf` merged, a `const` as a
   * one-value `enum`, strict mode's `null` for an absent property). */
  exact: boolean;
}

/** What one argument means, in the derive's vocabulary; the keys are those of `x-toolargs` in
 * a schema, which the `meaning` option's declarations override. */
export interface MeaningDeclaration {
  /** `"money"`, `"date"`, `"datetime"`, `"entity"`, `"quantity"`, or a unit family
   * (`"duration"`, `"length"`, `"mass"`, `"data_size"`). */
  semantic?: string;
  /** For money: the sibling argument that holds the currency, or a fixed ISO 4217 code. */
  currency?: string;
  /** For money: the amount is in minor units (cents). */
  minor_units?: boolean;
  /** For a quantity: the sibling argument that holds the unit, or a fixed unit. */
  unit?: string;
  /** For `semantic: "quantity"`: the unit family. */
  family?: string;
  /** For an entity: what it refers to (`"person"`, `"account"`). */
  entity?: string;
  /** A change here rejects a correction instead of asking for a confirmation. */
  critical?: boolean;
  /** For an enum: other names of its values, by value (`{ overnight: ["next_day"] }`). */
  synonyms?: Record<string, string[]>;
}

/** Declarations by argument path (`amount_cents`, `order.amount_cents`, `lines[].amount`). */
export type Meaning = Record<string, MeaningDeclaration>;

/** Options of a loaded spec. Absent (or `null`), the definition's MCP annotations decide, and a
 * definition without them rejects unknown keys. */
export interface SpecOptions {
  /** What the tool does, over what its annotations say. */
  effect?: Effect | null;
  /** What happens to undeclared keys, over what the effect implies. */
  unknown?: UnknownPolicy | null;
  /** What the arguments mean, over what `x-toolargs` in the schema says; weighed in a
   * session. */
  meaning?: Meaning | null;
  /** The tool's name, over the definition's (a bare schema has none): a session tells the
   * tools whose calls it judges apart by their names. */
  name?: string | null;
}

/** Options of a set of tools. */
export interface ToolSetOptions {
  /** What each tool's arguments mean, by tool name, over what `x-toolargs` in its schema
   * says: weighed in the set's sessions. */
  meaning?: Record<string, Meaning> | null;
}

/** What to do with a call judged in a session: run it; run it and report what was found; ask
 * the user first; or not run it. */
export type Decision = "proceed" | "proceed_and_report" | "confirm" | "reject";

/** Why a call in a session does not simply run. */
export type MeaningCode =
  | "meaning_changed"
  | "confirmation_required"
  | "duplicate_action"
  | "retry_budget_exhausted";

/** One thing a session found in a call: where, what, and its code. */
export interface Finding {
  /** The JSON path of the value (`$` for the whole call). */
  readonly path: string;
  /** What was found (`"changed"`, `"exhausted"`, ...). */
  readonly verdict: string;
  /** Its code. */
  readonly code: MeaningCode;
  /** What the value means (`"money"`), for a value of a correction. */
  readonly meaning?: string;
  /** Whether the value was declared critical. */
  readonly critical?: boolean;
  /** Why, in one sentence. */
  readonly reason?: string;
}

/** The verdict on one call in a session: the schema's, and what its meaning decides. */
export interface SessionResult extends ParseResult {
  /** What to do with the call. `"reject"` is not `ok`: the errors are the schema's, or those
   * of a call not to run for its meaning (`meaning_changed`, `retry_budget_exhausted`);
   * `"confirm"` stays `ok`, and the user must be asked (the code is in `findings`). */
  readonly decision: Decision;
  /** What the session found; empty for a tool whose meaning is not declared. */
  readonly findings: Finding[];
}

/** How hard a session holds corrections and repeated actions; each absent (or `null`) one
 * keeps its default. */
export interface SessionOptions {
  /** Calls to a tool after its call was rejected before the next is refused
   * `retry_budget_exhausted` (2: three attempts in all). A whole number from 0 to 2^32 − 1. */
  correctionsPerTool?: number | null;
  /** Corrections in the session, over every tool (20). A whole number from 0 to 2^32 − 1. */
  correctionsPerSession?: number | null;
  /** How long, in milliseconds, an action that ran makes the same action a duplicate
   * (600 000: ten minutes; 0: never). Finite, 0 or more. */
  duplicateWindowMs?: number | null;
}

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
  /**
   * @throws {TypeError} `options` is not an object, holds a key that is not an option, or a
   *   value that is not a number.
   * @throws {RangeError} a value is outside its range (the message names it).
   */
  constructor(options?: SessionOptions);
  /**
   * Judges a call to `tool` in the conversation: its `Spec`, or for a set's session the name
   * of one of its tools. Never throws for what the arguments hold.
   *
   * @throws {RangeError} `tool` is a name that is not a tool of the set (the message says
   *   why).
   * @throws {TypeError} `tool` is a name, and the session was made by `new Session()`.
   */
  parse(tool: Spec | string, args: Arguments): SessionResult;
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
  executed(tool: Spec | string, args: Arguments): void;
}

/** One repair: where, by which rule, the value before and after. */
export interface Repair {
  /** The JSON path of the repaired value (`$.amount_cents`). */
  readonly path: string;
  /** The rule's stable name (`numeric_string_to_int`). */
  readonly rule: string;
  /** The value as sent. */
  readonly before: JsonValue;
  /** The value as repaired (`null` for a key stripped). */
  readonly after: JsonValue;
}

/** One reason a call was rejected: where, its stable code, and a message for the model. */
export interface ArgumentError {
  /** The JSON path of the value at fault (`$` for the whole call). */
  readonly path: string;
  /** The code's stable name (`out_of_range`). */
  readonly code: string;
  /** What is wrong, written for the model. */
  readonly message: string;
}

/** The verdict on one call. */
export class ParseResult {
  private constructor();
  /** True when the call was accepted, with or without repairs. */
  readonly ok: boolean;
  /**
   * The arguments, as sent or repaired (with the defaults the schema declares filled in), or
   * `null` when rejected. An object for a tool; a bare schema of another type gives a value of
   * that type.
   */
  readonly arguments: JsonObject | null;
  /** Every repair, in the order made; empty when rejected or clean. Read from the verdict
   * when first asked for (a getter), the same array after. */
  readonly repairs: Repair[];
  /** Every error, in the order found; empty when accepted. Read from the verdict when first
   * asked for (a getter), the same array after. */
  readonly errors: ArgumentError[];
  /** The tool result to send back to the model: `{"ok":false,"errors":[...]}` when rejected,
   * or for a call a session holds for a confirmation (`"confirm"`) when it does not run;
   * `{"ok":true}` when accepted. */
  forModel(): string;
  /** What `JSON.stringify` writes: `ok`, `arguments`, `repairs` and `errors`. */
  toJSON(): { ok: boolean; arguments: JsonObject | null; repairs: Repair[]; errors: ArgumentError[] };
}

/** What one piece of a stream gave: whether the call can no longer be accepted, and why. */
export interface Fed {
  /** True once no continuation can make the call acceptable: on this piece and every later one. */
  readonly rejected: boolean;
  /** The errors that are certain already; empty while not rejected. */
  readonly errors: readonly ArgumentError[];
}

/**
 * One call's arguments judged while they arrive. The verdict of `finish` is exactly `parse`'s
 * on the whole text, however it was cut.
 */
export interface ArgumentStream {
  /**
   * Takes the next piece of the text: a string (a surrogate pair may be split between two
   * pieces) or bytes (which may end inside a character).
   */
  feed(piece: string | Uint8Array): Fed;
  /** The members complete and accepted so far, as the parser will pass them on (repaired; a
   * stripped key left out). Always an object. */
  partial(): JsonObject;
  /** Bytes received so far. */
  readonly received: number;
  /** The verdict on the whole text. The stream is done: any later call throws. */
  finish(): ParseResult;
}

/** One tool's argument contract, loaded from a JSON Schema or a tool definition. */
export class Spec {
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

  /**
   * Loads a zod 4 schema through zod's own JSON Schema export of what it accepts as input
   * (`schema.toJSONSchema({ io: "input" })`): a defaulted field is optional.
   *
   * @throws {TypeError} `schema` is not a zod 4 schema.
   * @throws {LoadError} zod's JSON Schema cannot be loaded.
   */
  static fromZod(schema: unknown, options?: SpecOptions): Spec;

  /** The tool's name: the `name` option, or the definition's when it gives one. */
  readonly name: string | null;
  /** The tool's description, when the definition gives one. */
  readonly description: string | null;
  /** What the tool does, when set or annotated. */
  readonly effect: Effect | null;
  /** What happens to undeclared keys, at every depth. */
  readonly unknown: UnknownPolicy;
  /** What loaded with a warning (an annotation the gate does not act on, a default it dropped),
   * one sentence each. */
  readonly warnings: string[];

  /** Judges one call's arguments. Never throws for what they hold. */
  parse(args: Arguments): ParseResult;

  /**
   * The arguments of a call that passes, as sent or repaired.
   *
   * @throws {Rejected} the call is rejected.
   */
  validate(args: Arguments): JsonObject;

  /** A stream of one call, judged while it arrives. */
  stream(): ArgumentStream;

  /**
   * The tool's definition as `dialect`'s API takes it (OpenAI chat:
   * `{ type: "function", function: {...} }`), its schema lowered to what that provider
   * accepts; `lowering(dialect)` lists what it does not show. The spec enforces the full
   * schema. A tool strict mode cannot express comes with `strict: false`.
   *
   * @throws {TypeError} `dialect` is not a string.
   * @throws {RangeError} `dialect` is not one of the names (the message lists them).
   */
  toolDefinition(dialect: Dialect): JsonObject;

  /**
   * What `toolDefinition(dialect)` does not show as the schema says, keyword by keyword, in
   * the order met; empty for `"json_schema"`.
   *
   * @throws {TypeError} `dialect` is not a string.
   * @throws {RangeError} `dialect` is not one of the names (the message lists them).
   */
  lowering(dialect: Dialect): Change[];
}

/**
 * The tools of a list of definitions (or of an MCP `tools/list` result, or a whole JSON-RPC
 * response to one), each loaded on its own: one that does not load is named in `unchecked` and
 * does not stop the others.
 */
export class ToolSet {
  /**
   * @throws {LoadError} `definitions` is not a list of definitions, or a declaration of a
   *   tool's meaning does not fit it (or names no tool of the list); the message names it.
   * @throws {TypeError} `meaning` is not an object.
   */
  constructor(definitions: object | string | Uint8Array | ArrayBuffer, options?: ToolSetOptions);

  /** The names of the tools that loaded, in the order of the definitions. */
  readonly names: readonly string[];
  /** `[name, reason]` for each definition that did not load (`name` is `null` when it has
   * none), and for each second definition of a name. */
  readonly unchecked: readonly (readonly [string | null, string])[];

  /** Whether `name` is a tool that loaded. */
  has(name: string): boolean;
  /** The spec of the tool `name`, or `undefined`. */
  get(name: string): Spec | undefined;

  /**
   * Judges a call to the tool `name`. Never throws for what the arguments hold.
   *
   * @throws {RangeError} `name` is not a tool that loaded (the message says why).
   */
  parse(name: string, args: Arguments): ParseResult;

  /**
   * A session over the tools: one conversation's calls, weighed by their meaning too.
   *
   * @throws {TypeError} `options` is not an object, holds a key that is not an option, or a
   *   value that is not a number.
   * @throws {RangeError} a value is outside its range (the message names it).
   */
  session(options?: SessionOptions): Session;
}

/** A tool definition that cannot be loaded; the message says where and why. */
export class LoadError extends Error {
  constructor(message: string);
  readonly name: "LoadError";
}

/** Thrown by `Spec.validate` for a call the gate rejects. */
export class Rejected extends Error {
  /** A rejection with its errors and the text for the model (as `ParseResult.forModel()`). */
  constructor(errors: ArgumentError[], forModel: string);
  readonly name: "Rejected";
  /** Every error of the call. */
  readonly errors: ArgumentError[];
  /** The model-facing JSON text of the rejection: `{"ok":false,"errors":[...]}`. */
  forModel(): string;
}
