/**
 * `toolargs/langchain`: the gate in front of a LangChain.js tool (`@langchain/core` 1.x: a tool
 * made with its `tool()`, or any `StructuredTool`).
 *
 * ```ts
 * import { tool } from "@langchain/core/tools";
 * import { z } from "zod";
 * import { gatedTool } from "toolargs/langchain";
 *
 * const refund = gatedTool(
 *   tool(async ({ order_id, amount_cents }) => `${order_id}: ${amount_cents}`, {
 *     name: "refund",
 *     description: "Refund an order",
 *     schema: z.object({ order_id: z.string(), amount_cents: z.number().int() }),
 *   }),
 *   { effect: "destructive" },
 * );
 * ```
 *
 * @packageDocumentation
 */

// A LangChain tool is called with `invoke(input)`, where `input` is the arguments or a tool call
// of the model (`{ type: "tool_call", name, args, id }`, as agents and `ToolNode` pass it); the
// tool parses the arguments with its `schema` before its function. `gatedTool` judges the
// arguments first: a rejected call never reaches the schema or the function, and its output,
// which the model reads, is the gate's JSON (a `ToolMessage` with `status: "error"` for a tool
// call); an accepted one goes on repaired to the tool's own schema and function. The spec is
// the tool's `schema` as written: a zod 4 schema through `Spec.fromZod`, or a JSON Schema. The
// tool the model is shown (its name, description and schema) is the tool's own.
//
// With a `session` (a `Session` of the package, one per conversation), the arguments are judged
// in it, under the tool's name: a call it holds (`confirm`) or rejects is answered the same way,
// and one whose function returned is recorded as executed. The decisions are the session's.

import { ToolMessage } from "@langchain/core/messages";
import { type ParseResult, Session, Spec, type SpecOptions } from "toolargs";

import { callbacksOf, type GateCallbacks, tell } from "./callbacks.js";

/** The options of `gatedTool`: the spec's, the session the tool's calls are judged in, and the
 * callbacks told of each call repaired or refused (`onRepair(result, toolName)`,
 * `onReject(result, toolName)`, with the tool's name). */
export interface GatedToolOptions extends SpecOptions, GateCallbacks {
  /**
   * The conversation's session (`new Session()`, one per conversation), shared by the tools
   * gated with it, which tells them apart by the tool's name: each call is judged in it, and one
   * it lets run is recorded as executed once the tool returned. A call it holds or rejects
   * never reaches the tool: its output is the gate's JSON, as for a rejection.
   */
  session?: Session | null;
}

/** What the gate reads of a LangChain tool. */
export interface LangChainTool {
  name: string;
  schema: unknown;
  invoke(input: never, config?: never): Promise<unknown>;
}

/** A tool call of the model, as LangChain hands it to a tool. */
interface ToolCall {
  type: "tool_call";
  name?: string;
  args: unknown;
  id?: string;
}

function isToolCall(input: unknown): input is ToolCall {
  return input !== null && typeof input === "object" && (input as { type?: unknown }).type === "tool_call";
}

/**
 * `tool`, gated: the arguments of each call are judged before the tool's schema parses them. A
 * rejected call never reaches the schema or the tool's function: its output, which the model
 * reads, is the gate's JSON (`{"ok":false,"errors":[...]}`), in a `ToolMessage` with
 * `status: "error"` for a tool call. A repaired call goes on with the repaired arguments. The
 * gated tool is the tool itself in every other respect (its prototype is the tool: name,
 * description, schema, `instanceof`); only `invoke` is the gate's (`call`, LangChain's lower
 * door, is left as it is).
 *
 * @throws {TypeError} `tool` is not a LangChain tool with a schema, its schema is a zod 3
 *   schema, or `session` is not a `Session`.
 * @throws {LoadError} the schema cannot be loaded.
 * @throws {RangeError} `effect` or `unknown` is not one of its names.
 */
export function gatedTool<T extends LangChainTool>(tool: T, options?: GatedToolOptions): T {
  if (tool === null || typeof tool !== "object" || typeof tool.invoke !== "function" || tool.schema == null) {
    throw new TypeError("gatedTool takes a LangChain tool with its schema (tool() of @langchain/core/tools)");
  }
  const { session = null, onRepair, onReject, ...specOptions } = options ?? {};
  const callbacks = callbacksOf({ onRepair, onReject }, "gatedTool");
  if (session !== null && !(session instanceof Session)) {
    throw new TypeError("gatedTool: session must be a Session of toolargs (new Session())");
  }
  const toolName = typeof specOptions.name === "string" ? specOptions.name : tool.name;
  const named = { ...specOptions, name: toolName };
  const schema = tool.schema;
  let spec: Spec;
  if (typeof schema === "object" && "_zod" in schema) {
    spec = Spec.fromZod(schema, named);
  } else if (typeof schema === "object" && ("_def" in schema || "safeParse" in schema)) {
    throw new TypeError("gatedTool: a zod 3 schema has no JSON Schema export: write it with zod 4 (or zod/v4)");
  } else {
    spec = new Spec(schema as object, named);
  }
  const invoke = tool.invoke as (input: unknown, config?: unknown) => Promise<unknown>;
  const gated = Object.create(tool) as T;
  Object.defineProperty(gated, "invoke", {
    configurable: true,
    writable: true,
    value: async function (this: T, input: unknown, config?: unknown): Promise<unknown> {
      const call = isToolCall(input) ? input : null;
      const args = (call ? call.args : input) as object;
      const result: ParseResult & { decision?: string } =
        session === null ? spec.parse(args) : session.parse(spec, args);
      const refused = !result.ok || result.decision === "confirm";
      tell(callbacks, result, toolName, refused);
      if (refused) {
        const text = result.forModel();
        if (call?.id === undefined) return text;
        return new ToolMessage({ content: text, tool_call_id: call.id, name: tool.name, status: "error" });
      }
      const repaired = result.arguments as object;
      const output = await invoke.call(this, call ? { ...call, args: repaired } : repaired, config);
      session?.executed(spec, repaired);
      return output;
    },
  });
  return gated;
}

export type { GateCallbacks } from "./callbacks.js";
