// The official MCP client (the SDK's Client over StreamableHTTPClientTransport), connected to a server's /mcp
// with an API token, as an agent connects.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export interface Agent {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  /** Calls a tool and answers its structured result, or throws with the tool error's text. */
  call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Calls a tool that must fail: its error's code and message. */
  refused(name: string, args: Record<string, unknown>): Promise<{ code: string; message: string }>;
  close(): Promise<void>;
}

const textOf = (result: CallToolResult): string =>
  result.content.map((part) => (part.type === "text" ? part.text : "")).join("");

export async function connectAgent(baseUrl: string, token: string): Promise<Agent> {
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", baseUrl), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  await client.connect(transport);
  const callTool = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
    CallToolResultSchema.parse(await client.callTool({ name, arguments: args }));
  return {
    client,
    transport,
    async call(name, args) {
      const result = await callTool(name, args);
      if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
      return result.structuredContent ?? {};
    },
    async refused(name, args) {
      const result = await callTool(name, args);
      if (!result.isError) throw new Error(`${name} did not fail: ${textOf(result)}`);
      const parsed = JSON.parse(textOf(result)) as { error: { code: string; message: string } };
      return parsed.error;
    },
    close: () => client.close(),
  };
}
