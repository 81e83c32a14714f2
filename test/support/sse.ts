// A Server-Sent Events client for tests: opens a stream with fetch and hands out its events and comment lines.
import { SESSION_COOKIE } from "../../shared/auth/session-verifier.ts";
import type { Credentials } from "./server.ts";

export interface SseEvent {
  readonly id: string | null;
  readonly event: string;
  readonly data: string;
}

export class SseStream {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  private buffer = "";
  private readonly listeners = new Set<() => void>();
  private ended = false;

  private constructor(
    readonly status: number,
    readonly headers: Headers,
    private readonly controller: AbortController,
    body: ReadableStream<Uint8Array> | null,
  ) {
    if (body) void this.pump(body);
  }

  /** Opens GET `url`; a refused request resolves too, with its status and no events. */
  static async open(
    url: string,
    credentials: Credentials,
    headers: Record<string, string> = {},
  ): Promise<SseStream & { text?: string }> {
    const controller = new AbortController();
    const all: Record<string, string> = { accept: "text/event-stream", ...headers };
    if (credentials && "cookie" in credentials) all.cookie = `${SESSION_COOKIE}=${credentials.cookie}`;
    if (credentials && "bearer" in credentials) all.authorization = `Bearer ${credentials.bearer}`;
    const response = await fetch(url, { headers: all, signal: controller.signal });
    if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      const text = await response.text();
      return Object.assign(new SseStream(response.status, response.headers, controller, null), { text });
    }
    return new SseStream(response.status, response.headers, controller, response.body);
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.buffer += decoder.decode(value, { stream: true });
        let end = this.buffer.indexOf("\n\n");
        while (end >= 0) {
          this.parse(this.buffer.slice(0, end));
          this.buffer = this.buffer.slice(end + 2);
          end = this.buffer.indexOf("\n\n");
        }
        for (const listener of this.listeners) listener();
      }
    } catch {
      // aborted by close()
    }
    this.ended = true;
    for (const listener of this.listeners) listener();
  }

  private parse(block: string): void {
    let id: string | null = null;
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) this.comments.push(line.slice(1).trim());
      if (line.startsWith("id: ")) id = line.slice(4);
      if (line.startsWith("event: ")) event = line.slice(7);
      if (line.startsWith("data: ")) data.push(line.slice(6));
    }
    if (data.length > 0) this.events.push({ id, event, data: data.join("\n") });
  }

  /** Resolves once `ready()` holds, or rejects after `timeoutMs`. */
  until(ready: () => boolean, timeoutMs = 5_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (ready()) {
          cleanup();
          resolve();
        } else if (this.ended) {
          cleanup();
          reject(new Error("stream ended"));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out with ${this.events.length} events`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.listeners.delete(check);
      };
      this.listeners.add(check);
      check();
    });
  }

  /** The parsed data of the change events so far. */
  changes(): Array<{
    position: string;
    type: string;
    entity: { kind: string; id: string };
    changes: { kind: string };
  }> {
    return this.events
      .filter((e) => e.event === "change")
      .map((e) => JSON.parse(e.data) as ReturnType<SseStream["changes"]>[number]);
  }

  /** The parsed data of the notification events so far: each as GET /notifications lists it. */
  notifications(): Array<{ id: string; kind: string; count?: number; groupId?: string; pageId?: string }> {
    return this.events
      .filter((e) => e.event === "notification")
      .map((e) => JSON.parse(e.data) as ReturnType<SseStream["notifications"]>[number]);
  }

  get isEnded(): boolean {
    return this.ended;
  }

  close(): void {
    this.controller.abort();
  }
}
