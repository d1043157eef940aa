/**
 * `toolargs/ai`: the gate in front of the tools of the Vercel AI SDK (`ai`, major 7).
 *
 * ```ts
 * import { tool } from "ai";
 * import { z } from "zod";
 * import { gated } from "toolargs/ai";
 *
 * const refund = gated(
 *   tool({
 *     description: "Refund an order",
 *     inputSchema: z.object({ order_id: z.string(), amount_cents: z.number().int() }),
 *     execute: async ({ order_id, amount_cents }) => ({ refunded: amount_cents }),
 *   }),
 *   { effect: "destructive" },
 * );
 * ```
 *
 * In a conversation's session, shared by its tools (corrections, duplicates, the caps):
 *
 * ```ts
 * import { Session } from "toolargs";
 *
 * const session = new Session();
 * const tools = {
 *   issue_refund: gated(refundTool, { session, name: "issue_refund", meaning: { amount_cents: { semantic: "money", currency: "currency", minor_units: true, critical: true } } }),
 * };
 * ```
 *
 * @packageDocumentation
 */

// `toolargs/ai`: the gate in front of the tools of the Vercel AI SDK (`ai`, major 7).
//
// The SDK decodes a call's JSON text and validates it with the tool's `inputSchema` before
// `execute`. A gated tool's `inputSchema` is the same JSON Schema, sent to the model as before,
// with a `validate` that is the gate: the repaired arguments are what the SDK passes on, so no
// schema of the tool undoes a repair or rejects what the gate accepted. A rejected call reaches
// `execute` as the call sent, and the gated `execute` throws `Rejected` without calling the
// tool's: the SDK reports a `tool-error`, and the model reads the error's message, which is
// the gate's JSON (`{"ok":false,"errors":[...]}`).
//
// With a `session` (a `Session` of the package, one per conversation), `execute` judges the
// call in it, as it reached `execute` (as sent when rejected, repaired when accepted): one it
// holds (`confirm`) or rejects throws the same way, and one it lets run is recorded as
// executed once the tool's `execute` is done. The decisions are the session's.

import { asSchema, jsonSchema } from "ai";
import { Rejected, Session, Spec, type SpecOptions } from "toolargs";

import { callbacksOf, type GateCallbacks, tell } from "./callbacks.js";
import { writeJson } from "./json.js";
import type { ArgumentError, JsonObject } from "./types.js";

/** The options of `gated`: the spec's, the session the tool's calls are judged in, and the
 * callbacks told of each call repaired or refused (`onRepair(result, toolName)`,
 * `onReject(result, toolName)`; the tool's name is the `name` option, else `null`). */
export interface GatedOptions extends SpecOptions, GateCallbacks {
  /**
   * The conversation's session (`new Session()`, one per conversation), shared by the tools
   * gated with it: each call is judged in it as it reaches `execute`, and one it lets run is
   * recorded as executed once the tool's `execute` is done (its promise resolved, or its
   * last output read; one that throws has not run). A call it holds (`confirm`:
   * `duplicate_action`, `confirmation_required`) or rejects (`meaning_changed`,
   * `retry_budget_exhausted`) never reaches the tool's `execute`, and throws `Rejected`, as
   * a rejection does. The tool then needs its `name` (the key it has in `tools`: the session
   * tells the tools apart by it) and its `execute`.
   */
  session?: Session | null;
}

/** A call as `experimental_repairToolCall` receives and returns it (its input is JSON text). */
export interface ToolCallToRepair {
  toolName: string;
  input: string;
  [key: string]: unknown;
}

// biome-ignore lint/suspicious/noExplicitAny: a tool's `execute`, of any signature.
type AnyFunction = (...args: any[]) => unknown;
type JsonSchema = Parameters<typeof jsonSchema>[0];

/** The spec of a tool's input schema: a zod 4 schema through zod, any other through the JSON
 * Schema the SDK sends the model. */
