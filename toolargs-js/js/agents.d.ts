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

import type { SpecOptions } from "toolargs";

/**
 * `tool(toolOptions)`, made with the SDK's own `tool` (passed in) and gated: the model's JSON
 * text is judged before the SDK parses it with `parameters`. A rejected call never reaches the
 * parser or `execute`: the tool's output, which the model reads, is the gate's JSON
 * (`{"ok":false,"errors":[...]}`). A repaired call goes on as the JSON text of the repaired
 * arguments. The spec is `parameters` as written: a zod 4 schema through `Spec.fromZod` (the
 * SDK sends the model a copy lowered for strict mode, where `.int()` is lost), or a JSON Schema.
 *
 * @throws {TypeError} `tool` is not a function, or `toolOptions` not an object.
 * @throws {LoadError} `parameters` cannot be loaded.
 * @throws {RangeError} `effect` or `unknown` is not one of its names.
 */
export function gatedTool<TOOL extends (toolOptions: any) => unknown>(
  tool: TOOL,
  toolOptions: Parameters<TOOL>[0],
  options?: SpecOptions,
): ReturnType<TOOL>;
