// subscriptions/listen (the 2026-07-28 revision) fed by the change feed. The SDK serves the stream (the
// acknowledgement, the filter on the URIs the client named, the subscription id on every notice); each listen
// gets a bus of its own whose events are the changes its caller may see: a change feed of the process's hub
// (the one GET /changes uses over the read models), checked against the caller's access after every batch, so
// a page they no longer see stops being notified and a revoked token ends the stream. Nothing is written.
import {
  createMcpHandler,
  type McpServerFactory,
  type ServerEvent,
  type ServerEventBus,
} from "@modelcontextprotocol/server";
import type { Logger } from "pino";
import type { Principal } from "../../shared/auth/principal.ts";
import type { ChangeFeedHub, Feed } from "../../shared/history/change-feed.ts";
import { pageUri } from "./mcp-server.ts";

/**
 * A bus whose only publisher is one caller's change feed: admitted when the listen arrives (a caller over their
 * bound of open feeds is refused before any stream opens), run once the stream subscribes, closed with it.
 */
class ChangeFeedBus implements ServerEventBus {
  private readonly listeners = new Set<(event: ServerEvent) => void>();
  private readonly feed: Feed;
  private started = false;

  constructor(
    private readonly hub: ChangeFeedHub,
    principal: Principal,
    cursor: number,
    end: () => void,
    private readonly logger: Logger,
  ) {
    this.feed = {
      userId: principal.user.id,
      credential: { tokenId: principal.tokenId, expiresAt: principal.expiresAt },
      cursor,
      deliver: (entries) => {
        for (const { entry } of entries)
          if (entry.entityKind === "page") this.publish({ kind: "resource_updated", uri: pageUri(entry.entityId) });
      },
      end,
    };
    hub.admit(this.feed);
  }

  publish(event: ServerEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    this.listeners.add(listener);
    if (!this.started) {
      this.started = true;
      this.hub.start(this.feed).catch((error: unknown) => {
        this.logger.warn({ event: "mcp.listen_feed_failed", err: error });
        this.feed.end();
      });
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.close();
    };
  }

  /** Ends the feed; also when no stream subscribed (the listen was refused). */
  close(): void {
    this.hub.close(this.feed);
  }

  get listening(): boolean {
    return this.listeners.size > 0;
  }
}

/**
 * Serves one subscriptions/listen request: a handler of its own (a strict 2026-07-28 one, holding nothing
 * once the stream ends) over the caller's change-feed bus.
 */
export async function serveListen(
  hub: ChangeFeedHub,
  principal: Principal,
  factory: McpServerFactory,
  request: Request,
  parsedBody: unknown,
  logger: Logger,
): Promise<Response> {
  const bus = new ChangeFeedBus(hub, principal, await hub.head(), () => void handler.close(), logger);
  const handler = createMcpHandler(factory, {
    legacy: "reject",
    bus,
    maxSubscriptions: 1,
    onerror: (error) => logger.debug({ event: "mcp.listen_refused", err: error }),
  });
  const response = await handler.fetch(request, { parsedBody });
  if (!bus.listening) bus.close();
  return response;
}
