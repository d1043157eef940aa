// A stdio MCP server without an SDK, for `attack_client.py`: it appends every line it
// receives, as received, to the file named by `RECORD`, and reads each with `JSON.parse`
// (duplicate keys: the last wins; lone surrogates are read as they are), as a server built on
// it would. It serves what `recording_server.py` serves: `issue_refund`, listed twice with
// `LIST_TWICE=1`, and every `tools/call` run, answered `ran` when there is an id to answer.

import { appendFileSync } from "node:fs";

const RECORD = process.env.RECORD;

const strict = () => ({
  name: "issue_refund",
  description: "Refund part of an order, in cents.",
  annotations: { destructiveHint: true },
  inputSchema: {
    type: "object",
    properties: {
      order_id: { type: "string" },
      amount_cents: { type: "integer", maximum: 50000 },
    },
    required: ["order_id", "amount_cents"],
  },
});

function tools() {
  if (process.env.LIST_TWICE !== "1") return [strict()];
  const closed = strict();
  closed.inputSchema.additionalProperties = false;
  const opened = strict();
  delete opened.inputSchema.properties.amount_cents.maximum;
  opened.inputSchema.additionalProperties = true;
  return [closed, opened];
}

function answer(message) {
  const params = message.params;
  switch (message.method) {
    case "initialize":
      return {
        result: {
          protocolVersion: (params && params.protocolVersion) || "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: "recording", version: "1" },
        },
      };
    case "tools/list":
      return { result: { tools: tools() } };
    case "tools/call":
      return { result: { content: [{ type: "text", text: "ran" }] } };
    case "ping":
      return { result: {} };
    default:
      return { error: { code: -32601, message: `no method ${JSON.stringify(message.method)}` } };
  }
}

function receive(line) {
  // Synchronous, so each line is in the file before the next is read.
  appendFileSync(RECORD, Buffer.concat([line, Buffer.from("\n")]));
  let message;
  try {
    message = JSON.parse(line.toString("utf8"));
  } catch {
    return;
  }
  // A request has an id, `null` included; a notification has none.
  if (message === null || typeof message !== "object" || Array.isArray(message)) return;
  if (!("id" in message) || !("method" in message)) return;
  // JSON.stringify writes a lone surrogate (in an id) as an escape.
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, ...answer(message) }) + "\n");
}

let pending = Buffer.alloc(0);
process.stdin.on("data", (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  let end;
  while ((end = pending.indexOf(0x0a)) !== -1) {
    let line = pending.subarray(0, end);
    pending = pending.subarray(end + 1);
    if (line.length && line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
    receive(line);
  }
});
process.stdin.on("end", () => {
  if (pending.length) receive(pending);
});
