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

import type { Session, SpecOptions } from "toolargs";

/** The options of `gated`: the spec's, and the session the tool's calls are judged in. */
export interface GatedOptions extends SpecOptions {
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
export function gated<T extends { inputSchema: unknown; execute?: (...args: any[]) => unknown }>(
  tool: T,
  options?: GatedOptions,
): T;

/** A call as `experimental_repairToolCall` receives and returns it (its input is JSON text). */
export interface ToolCallToRepair {
  toolName: string;
  input: string;
  [key: string]: unknown;
}

/**
 * For `generateText`'s and `streamText`'s `experimental_repairToolCall`: a call that the tool's
 * own schema refused is repaired here, without a second model call, when the gate accepts it
 * with repairs (the SDK then validates the repaired call with the tool's schema); otherwise
 * `null`, and the SDK reports the tool's own error. The gate reads the call's JSON text as the
 * model sent it; each tool's JSON Schema is loaded once.
 */
export function repairToolCall(
  options?: SpecOptions,
): <CALL extends ToolCallToRepair>(repair: {
  toolCall: CALL;
  tools: Record<string, unknown>;
  inputSchema: (tool: { toolName: string }) => PromiseLike<unknown> | unknown;
  [key: string]: unknown;
}) => Promise<CALL | null>;
