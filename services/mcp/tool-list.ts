// The answer to tools/list, computed once per set of scopes (turning every tool's zod schemas into JSON Schema
// is most of its cost) and shared by every request of that set, so a flood of tools/list costs a lookup each.
import type { ListToolsResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { Scope } from "../../shared/kernel/scopes.ts";
import type { McpTool } from "./mcp-tool.ts";

/** Whether a caller with these scopes (null: a browser session, every scope) may call the tool. */
const mayCall = (scopes: readonly Scope[] | null, tool: McpTool): boolean =>
  scopes === null || scopes.includes(tool.scope);

type ListedTool = ListToolsResult["tools"][number];

export class ToolList {
  private readonly byScopes = new Map<
    string,
    { readonly listed: ListToolsResult; readonly names: ReadonlySet<string> }
  >();

  constructor(private readonly tools: readonly McpTool[]) {}

  /** The tools a caller with these scopes may call, as tools/list answers them, in the order of `tools`. */
  for(scopes: readonly Scope[] | null): ListToolsResult {
    return this.entry(scopes).listed;
  }

  /** Names of the tools a caller with these scopes may call. */
  callable(scopes: readonly Scope[] | null): ReadonlySet<string> {
    return this.entry(scopes).names;
  }

  /** Every tool's name with the scope it needs. */
  scopeOf(name: string): Scope | null {
    return this.tools.find((tool) => tool.name === name)?.scope ?? null;
  }

  private entry(scopes: readonly Scope[] | null) {
    const key = scopes === null ? "*" : [...new Set(scopes)].sort().join(" ");
    const known = this.byScopes.get(key);
    if (known) return known;
    const listed: ListToolsResult = {
      tools: this.tools
        .filter((tool) => mayCall(scopes, tool))
        .map((tool): ListedTool => ({
          name: tool.name,
          title: tool.title,
          description: tool.description,
          // The same conversion the SDK makes (JSON Schema 2020-12, the input and output sides of each schema).
          inputSchema: z.toJSONSchema(tool.input, {
            target: "draft-2020-12",
            io: "input",
          }) as ListedTool["inputSchema"],
          outputSchema: z.toJSONSchema(tool.output, { target: "draft-2020-12", io: "output" }),
          annotations: tool.annotations,
        })),
    };
    const entry = { listed, names: new Set(listed.tools.map((tool) => tool.name)) };
    this.byScopes.set(key, entry);
    return entry;
  }
}
