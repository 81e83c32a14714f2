// A connection to NATS that a process can start without: it connects in the background, retrying until the
// server answers, and then reconnects for ever after a lost connection (the client's own reconnection). A
// service that needs the bus for part of its work (publishing integration events, shared rate-limit counters,
// a consumer group) starts and serves at once, and asks `connection()` at the moment it needs one; the bus
// being away costs nothing but that part of the work. `up` says whether the server is reachable right now, for
// /readyz and the metrics.
import { connect, type NatsConnection } from "@nats-io/transport-node";
import type { Logger } from "pino";

export interface NatsLinkOptions {
  /** Name of this connection, as the server shows it. */
  readonly name: string;
  readonly logger?: Pick<Logger, "info" | "warn">;
  /** Told each time the link goes up or down. */
  readonly onChange?: (up: boolean) => void;
  /** First wait between attempts to connect; doubled after each failure up to maxRetryDelayMs. */
  readonly retryDelayMs?: number;
  readonly maxRetryDelayMs?: number;
}

/**
 * How often the client pings the server, and how many pings may go unanswered: a server that is frozen (not
 * stopped, so the socket stays open) is seen as lost within about 3 seconds, not the client's default 4 minutes.
 */
const PING_INTERVAL_MS = 1_000;
const MAX_PINGS_OUT = 2;

export class NatsLink {
  private current: NatsConnection | null = null;
  private reachable = false;
  private closed = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly waiting = new Set<(connection: NatsConnection) => void>();
  private readonly listeners = new Set<(connection: NatsConnection) => void>();

  private constructor(
    private readonly url: string,
    private readonly options: NatsLinkOptions,
  ) {}

  /** Starts connecting in the background and returns at once. */
  static open(url: string, options: NatsLinkOptions): NatsLink {
    const link = new NatsLink(url, options);
    void link.attempt(0);
    return link;
  }

  /** Whether the server answered last time we looked: false before the first connection and while reconnecting. */
  get up(): boolean {
    return this.reachable;
  }

  /** The connection once one was made (it may be reconnecting: see `up`), or null before that. */
  connection(): NatsConnection | null {
    return this.current;
  }

  /** Resolves with the connection once the server has answered once. */
  connected(): Promise<NatsConnection> {
    if (this.current) return Promise.resolve(this.current);
    return new Promise((resolve) => this.waiting.add(resolve));
  }

  /** Calls `listener` at the first connection and after every reconnection (again at once when up already). */
  onUp(listener: (connection: NatsConnection) => void): () => void {
    this.listeners.add(listener);
    if (this.current && this.reachable) listener(this.current);
    return () => this.listeners.delete(listener);
  }

  private async attempt(failures: number): Promise<void> {
    if (this.closed) return;
    try {
      const connection = await connect({
        servers: this.url,
        name: this.options.name,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 250,
        pingInterval: PING_INTERVAL_MS,
        maxPingOut: MAX_PINGS_OUT,
      });
      if (this.closed) {
        await connection.close();
        return;
      }
      this.current = connection;
      this.change(true);
      for (const resolve of this.waiting) resolve(connection);
      this.waiting.clear();
      void this.watch(connection);
    } catch (error) {
      if (failures === 0)
        this.options.logger?.warn(
          { event: "nats.unreachable", name: this.options.name, err: error },
          "NATS does not answer; serving without it and retrying",
        );
      const first = this.options.retryDelayMs ?? 250;
      const delay = Math.min(first * 2 ** Math.min(failures, 10), this.options.maxRetryDelayMs ?? 2_000);
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.attempt(failures + 1);
      }, delay);
    }
  }

  private async watch(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (status.type === "disconnect" && this.reachable) {
        this.options.logger?.warn(
          { event: "nats.disconnected", name: this.options.name },
          "lost NATS; serving without it and reconnecting",
        );
        this.change(false);
      } else if (status.type === "reconnect") {
        this.options.logger?.info({ event: "nats.reconnected", name: this.options.name });
        this.change(true);
      }
    }
  }

  private change(up: boolean): void {
    if (this.reachable === up) return;
    this.reachable = up;
    this.options.onChange?.(up);
    const connection = this.current;
    if (up && connection) for (const listener of this.listeners) listener(connection);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.waiting.clear();
    this.listeners.clear();
    const connection = this.current;
    const reachable = this.reachable;
    this.current = null;
    this.reachable = false;
    if (!connection || connection.isClosed()) return;
    // Draining waits for the server: while it is away there is nothing to drain.
    if (reachable) await connection.drain().catch(() => connection.close());
    else await connection.close();
  }
}
