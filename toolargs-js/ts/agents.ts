/**
 * `toolargs/agents`: the gate in front of a function tool of the OpenAI Agents SDK for
 * JavaScript (`@openai/agents`, 0.x).
 *
 * ```ts
 * import { tool } from "@openai/agents";
 * import { z } from "zod";
 * import { gatedTool } from "toolargs/agents";
 *
 * const refund = gatedTool(tool, {
 *   name: "refund",
 *   description: "Refund an order",
 *   parameters: z.object({ order_id: z.string(), amount_cents: z.number().int() }),
 *   execute: async ({ amount_cents }: { amount_cents: number }) => `refunded ${amount_cents}`,
 * });
 * ```
 *
 * @packageDocumentation
 */

// `toolargs/agents`: the gate in front of a function tool of the OpenAI Agents SDK for
// JavaScript (`@openai/agents`, 0.x).
//
// A function tool is called with the model's JSON text (`invoke(runContext, input)`), which
// the SDK parses with the tool's `parameters` before `execute`. `gatedTool` makes the tool with
// the SDK's own `tool` and judges that text first: a rejected call never reaches the parser or
// `execute`, and its output, which the model reads, is the gate's JSON; a repaired call goes on
// as the JSON text of the repaired arguments. The spec is the zod schema of `parameters` as
// written (the SDK sends the model a lowered copy for strict mode, where `int` is lost), or
// their JSON Schema.
//
// With a `session` (a `Session` of the package, one per conversation), the text is judged in
// it, under the tool's name: a call it holds (`confirm`) or rejects is answered the same way,
// and one it lets run is recorded as executed once the tool's `execute` is done (the SDK
// turns an error thrown there into the tool's output: that call is not recorded). The
// decisions are the session's.

import { type ParseResult, Session, Spec, type SpecOptions } from "toolargs";

import { callbacksOf, type GateCallbacks, tell } from "./callbacks.js";
import { writeJson } from "./json.js";
import type { JsonObject } from "./types.js";

/** The options of `gatedTool`: the spec's, the session the tool's calls are judged in, and the
 * callbacks told of each call repaired or refused (`onRepair(result, toolName)`,
 * `onReject(result, toolName)`, with the tool's name). */
export interface GatedToolOptions extends SpecOptions, GateCallbacks {
  /**
   * The conversation's session (`new Session()`, one per conversation), shared by the tools
   * gated with it, which tells them apart by the tool's name: each call is judged in it, and
   * one it lets run is recorded as executed once `execute` is done (one that throws, which
   * the SDK makes the tool's output, has not run). A call it holds (`confirm`:
   * `duplicate_action`, `confirmation_required`) or rejects (`meaning_changed`,
   * `retry_budget_exhausted`) never reaches the parser or `execute`: the tool's output is the
   * gate's JSON, as for a rejection.
   */
  session?: Session | null;
}

/** What the gate reads of a tool's options, and of the tool the SDK makes. */
interface ToolOptions {
  name?: string;
  parameters?: unknown;
  // biome-ignore lint/suspicious/noExplicitAny: the tool's own `execute`.
  execute?: (...args: any[]) => unknown;
}
interface MadeTool {
  invoke(runContext: unknown, input: string, details?: unknown): Promise<unknown>;
}

/** The arguments the gate passed on, by the call's `details` (which the SDK hands `execute`),
 * for the session to record: what the SDK's parser made of them may not be JSON. */
const PASSED = new WeakMap<object, JsonObject>();

/**
 * `tool(toolOptions)`, made with the SDK's own `tool` (passed in) and gated: the model's JSON
 * text is judged before the SDK parses it with `parameters`. A rejected call never reaches the
 * parser or `execute`: the tool's output, which the model reads, is the gate's JSON
 * (`{"ok":false,"errors":[...]}`). A repaired call goes on as the JSON text of the repaired
 * arguments. The spec is `parameters` as written, named as the tool: a zod 4 schema through
 * `Spec.fromZod` (the SDK sends the model a copy lowered for strict mode, where `.int()` is
 * lost), or a JSON Schema.
 *
 * @throws {TypeError} `tool` is not a function, `toolOptions` not an object, or `session` not
 *   a `Session`.
 * @throws {LoadError} `parameters` cannot be loaded.
 * @throws {RangeError} `effect` or `unknown` is not one of its names.
 */
// biome-ignore lint/suspicious/noExplicitAny: the SDK's `tool`, whatever its options.
export function gatedTool<TOOL extends (toolOptions: any) => unknown>(
  tool: TOOL,
  toolOptions: Parameters<TOOL>[0],
  options?: GatedToolOptions,
): ReturnType<TOOL> {
  if (typeof tool !== "function" || toolOptions == null || typeof toolOptions !== "object") {
    throw new TypeError("gatedTool takes the Agents SDK's tool function and its options");
  }
  const { session = null, onRepair, onReject, ...specOptions } = options ?? {};
  const callbacks = callbacksOf({ onRepair, onReject }, "gatedTool");
  if (session !== null && !(session instanceof Session)) {
    throw new TypeError("gatedTool: session must be a Session of toolargs (new Session())");
  }
  const given = toolOptions as ToolOptions;
  const execute = given.execute;
  const parameters = given.parameters;
  // Named as the SDK names the tool: by `toolOptions`, else by `execute`.
  const named = { ...specOptions, name: specOptions.name ?? (given.name || execute?.name || null) };
  const spec =
    parameters !== null && typeof parameters === "object" && "_zod" in parameters
      ? Spec.fromZod(parameters, named)
      : new Spec(parameters as object, named);
  let made: MadeTool;
  if (session !== null && typeof execute === "function") {
    // Recorded once done. The SDK reads the tool's name from `execute` when `toolOptions`
    // give none: it keeps its own.
    const ran = async function (this: unknown, input: unknown, runContext: unknown, details: unknown, ...rest: unknown[]) {
      const output = await execute.call(this, input, runContext, details, ...rest);
      const passed = details !== null && typeof details === "object" ? PASSED.get(details) : undefined;
      session.executed(spec, (passed ?? input) as object);
      return output;
    };
    Object.defineProperty(ran, "name", { value: execute.name });
    made = tool({ ...given, execute: ran }) as MadeTool;
  } else {
    made = tool(toolOptions) as MadeTool;
  }
  const invoke = made.invoke;
  return {
    ...made,
    async invoke(runContext: unknown, input: string, details?: unknown) {
      const result: ParseResult & { decision?: string } =
        session === null ? spec.parse(input) : session.parse(spec, input);
      const refused = !result.ok || result.decision === "confirm";
      tell(callbacks, result, named.name, refused);
      if (refused) return result.forModel();
      const text = result.repairs.length === 0 ? input : writeJson(result.arguments, Infinity, Infinity);
      if (session !== null && details !== null && typeof details === "object") {
        PASSED.set(details, result.arguments as JsonObject);
      }
      return invoke.call(made, runContext, text, details);
    },
  } as ReturnType<TOOL>;
}

export type { GateCallbacks } from "./callbacks.js";
