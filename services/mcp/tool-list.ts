// The answer to tools/list, computed once per set of scopes (turning every tool's zod schemas into JSON Schema
// is most of its cost) and shared by every session of that set, so a flood of tools/list costs a lookup each.
import { toJsonSchemaCompat } from "@modelcontextprotocol/sdk/server/zod-json-schema-compat.js";
import type { ListToolsResult } from "@modelcontextprotocol/sdk/types.js";
import type { Scope } from "../../shared/kernel/scopes.ts";
import type { McpTool } from "./mcp-tool.ts";

/** Whether a caller with these scopes (null: a browser session, every scope) may call the tool. */
export const mayCall = (scopes: readonly Scope[] | null, tool: McpTool): boolean => scopes === null || scopes.includes(tool.scope);

export class ToolList {
  private readonly byScopes = new Map<string, { readonly listed: ListToolsResult; readonly names: ReadonlySet<string> }>();

  constructor(private readonly tools: readonly McpTool[]) {}

  /** The tools a caller with these scopes may call, as tools/list answers them, in the order of `tools`. */
  for(scopes: readonly Scope[] | null): ListToolsResult {
    return this.entry(scopes).listed;
  }

  /** Names of the tools a caller with these scopes may call. */
  callable(scopes: readonly Scope[] | null): ReadonlySet<string> {
    return this.entry(scopes).names;
  }

  private entry(scopes: readonly Scope[] | null) {
    const key = scopes === null ? "*" : [...new Set(scopes)].sort().join(" ");
    const known = this.byScopes.get(key);
    if (known) return known;
    const listed: ListToolsResult = {
      tools: this.tools
        .filter((tool) => mayCall(scopes, tool))
        .map((tool) => ({
          name: tool.name,
          title: tool.title,
          description: tool.description,
          inputSchema: toJsonSchemaCompat(tool.input, { strictUnions: true, pipeStrategy: "input" }) as ListToolsResult["tools"][number]["inputSchema"],
          outputSchema: toJsonSchemaCompat(tool.output, { strictUnions: true, pipeStrategy: "output" }) as NonNullable<ListToolsResult["tools"][number]["outputSchema"]>,
          annotations: tool.annotations,
        })),
    };
    const entry = { listed, names: new Set(listed.tools.map((tool) => tool.name)) };
    this.byScopes.set(key, entry);
    return entry;
  }
}
