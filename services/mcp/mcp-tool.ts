// What an MCP tool is here: a name clients rely on, the scope it needs, the rate-limit budget a call spends,
// zod schemas for its arguments and its structured result, the hints clients show, and a function that calls
// the same application functions as the HTTP routes. Registered on every server, behind a challenge for its
// scope, and listed only to callers whose token holds the scope (mcp-server.ts).
import type { ToolAnnotations } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { Principal } from "../../shared/auth/principal.ts";
import type { Actor } from "../../shared/commands/guarded-command.ts";
import type { Scope } from "../../shared/kernel/scopes.ts";
import type { RateLimitClass } from "../../shared/rate-limit/rate-limit-policy.ts";

/** Who calls a tool, and the facts their events carry. */
export interface ToolCaller {
  readonly principal: Principal;
  /** The events' actor and correlation id (the HTTP request that carried the call), at the call's time. */
  actor(): Actor;
}

export interface McpTool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly scope: Scope;
  readonly budget: RateLimitClass;
  readonly input: I;
  readonly output: O;
  readonly annotations: ToolAnnotations;
  run(args: z.output<I>, caller: ToolCaller): Promise<z.output<O>>;
  /** The text content beside the structured one; the JSON of the result when absent. */
  text?(result: z.output<O>): string;
}

/** Keeps each tool's argument and result types tied to its schemas. */
export const defineTool = <I extends z.ZodObject, O extends z.ZodObject>(tool: McpTool<I, O>): McpTool<I, O> => tool;

export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
/** A change that adds or edits but loses nothing the history cannot give back. */
export const ADDITIVE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
export const IDEMPOTENT_CHANGE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
export const DESTRUCTIVE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};