function specOf(inputSchema: unknown, options: SpecOptions): { spec: Spec | Promise<Spec>; json: JsonSchema } {
  // biome-ignore lint/suspicious/noExplicitAny: any schema the SDK takes.
  const schema = asSchema(inputSchema as any);
  if (inputSchema !== null && typeof inputSchema === "object" && "_zod" in inputSchema) {
    return { spec: Spec.fromZod(inputSchema, options), json: schema.jsonSchema as JsonSchema };
  }
  const json = schema.jsonSchema as JsonSchema | PromiseLike<JsonSchema>;
  if (typeof (json as PromiseLike<JsonSchema>)?.then === "function") {
    const spec = Promise.resolve(json).then((json) => new Spec(json as object, options));
    return { spec, json: json as JsonSchema };
  }
  return { spec: new Spec(json as object, options), json: json as JsonSchema };
}

/** `Rejected`, written as the gate's JSON alone: the SDK tells the model `String(error)`. */
class ToolRejected extends Rejected {
  override toString(): string {
    return this.forModel();
  }
}

/** What the gate decided, by the value the SDK decoded, until `execute` sees it: the
 * arguments it accepted, or the rejection. */
const JUDGED = new WeakMap<object, JsonObject | Rejected>();

/**
 * A tool whose input meets the gate. Its `inputSchema` is the JSON Schema the tool's own
 * (a zod 4 schema, loaded with `Spec.fromZod`; any other schema through the JSON Schema the SDK
 * sends the model), with the gate as its validation: the repaired arguments are what `execute`
 * receives, and no schema of the tool undoes a repair or rejects what the gate accepted.
 * A rejected call never reaches the tool's `execute`: the gated one throws `Rejected`, the SDK
 * reports a `tool-error`, and the model reads the gate's JSON (`{"ok":false,"errors":[...]}`)
 * as the tool's error. Input changed after validation (`experimental_refineToolInput`) is
 * judged again before `execute`. A tool without `execute` (run by the client) gets the
 * repaired input, and a rejected call is the SDK's invalid tool call, its error the gate's
 * rejection. Every other member of the tool is kept. Integers beyond 2^53 reach the gate as the
 * doubles the SDK's `JSON.parse` made of them.
 *
 * @throws {TypeError} `tool` has no `inputSchema`; or `session` is not a `Session`, or is
 *   given without `name` or for a tool without `execute`.
 * @throws {LoadError} the schema cannot be loaded.
 * @throws {RangeError} `effect` or `unknown` is not one of its names.
 */
export function gated<T extends { inputSchema: unknown; execute?: AnyFunction }>(tool: T, options?: GatedOptions): T {
  if (tool === null || typeof tool !== "object" || tool.inputSchema == null) {
    throw new TypeError("gated takes a tool of the AI SDK, with its inputSchema");
  }
  const { session = null, onRepair, onReject, ...specOptions } = options ?? {};
  const callbacks = callbacksOf({ onRepair, onReject }, "gated");
  const toolName = typeof specOptions.name === "string" ? specOptions.name : null;
  const execute: AnyFunction | null = typeof tool.execute === "function" ? tool.execute : null;
  if (session !== null) {
    if (!(session instanceof Session)) {
      throw new TypeError("gated: session must be a Session of toolargs (new Session())");
    }
    if (typeof specOptions.name !== "string") {
      throw new TypeError("gated: a tool judged in a session needs its name, the key it has in tools: gated(tool, { session, name })");
    }
    if (execute === null) {
      throw new TypeError("gated: a tool judged in a session runs here: it needs its execute");
    }
  }
  const { spec, json } = specOf(tool.inputSchema, specOptions);
  // The spec, once loaded (a JSON Schema the SDK gives as a promise loads on the first call).
  let loaded: Spec | null = spec instanceof Spec ? spec : null;
  const judge = (value: unknown): JsonObject | Rejected => {
    const result = (loaded as Spec).parse(value as object);
    tell(callbacks, result, toolName);
    return result.ok ? (result.arguments as JsonObject) : new ToolRejected(result.errors, result.forModel());
  };
  const inputSchema = jsonSchema(json, {
    async validate(value: unknown) {
      loaded ??= await spec;
      const verdict = judge(value);
      if (!(verdict instanceof Rejected)) {
        if (verdict !== null && typeof verdict === "object") JUDGED.set(verdict, verdict);
        return { success: true, value: verdict };
      }
      // Without an `execute` (a tool the client runs), or for a value that is not an object,
      // the SDK's own invalid-input error carries the rejection.
      if (execute === null || value === null || typeof value !== "object") {
        return { success: false, error: verdict };
      }
      JUDGED.set(value, verdict);
      return { success: true, value };
    },
  });
  const gatedTool: T & { execute?: AnyFunction } = { ...tool, inputSchema };
  if (execute !== null) {
    // Not an async function: what the tool's `execute` returns (a promise, a value, an async
    // iterable of outputs) is returned as it is.
    gatedTool.execute = function (this: unknown, input: unknown, ...rest: unknown[]) {
      const spec = loaded as Spec;
      if (session !== null) {
        const result = session.parse(spec, input as object);
        if (!result.ok || result.decision === "confirm") {
          // A call the gate rejected was told of when it was validated.
          const judged = input !== null && typeof input === "object" ? JUDGED.get(input) : undefined;
          if (!(judged instanceof Rejected)) tell(callbacks, result, toolName, true);
          throw held(result);
        }
        const args = result.arguments;
        return afterRun(execute.call(this, args, ...rest), () => session.executed(spec, args));
      }
      // Input changed after validation (`experimental_refineToolInput`) is judged again.
      let verdict = input !== null && typeof input === "object" ? JUDGED.get(input) : undefined;
      if (verdict === undefined) verdict = judge(input);
      if (verdict instanceof Rejected) throw verdict;
      return execute.call(this, verdict, ...rest);
    };
  }
  return gatedTool;
}

