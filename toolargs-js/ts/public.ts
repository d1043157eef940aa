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
 * Every entry of the package (`index`, `node`, `browser`, `workerd`, `edge`) loads the
 * WebAssembly module its way, then exports this.
 *
 * @packageDocumentation
 */

export type {
  AcceptedResult,
  ArgumentStream,
  RejectedResult,
  ResultMethods,
  SessionDecision,
  SessionResult,
  ZodOptions,
  ZodOutput,
  ZodToJsonSchema,
} from "./api.js";
export { LoadError, ParseResult, Rejected, Session, Spec, ToolSet } from "./api.js";
export type {
  ArgumentError,
  Arguments,
  Change,
  Code,
  Decision,
  Dialect,
  Effect,
  Fed,
  Finding,
  JsonObject,
  JsonValue,
  Meaning,
  MeaningCode,
  MeaningDeclaration,
  Repair,
  Rule,
  SessionOptions,
  SpecOptions,
  ToolSetOptions,
  UnknownPolicy,
} from "./types.js";
