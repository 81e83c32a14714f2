// The chaos run's webhook receiver: a local HTTP endpoint that records every call (its webhook-id and the page
// it names) and answers 200. A repeat is allowed only with the same webhook-id (the same message sent again).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";

const callSchema = z.object({ type: z.string(), data: z.object({ pageId: z.string().optional() }).loose() });

export interface WebhookCalls {
  readonly url: string;
  /** webhook-ids seen for each page named by a page.created call. */
  readonly byPage: ReadonlyMap<string, ReadonlySet<string>>;
  readonly calls: () => number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<WebhookCalls> {
  const byPage = new Map<string, Set<string>>();
  let calls = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      calls += 1;
      const id = [request.headers["webhook-id"]].flat()[0] ?? "";
      let parsed: z.infer<typeof callSchema> | null;
      try {
        parsed = callSchema.parse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch {
        parsed = null;
      }
      const pageId = parsed?.type === "page.created" ? parsed.data.pageId : undefined;
      if (pageId) byPage.set(pageId, (byPage.get(pageId) ?? new Set()).add(id));
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    byPage,
    calls: () => calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
