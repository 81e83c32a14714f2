// The chaos run's change-feed client: keeps GET /api/v1/changes open through the gateway and, whenever the
// stream ends or fails (a query node killed, nginx reloaded), opens it again with Last-Event-ID, as a browser's
// EventSource does. It records the pages whose creation it saw, and how often it had to reconnect.
import { z } from "zod";

const changeSchema = z.object({ type: z.string(), entity: z.object({ kind: z.string(), id: z.string() }) }).loose();

export interface FeedWatch {
  readonly createdPages: ReadonlySet<string>;
  readonly reconnects: () => number;
  stop(): void;
}

export function watchFeed(url: string, cookie: string): FeedWatch {
  const createdPages = new Set<string>();
  let reconnects = 0;
  let lastId: string | null = null;
  let stopped = false;
  const controller = new AbortController();
  const read = async () => {
    const headers: Record<string, string> = { accept: "text/event-stream", cookie };
    if (lastId) headers["last-event-id"] = lastId;
    const response = await fetch(url, { headers, signal: controller.signal });
    if (!response.ok || !response.body) throw new Error(`feed answered ${response.status}`);
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (id) lastId = id;
        if (!data) continue;
        const change = changeSchema.safeParse(JSON.parse(data));
        if (change.success && change.data.type === "PageCreated") createdPages.add(change.data.entity.id);
      }
    }
  };
  void (async () => {
    while (!stopped) {
      await read().catch(() => undefined);
      if (stopped) return;
      reconnects += 1;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  })();
  return {
    createdPages,
    reconnects: () => reconnects,
    stop: () => {
      stopped = true;
      controller.abort();
    },
  };
}
