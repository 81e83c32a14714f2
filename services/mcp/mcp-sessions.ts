// The sessions of 2025-11-25 clients (and older revisions the SDK negotiates down): the 2025 revision has
// protocol sessions, a GET stream and resources/subscribe, which the 2026-07-28 revision replaced by stateless
// requests and subscriptions/listen. Each session is one transport and one server of this process, bound to the
// credential that opened it, and follows the change log through a change feed of its own, which notifies its
// subscribed page resources and ends the session when its token is revoked or its credential expires. Idle
// sessions are closed after a while; past the per-user bound, the user's least recently used makes room.
import { randomUUID } from "node:crypto";
import type { McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import type { Logger } from "pino";
import type { Principal } from "../../shared/auth/principal.ts";
import type { ChangeFeedHub, Feed } from "../../shared/history/change-feed.ts";
import { pageUri, type CallerState } from "./mcp-server.ts";

export interface McpSessionLimits {
  /** Open sessions one user may hold on this process; one more closes their least recently used. */
  readonly maxPerUser: number;
  /** A session without a request for this long is closed. */
  readonly idleMs: number;
}

export const DEFAULT_SESSION_LIMITS: McpSessionLimits = { maxPerUser: 16, idleMs: 30 * 60_000 };

export interface McpSession extends CallerState {
  readonly key: string;
  id: string | null;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: McpServer;
  readonly feed: Feed;
  lastSeen: number;
}

/** A session belongs to the credential that opened it: the same API token, or the same user's browser session. */
const credentialOf = (principal: Principal): string =>
  principal.tokenId ? `token:${principal.tokenId}` : `user:${principal.user.id}`;

export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();
  private readonly sweep: NodeJS.Timeout;

  constructor(
    private readonly hub: ChangeFeedHub,
    private readonly options: {
      readonly clock: () => Date;
      readonly logger: Logger;
      readonly limits: McpSessionLimits;
    },
  ) {
    this.sweep = setInterval(() => this.closeIdle(), Math.min(60_000, options.limits.idleMs));
    this.sweep.unref();
  }

  /** The session with this id, if it belongs to this caller's credential; any other answers as unknown. */
  find(id: string, principal: Principal, requestId: string): McpSession | null {
    const session = this.sessions.get(id);
    if (!session || session.key !== credentialOf(principal)) return null;
    session.principal = principal;
    session.requestId = requestId;
    session.lastSeen = this.options.clock().getTime();
    return session;
  }

  /** A session whose id is not known yet (the transport gives it once `initialize` is handled). */
  async open(
    principal: Principal,
    requestId: string,
    make: (state: CallerState) => { transport: WebStandardStreamableHTTPServerTransport; server: McpServer },
  ): Promise<McpSession> {
    this.makeRoomFor(principal.user.id);
    const state: CallerState = { principal, requestId, subscriptions: new Set() };
    const { transport, server } = make(state);
    const feed: Feed = {
      userId: principal.user.id,
      credential: { tokenId: principal.tokenId, expiresAt: principal.expiresAt },
      cursor: await this.hub.head(),
      deliver: (entries) => {
        for (const { entry } of entries) {
          if (entry.entityKind !== "page" || !state.subscriptions.has(entry.entityId)) continue;
          server.server.sendResourceUpdated({ uri: pageUri(entry.entityId) }).catch(() => undefined);
        }
      },
      // The hub ends a feed whose token was revoked or whose credential expired: the session ends with it.
      end: () => void this.close(session),
    };
    const session: McpSession = Object.assign(state, {
      key: credentialOf(principal),
      id: null,
      transport,
      server,
      feed,
      lastSeen: this.options.clock().getTime(),
    });
    this.hub.admit(feed);
    transport.onclose = () => void this.close(session);
    this.hub.start(feed).catch((error: unknown) => {
      this.options.logger.warn({ event: "mcp.session_feed_failed", err: error });
      void this.close(session);
    });
    return session;
  }

  /** Called once the transport named the session. */
  register(session: McpSession, id: string): void {
    session.id = id;
    this.sessions.set(id, session);
  }

  async close(session: McpSession): Promise<void> {
    if (session.id !== null && this.sessions.get(session.id) !== session) return;
    if (session.id !== null) this.sessions.delete(session.id);
    session.id = `closed-${randomUUID()}`;
    this.hub.close(session.feed);
    await session.server.close().catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweep);
    await Promise.all([...this.sessions.values()].map((session) => this.close(session)));
  }

  get size(): number {
    return this.sessions.size;
  }

  private makeRoomFor(userId: string): void {
    const theirs = [...this.sessions.values()]
      .filter((session) => session.principal.user.id === userId)
      .sort((a, b) => a.lastSeen - b.lastSeen);
    for (const session of theirs.slice(0, Math.max(0, theirs.length - this.options.limits.maxPerUser + 1)))
      void this.close(session);
  }

  private closeIdle(): void {
    const before = this.options.clock().getTime() - this.options.limits.idleMs;
    for (const session of this.sessions.values()) if (session.lastSeen < before) void this.close(session);
  }
}
