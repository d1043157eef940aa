/**
 * `toolargs/mcp`: the gate in front of every tool of an `McpServer` of the MCP TypeScript SDK
 * (`@modelcontextprotocol/sdk`, 1.x).
 *
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
 * import { gateServer } from "toolargs/mcp";
 *
 * const server = gateServer(new McpServer({ name: "shop", version: "1.0.0" }));
 * ```
 *
 * @packageDocumentation
 */

import type { SpecOptions } from "toolargs";

/**
 * Gates every tool of `server`, those registered before and after: a call the gate rejects is
 * answered with an `isError` result whose text is the gate's JSON (`{"ok":false,"errors":[...]}`)
 * and never reaches the handler; an accepted one goes on, repaired, to the tool's own zod
 * schema and its handler. A tool's spec is the JSON Schema of its zod 4 schema (of what it
 * accepts as input), with the tool's annotations deciding what `options` leave open (a
 * read-only tool strips unknown keys, every other rejects them). The tools listed to clients
 * are unchanged. Returns `server`.
 *
 * @throws {TypeError} `server` is not an `McpServer` of the SDK's 1.x.
 * @throws {RangeError} `effect` or `unknown` is not one of its names.
 */
export function gateServer<S extends object>(server: S, options?: SpecOptions): S;
