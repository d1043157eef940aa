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

import type { Session, SpecOptions } from "toolargs";

/** The options of `gatedTool`: the spec's, and the session the tool's calls are judged in. */
export interface GatedToolOptions extends SpecOptions {
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
export function gatedTool<TOOL extends (toolOptions: any) => unknown>(
  tool: TOOL,
  toolOptions: Parameters<TOOL>[0],
  options?: GatedToolOptions,
): ReturnType<TOOL>;
