// A real HTTP endpoint on 127.0.0.1 that records what webhooks send it and answers as the test says, plus an
// implementation of the Standard Webhooks verification written from the specification, independent of the
// server's signing code.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll } from "vitest";

export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly json: { type: string; timestamp: string; data: Record<string, unknown> };
}

export type Responder = (received: Received, index: number) => number | Promise<number>;

export class WebhookReceiver {
  readonly received: Received[] = [];
  private waiters: { count: number; resolve: () => void }[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    public responder: Responder,
  ) {}

  static async start(responder: Responder = () => 200, host = "127.0.0.1"): Promise<WebhookReceiver> {
    const holder: { receiver: WebhookReceiver | null } = { receiver: null };
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const receiver = holder.receiver;
        if (!receiver) return response.end();
        const body = Buffer.concat(chunks).toString("utf8");
        const received = { headers: request.headers, body, json: JSON.parse(body) as Received["json"] };
        const index = receiver.received.push(received) - 1;
        void Promise.resolve(receiver.responder(received, index)).then((status) => {
          response.writeHead(status).end();
          receiver.waiters = receiver.waiters.filter((waiter) =>
            receiver.received.length >= waiter.count ? (waiter.resolve(), false) : true,
          );
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const { port } = server.address() as AddressInfo;
    const receiver = new WebhookReceiver(server, `http://${host}:${port}/hook`, responder);
    holder.receiver = receiver;
    return receiver;
  }

  /** Resolves once `count` requests have arrived (and been answered), or fails after the deadline. */
  async waitFor(count: number, deadlineMs = 20_000): Promise<Received[]> {
    if (this.received.length < count) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${this.received.length} of ${count} webhook requests arrived`)),
          deadlineMs,
        );
        this.waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    }
    return this.received.slice(0, count);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Standard Webhooks verification: HMAC-SHA256 over `id.timestamp.body` keyed with the base64 after `whsec_`. */
/** Starts receivers for a test file as its tests ask for them, and stops them all after its last test. */
export function receiversForFile(): (responder?: Responder) => Promise<WebhookReceiver> {
  const started: WebhookReceiver[] = [];
  afterAll(async () => {
    for (const receiver of started) await receiver.stop();
  });
  return async (responder) => {
    const receiver = await WebhookReceiver.start(responder);
    started.push(receiver);
    return receiver;
  };
}

export function verifyStandardWebhook(
  secret: string,
  headers: IncomingHttpHeaders,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (typeof id !== "string" || typeof timestamp !== "string" || typeof signatures !== "string") return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > 5 * 60) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(" ").some((entry) => {
    const [version, signature] = entry.split(",");
    if (version !== "v1" || !signature) return false;
    const given = Buffer.from(signature, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