/** The rejection of a call a session does not let run: its errors are those the model reads
 * (for a call held for a confirmation, its code and why). */
function held(result: { ok: boolean; errors: ArgumentError[]; forModel(): string }): ToolRejected {
  const model = result.forModel();
  const errors = result.ok
    ? (JSON.parse(model) as { errors: { path: string; error: string; message: string }[] }).errors.map(
        (e) => ({ path: e.path, code: e.error, message: e.message }) as ArgumentError,
      )
    : result.errors;
  return new ToolRejected(errors, model);
}

/** What `execute` returned, with `ran` called once it is done: a promise once it resolves,
 * an async iterable of outputs once its last is read, anything else now. */
function afterRun(output: unknown, ran: () => void): unknown {
  if (output !== null && (typeof output === "object" || typeof output === "function")) {
    const done = output as Partial<PromiseLike<unknown> & AsyncIterable<unknown>>;
    if (typeof done.then === "function") {
      return done.then((value) => {
        ran();
        return value;
      });
    }
    if (typeof done[Symbol.asyncIterator] === "function") return ranAfter(done as AsyncIterable<unknown>, ran);
  }
  ran();
  return output;
}

async function* ranAfter(outputs: AsyncIterable<unknown>, ran: () => void): AsyncGenerator<unknown> {
  yield* outputs;
  ran();
}

/**
 * For `generateText`'s and `streamText`'s `experimental_repairToolCall`: a call that the tool's
 * own schema refused is repaired here, without a second model call, when the gate accepts it
 * with repairs (the SDK then validates the repaired call with the tool's schema); otherwise
 * `null`, and the SDK reports the tool's own error. The gate reads the call's JSON text as the
 * model sent it; each tool's JSON Schema is loaded once.
 */
export function repairToolCall(options?: SpecOptions): <CALL extends ToolCallToRepair>(repair: {
  toolCall: CALL;
  tools: Record<string, unknown>;
  inputSchema: (tool: { toolName: string }) => PromiseLike<unknown> | unknown;
  [key: string]: unknown;
}) => Promise<CALL | null> {
  const specs = new Map<unknown, Spec | null>();
  return async ({ toolCall, tools, inputSchema }) => {
    const tool = tools?.[toolCall.toolName];
    if (tool == null || !Object.hasOwn(tools, toolCall.toolName)) return null;
    let spec = specs.get(tool);
    if (spec === undefined) {
      try {
        spec = new Spec((await inputSchema({ toolName: toolCall.toolName })) as object, options);
      } catch {
        spec = null;
      }
      specs.set(tool, spec);
    }
    if (spec === null) return null;
    const result = spec.parse(toolCall.input);
    if (!result.ok || result.repairs.length === 0) return null;
    return { ...toolCall, input: writeJson(result.arguments, Infinity, Infinity) };
  };
}

export type { GateCallbacks } from "./callbacks.js";
