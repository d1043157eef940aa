// The types of the public API: the values the gate takes and gives, and the options of its
// classes (`api.ts`). Their declarations (`dist/types.d.ts`) are generated from this file.

import type { Code, Rule } from "./names.js";

export type { Code, Rule };

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
 * OpenAI chat and Responses (strict mode or not), Anthropic, Gemini, MCP and Amazon Bedrock's
 * Converse API. */
export type Dialect =
  | "json_schema"
  | "openai_chat"
  | "openai_chat_strict"
  | "openai_responses"
  | "openai_responses_strict"
  | "anthropic"
  | "gemini"
  | "mcp"
  | "bedrock_converse";

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

/** One repair: where, by which rule, the value before and after. */
export interface Repair {
  /** The JSON path of the repaired value (`$.amount_cents`). */
  readonly path: string;
  /** The rule's stable name (`numeric_string_to_int`). */
  readonly rule: Rule;
  /** The value as sent. */
  readonly before: JsonValue;
  /** The value as repaired (`null` for a key stripped). */
  readonly after: JsonValue;
}

/** One reason a call was rejected: where, its stable code, and a message for the model. */
export interface ArgumentError {
  /** The JSON path of the value at fault (`$` for the whole call). */
  readonly path: string;
  /** The code's stable name (`out_of_range`): the gate's, or, for a call a session does not
   * let run, the session's (`meaning_changed`, `retry_budget_exhausted`). */
  readonly code: Code | MeaningCode;
  /** What is wrong, written for the model. */
  readonly message: string;
}

/** What one piece of a stream gave: whether the call can no longer be accepted, and why. */
export interface Fed {
  /** True once no continuation can make the call acceptable: on this piece and every later one. */
  readonly rejected: boolean;
  /** The errors that are certain already; empty while not rejected. */
  readonly errors: readonly ArgumentError[];
}
