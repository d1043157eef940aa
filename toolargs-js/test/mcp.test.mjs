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
  if (gate) gateServer(server, gate === true ? undefined : gate);
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
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  assert.throws(() => gateServer(server, { unknown: "keep" }), RangeError);
  assert.throws(() => gateServer(server, { sessions: { correctionsPerTool: -1 } }), RangeError);
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  assert.throws(() => gateServer(server, { sessions: { windowMs: 1 } }), TypeError);
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  assert.throws(() => gateServer(server, { meaning: [] }), TypeError);
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  assert.throws(() => gateServer(server, { meaning: { issue_refund: "money" } }), /issue_refund/);
  assert.equal(gateServer(server), server);
  assert.equal(gateServer(server), server);
});

const AMOUNT = { semantic: "money", currency: "currency", minor_units: true, critical: true };

/** A server with the refund tool (destructive) and a lookup (read-only), gated with the
 * refund's meaning and `options`; `seen` holds what reached the handlers. `connect(id)`
 * connects a client over a transport of the MCP session `id` (none when absent), closing the
 * one before. */
function shop(options = {}) {
  const server = gateServer(new McpServer({ name: "shop", version: "1.0.0" }), {
    meaning: { issue_refund: { amount_cents: AMOUNT } },
    ...options,
  });
  const seen = [];
  server.registerTool(
    "issue_refund",
    {
      inputSchema: { order_id: z.string(), amount_cents: z.number().int(), currency: z.string().regex(/^[A-Z]{3}$/) },
      annotations: { destructiveHint: true },
    },
    async (args) => {
      seen.push(args);
      return { content: [{ type: "text", text: "refunded" }] };
    },
  );
  server.registerTool(
    "lookup",
    { inputSchema: { order_id: z.string() }, annotations: { readOnlyHint: true } },
    async (args) => {
      seen.push(args);
      return { content: [{ type: "text", text: "found" }] };
    },
  );
  let client = null;
  const connect = async (id) => {
    if (client !== null) await Promise.all([client.close(), server.close()]);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    if (id !== undefined) serverSide.sessionId = id;
    client = new Client({ name: "test", version: "1.0.0" });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    return client;
  };
  const close = () => Promise.all([client.close(), server.close()]);
  return { seen, connect, close };
}

/** The codes of the gate's errors in a result, which must be an error. */
function told(result) {
  assert.equal(result.isError, true, JSON.stringify(result));
  return JSON.parse(result.content[0].text).errors.map((e) => e.error);
}

const refund = (args) => ({ name: "issue_refund", arguments: args });

test("within an MCP session, a refund's corrections that change what it means never reach the handler, nor does the same refund twice", async () => {
  for (const id of [undefined, "session-1"]) {
    const { seen, connect, close } = shop();
    const client = await connect(id);
    assert.deepEqual(told(await client.callTool(refund({ order_id: "ord_1", amount_cents: "19.99", currency: "USD" }))), [
      "ambiguous_integer",
    ]);
    assert.deepEqual(told(await client.callTool(refund({ order_id: "ord_1", amount_cents: 199900, currency: "USD" }))), [
      "meaning_changed",
    ]);
    assert.deepEqual(seen, []);
    const ran = await client.callTool(refund({ order_id: "ord_1", amount_cents: 1999, currency: "USD" }));
    assert.equal(ran.isError, undefined);
    assert.deepEqual(seen, [{ order_id: "ord_1", amount_cents: 1999, currency: "USD" }]);
    // The same refund, sent again as text: held.
    assert.deepEqual(told(await client.callTool(refund({ order_id: "ord_1", amount_cents: "1999", currency: "USD" }))), [
      "duplicate_action",
    ]);
    assert.deepEqual(told(await client.callTool(refund({ order_id: "ord_2", amount_cents: "15,00", currency: "USD" }))), [
      "ambiguous_integer",
    ]);
    const cad = told(await client.callTool(refund({ order_id: "ord_2", amount_cents: 1500, currency: "CAD" })));
    assert.ok(cad.includes("meaning_changed"), JSON.stringify(cad));
    assert.equal(seen.length, 1);
    await close();
  }
});

