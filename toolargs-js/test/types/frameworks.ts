// Compiled by `types.test.mjs` (tsc --noEmit --strict): `toolargs/ai`, `toolargs/mcp` and
// `toolargs/agents` with the SDKs' own types.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { generateText, tool } from "ai";
import type { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import { gated, repairToolCall } from "toolargs/ai";
import { gateServer } from "toolargs/mcp";
import { Session } from "toolargs";

const session = new Session({ correctionsPerTool: 2 });
const AMOUNT = { semantic: "money", currency: "currency", minor_units: true, critical: true };
const inSession = gated(
  tool({
    inputSchema: z.object({ order_id: z.string(), amount_cents: z.number().int(), currency: z.string() }),
    execute: async ({ amount_cents }) => ({ refunded: amount_cents }),
  }),
  { session, name: "issue_refund", meaning: { amount_cents: AMOUNT } },
);
void inSession;

const refund = gated(
  tool({
    description: "Refund an order",
    inputSchema: z.object({ order_id: z.string(), amount_cents: z.number().int() }),
    execute: async ({ amount_cents }) => ({ refunded: amount_cents }),
  }),
  { effect: "destructive" },
);

export async function run(model: MockLanguageModelV4): Promise<string> {
  const result = await generateText({
    model,
    tools: { refund },
    prompt: "go",
    experimental_repairToolCall: repairToolCall({ unknown: "reject" }),
  });
  return result.text;
}

const server: McpServer = gateServer(new McpServer({ name: "shop", version: "1.0.0" }), {
  effect: "additive",
  meaning: { issue_refund: { amount_cents: AMOUNT } },
  sessions: { duplicateWindowMs: 60_000 },
});
server.registerTool("noop", { inputSchema: { a: z.string() } }, async ({ a }) => ({
  content: [{ type: "text", text: a }],
}));

import { Agent, tool as agentTool } from "@openai/agents";
import { gatedTool } from "toolargs/agents";

const lookup = gatedTool(agentTool, {
  name: "lookup",
  description: "Look an order up",
  parameters: z.object({ order_id: z.string() }),
  execute: async ({ order_id }: { order_id: string }) => `found ${order_id}`,
}, { session, effect: "read_only" });
export const agent = new Agent({ name: "shop", tools: [lookup] });

import { tool as langChainTool } from "@langchain/core/tools";
import { gatedTool as gatedLangChainTool } from "toolargs/langchain";

const lookupChain = gatedLangChainTool(
  langChainTool(async ({ order_id }: { order_id: string }) => `found ${order_id}`, {
    name: "lookup",
    description: "Look an order up",
    schema: z.object({ order_id: z.string() }),
  }),
  {
    session,
    effect: "read_only",
    onRepair: (result, toolName) => void [result.repairs[0]?.rule, toolName],
    onReject: (result, toolName) => void [result.errors[0]?.code, toolName],
  },
);
export const lookedUp: Promise<unknown> = lookupChain.invoke({ order_id: "A1" });
