// `toolargs/mcp` with the MCP TypeScript SDK (`@modelcontextprotocol/sdk`, pinned in
// package-lock.json): a server's tools called by the SDK's own `Client` over its
// `InMemoryTransport`.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { gateServer } from "toolargs/mcp";

/** A server with a refund tool (destructive) and a lookup tool (read-only), gated or not, and
 * a client connected to it; `seen` holds the arguments each handler received. */
async function connect({ gate, registerAfter = false }) {
  const server = new McpServer({ name: "shop", version: "1.0.0" });
  const seen = [];
  const register = () => {
    server.registerTool(
      "refund",
      {
        description: "Refund an order",
        inputSchema: { order_id: z.string(), amount_cents: z.number().int(), notify: z.boolean() },
        annotations: { destructiveHint: true, readOnlyHint: false },
      },
      async (args) => {
        seen.push(args);
        return { content: [{ type: "text", text: "refunded" }] };
      },
    );
    server.registerTool(
      "lookup",
      {
        inputSchema: z.object({ order_id: z.string() }),
        annotations: { readOnlyHint: true },
      },
      async (args) => {
        seen.push(args);
        return { content: [{ type: "text", text: "found" }] };
      },
    );
  };
  if (!registerAfter) register();
  if (gate) gateServer(server);
  if (registerAfter) register();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test", version: "1.0.0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { client, seen, close: () => Promise.all([client.close(), server.close()]) };
}

test("a repaired call reaches the handler repaired", async () => {
  for (const registerAfter of [false, true]) {
    const { client, seen, close } = await connect({ gate: true, registerAfter });
    const result = await client.callTool({
      name: "refund",
      arguments: { order_id: "A1", amount_cents: "1999", notify: "false" },
    });
    assert.equal(result.isError, undefined);
    assert.deepEqual(seen, [{ order_id: "A1", amount_cents: 1999, notify: false }]);
    await close();
  }
});

test("a rejected call is answered with the gate's JSON and never reaches the handler", async () => {
  const { client, seen, close } = await connect({ gate: true });
  const result = await client.callTool({
    name: "refund",
    arguments: { order_id: "A1", amount_cents: "19.99", notify: true, overwrite: true },
  });
  assert.equal(result.isError, true);
  assert.deepEqual(seen, []);
  const told = JSON.parse(result.content[0].text);
  assert.equal(told.ok, false);
  assert.deepEqual(told.errors.map((e) => [e.path, e.error]), [
    ["$.overwrite", "unknown_field"],
    ["$.amount_cents", "ambiguous_integer"],
  ]);
  await close();
});

test("a read-only tool's unknown key is stripped, as its annotations say", async () => {
  const { client, seen, close } = await connect({ gate: true });
  const result = await client.callTool({
    name: "lookup",
    arguments: { order_id: "A1", verbose: true },
  });
  assert.equal(result.isError, undefined);
  assert.deepEqual(seen, [{ order_id: "A1" }]);
  await close();
});

test("ungated, the SDK's zod validation refuses the repairable call; the tools listed are the same", async () => {
  const plain = await connect({ gate: false });
  const result = await plain.client.callTool({
    name: "refund",
    arguments: { order_id: "A1", amount_cents: "1999", notify: "false" },
  });
  assert.equal(result.isError, true);
  assert.match(result.content[0].text, /Input validation error/);
  assert.deepEqual(plain.seen, []);
  const gated = await connect({ gate: true });
  assert.deepEqual(await gated.client.listTools(), await plain.client.listTools());
  await plain.close();
  await gated.close();
});

test("gateServer refuses what is not an McpServer and options outside their names", () => {
  assert.throws(() => gateServer({}), TypeError);
  const server = new McpServer({ name: "shop", version: "1.0.0" });
  assert.throws(() => gateServer(server, { unknown: "keep" }), RangeError);
  assert.equal(gateServer(server), server);
  assert.equal(gateServer(server), server);
});