test("each MCP session has a session of its own, kept while the server lives", async () => {
  const { seen, connect, close } = shop();
  const cents = { order_id: "ord_1", amount_cents: 1999, currency: "USD" };
  let client = await connect("a");
  assert.equal((await client.callTool(refund(cents))).isError, undefined);
  // Another MCP session: session a's refund is not its duplicate.
  client = await connect("b");
  assert.equal((await client.callTool(refund(cents))).isError, undefined);
  told(await client.callTool(refund({ ...cents, order_id: "ord_9", amount_cents: "9.99" })));
  // Session a again: its refund is held, and session b's rejection is not its original.
  client = await connect("a");
  assert.deepEqual(told(await client.callTool(refund(cents))), ["duplicate_action"]);
  assert.equal((await client.callTool(refund({ ...cents, order_id: "ord_9", amount_cents: 99900 }))).isError, undefined);
  // Session b's correction is compared with its original.
  client = await connect("b");
  assert.deepEqual(told(await client.callTool(refund({ ...cents, order_id: "ord_9", amount_cents: 99900 }))), [
    "meaning_changed",
  ]);
  assert.equal(seen.length, 3);
  await close();
});

test("gateServer's sessions take its options", async () => {
  const { seen, connect, close } = shop({ sessions: { correctionsPerTool: 0, duplicateWindowMs: 0 } });
  const client = await connect("a");
  const cents = { order_id: "ord_1", amount_cents: 1999, currency: "USD" };
  await client.callTool(refund(cents));
  // No window: the same refund runs again.
  assert.equal((await client.callTool(refund(cents))).isError, undefined);
  told(await client.callTool(refund({ ...cents, amount_cents: "19.99" })));
  assert.deepEqual(told(await client.callTool(refund(cents))), ["retry_budget_exhausted"]);
  assert.equal(seen.length, 2);
  await close();
});

test("within an MCP session, a read-only tool's calls run, the same one twice too", async () => {
  const { seen, connect, close } = shop();
  const client = await connect("s");
  for (let i = 0; i < 2; i++) {
    const result = await client.callTool({ name: "lookup", arguments: { order_id: "ord_1", verbose: true } });
    assert.equal(result.content[0].text, "found");
  }
  assert.deepEqual(seen, [{ order_id: "ord_1" }, { order_id: "ord_1" }]);
  await close();
});

test("a handler that throws has not run: the same call again is not a duplicate", async () => {
  const server = gateServer(new McpServer({ name: "shop", version: "1.0.0" }), {
    meaning: { issue_refund: { amount_cents: AMOUNT } },
  });
  let calls = 0;
  server.registerTool(
    "issue_refund",
    {
      inputSchema: { order_id: z.string(), amount_cents: z.number().int(), currency: z.string() },
      annotations: { destructiveHint: true },
    },
    async () => {
      calls += 1;
      if (calls === 1) throw new Error("the payment provider timed out");
      return { content: [{ type: "text", text: "refunded" }] };
    },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test", version: "1.0.0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const cents = { order_id: "ord_1", amount_cents: 1999, currency: "USD" };
  assert.match((await client.callTool(refund(cents))).content[0].text, /timed out/);
  assert.equal((await client.callTool(refund(cents))).content[0].text, "refunded");
  assert.deepEqual(told(await client.callTool(refund(cents))), ["duplicate_action"]);
  assert.equal(calls, 2);
  await Promise.all([client.close(), server.close()]);
});

test("onRepair and onReject are told of each call repaired or refused, with the tool's name", async () => {
  const told = [];
  const { client, close } = await connect({
    gate: {
      onRepair: (result, name) => told.push(["repair", name, result.repairs.map((r) => r.rule)]),
      onReject: (result, name) => told.push(["reject", name, result.errors.map((e) => e.code), result.decision]),
    },
  });
  await client.callTool({ name: "refund", arguments: { order_id: "A1", amount_cents: "1999", notify: false } });
  await client.callTool({ name: "refund", arguments: { order_id: "A1", amount_cents: "19.99", notify: false } });
  await client.callTool({ name: "lookup", arguments: { order_id: "A1" } });
  assert.deepEqual(told, [
    ["repair", "refund", ["numeric_string_to_int"]],
    ["reject", "refund", ["ambiguous_integer"], "reject"],
  ]);
  await close();
  // @ts-expect-error -- outside the declared types: a misuse whose error the test checks, or a value of its tables the checker widens
  assert.throws(() => gateServer(new McpServer({ name: "s", version: "1" }), { onRepair: 1 }), TypeError);
});
