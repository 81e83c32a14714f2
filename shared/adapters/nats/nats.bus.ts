// The Bus port on NATS JetStream (nats.js v3: @nats-io/transport-node and @nats-io/jetstream, the maintained
// modular client; the `nats` package is the legacy v2 line). Messages go to one stream with a subject per
// event type; the message id is the JetStream message id, so the server drops a republish within its
// duplicate window. Each group is a durable pull consumer: it resumes where it left off, its members share
// the work, a message is acknowledged only once the handler resolved, and a failing handler's message comes
// back after a delay, up to a cap of deliveries; past it the message is parked (terminated, kept in the stream,
// logged and counted as an alert).
//
// The process does not wait for NATS: the bus connects in the background (nats-link.ts). While NATS is away a
// publish fails at once (the outbox publisher retries from its position), and a group that subscribes is
// joined once NATS answers, from the moment it asked.
import {
  DiscardPolicy,
  RetentionPolicy,
  jetstream,
  jetstreamManager,
  StorageType,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from "@nats-io/jetstream";
import { headers, nanos, type NatsConnection } from "@nats-io/transport-node";
import type { Logger } from "pino";
import { z } from "zod";
import type { BusMetrics } from "../../metrics/metrics.port.ts";
import type { Bus, BusHandler, BusMessage, BusSubscription } from "../../bus/bus.port.ts";
import { BusUnavailableError } from "../../bus/bus-unavailable.ts";
import { traceparentOf } from "../../bus/bus-trace.ts";
import { ensureConsumer } from "./nats-consumers.ts";
import { jetStreamStateLost } from "./jetstream-state.ts";
import { NatsLink } from "./nats-link.ts";

export interface NatsBusOptions {
  /** The stream holding every integration event. */
  readonly stream?: string;
  /** Subjects are `<prefix>.<event type>`. */
  readonly subjectPrefix?: string;
  /** How long the server remembers message ids to drop a republish (default 2 hours). */
  readonly duplicateWindowMs?: number;
  /** How long a delivered message may go unacknowledged before it is delivered again (default 60 s). */
  readonly ackWaitMs?: number;
  /** How long a failed message waits before it comes back (default 1 s). */
  readonly retryDelayMs?: number;
  /** Deliveries of one message to a group at most (default 10): a message still failing then is parked. */
  readonly maxDeliver?: number;
  /** How long the stream keeps a message (default 7 days): consumers away longer miss what expired. */
  readonly maxAgeMs?: number;
  /** How many bytes the stream holds at most (default 1 GiB); past that the oldest messages go first. */
  readonly maxBytes?: number;
  /** Name of this connection, as the server shows it. */
  readonly name?: string;
  /** Where malformed, failing and parked messages and the connection's ups and downs are reported. */
  readonly logger?: Pick<Logger, "info" | "warn" | "error">;
  readonly metrics?: BusMetrics;
}

const payloadSchema = z.object({
  id: z.string().min(1),
  subject: z.string().min(1),
  data: z.unknown(),
  metadata: z.record(z.string(), z.unknown()),
});
const positionStream = (stream: string) => `${stream}_PUBLISHED`;
const positionSubject = (stream: string) => `workspace.published.${stream}`;
const positionSchema = z.object({ position: z.number().int().nonnegative() });
const consumerName = (group: string) => group.replace(/[^A-Za-z0-9_-]/g, "_");
function traceHeaders(traceparent: string) {
  const set = headers();
  set.set("traceparent", traceparent);
  return set;
}
/** A message whose payload lacks a trace context takes its header's. */
function withHeaderTrace(message: BusMessage, header: string | undefined): BusMessage {
  if (!header || traceparentOf(message)) return message;
  return { ...message, metadata: { ...message.metadata, traceparent: header } };
}
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
/** The message's payload, or why it is not one: never throws, whatever bytes arrive. */
function decode(bytes: Uint8Array): { readonly message: BusMessage } | { readonly malformed: string } {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    return { malformed: `not JSON: ${error instanceof Error ? error.message : String(error)}`.slice(0, 200) };
  }
  const parsed = payloadSchema.safeParse(json);
  return parsed.success
    ? { message: parsed.data }
    : {
        malformed: `not a bus message: ${parsed.error.issues.map((issue) => issue.path.join(".") || "(root)").join(", ")}`,
      };
}

type Ready = { readonly manager: JetStreamManager; readonly client: JetStreamClient };
type Settings = Required<Omit<NatsBusOptions, "name" | "logger" | "metrics">>;
type Subscribing = { readonly subjects: readonly string[]; readonly group: string; readonly handler: BusHandler };

const reasonOf = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").slice(0, 300);

export class NatsBus implements Bus {
  private readonly subscriptions = new Set<ConsumerMessages>();
  /** Groups that subscribed while NATS was away, joined once it answers. */
  private readonly pending = new Map<Subscribing, Date>();
  /** Tells a subscription handed out before its group was joined which consumer it got. */
  private readonly joined = new Map<Subscribing, (messages: ConsumerMessages) => void>();
  private ready: Ready | null = null;
  private preparing: Promise<void> | null = null;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;

  private constructor(
    private readonly link: NatsLink,
    private readonly settings: Settings,
    private readonly reporting: Pick<NatsBusOptions, "logger" | "metrics">,
  ) {}

  /** Returns at once; connects in the background and creates or updates the streams once NATS answers. */
  static open(url: string, options: NatsBusOptions = {}): NatsBus {
    const settings: Settings = {
      stream: options.stream ?? "WORKSPACE_EVENTS",
      subjectPrefix: options.subjectPrefix ?? "workspace.events",
      duplicateWindowMs: options.duplicateWindowMs ?? 2 * 60 * 60_000,
      ackWaitMs: options.ackWaitMs ?? 60_000,
      retryDelayMs: options.retryDelayMs ?? 1_000,
      maxDeliver: options.maxDeliver ?? 10,
      maxAgeMs: options.maxAgeMs ?? 7 * 24 * 60 * 60_000,
      maxBytes: options.maxBytes ?? 1024 * 1024 * 1024,
    };
    const { logger, metrics } = options;
    const link = NatsLink.open(url, {
      name: options.name ?? "workspace",
      ...(logger ? { logger } : {}),
      onChange: (up) => metrics?.dependency("bus", up),
    });
    metrics?.dependency("bus", false);
    const bus = new NatsBus(link, settings, { ...(logger ? { logger } : {}), ...(metrics ? { metrics } : {}) });
    link.onUp((connection) => void bus.prepare(connection));
    return bus;
  }

  /** Opens the bus and waits until it is ready (NATS answered and the streams are in place). */
  static async connect(url: string, options: NatsBusOptions = {}): Promise<NatsBus> {
    const bus = NatsBus.open(url, options);
    await bus.whenReady();
    return bus;
  }

  /** Whether NATS answers now and the streams are in place. */
  get up(): boolean {
    return this.link.up && this.ready !== null;
  }

  private async whenReady(): Promise<void> {
    while (!this.up) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /** Sets up the streams unless they are in place, then joins the groups that subscribed while NATS was away. */
  private prepare(connection: NatsConnection): Promise<void> {
    if (this.preparing) return this.preparing;
    if (this.ready) {
      this.joinPending();
      return Promise.resolve();
    }
    this.preparing = this.createStreams(connection)
      .then((ready) => {
        this.ready = ready;
        this.joinPending();
      })
      .catch((error: unknown) => {
        // JetStream may not answer yet right after the server starts: tried again while the link is up.
        this.reporting.logger?.warn({ event: "bus.setup_failed", reason: reasonOf(error) });
        this.prepareLater();
      })
      .finally(() => {
        this.preparing = null;
      });
    return this.preparing;
  }

  private joinPending(): void {
    const pending = [...this.pending];
    this.pending.clear();
    for (const [request, since] of pending) this.join(request, since).catch(() => undefined);
  }

  /**
   * The server lost the streams under a running bus (a store volume recreated, an operator's cleanup): they are
   * made again, and the bus reads as down (in /readyz) until they are. Consumers went with their stream, so the
   * groups in use are joined again, from now.
   */
  private async recreate(error: unknown): Promise<void> {
    const connection = this.link.connection();
    if (!connection || this.closed) return;
    if (this.ready) {
      this.ready = null;
      this.reporting.logger?.warn(
        { event: "bus.state_lost", reason: reasonOf(error) },
        "JetStream lost the bus's streams; making them again",
      );
      const now = new Date();
      for (const request of this.joined.keys()) this.pending.set(request, now);
      for (const messages of this.subscriptions) void messages.close().catch(() => undefined);
      this.subscriptions.clear();
    }
    await this.prepare(connection);
    if (this.ready) this.reporting.logger?.warn({ event: "bus.state_recreated", stream: this.settings.stream });
  }

  /** Runs a JetStream request; when it fails because the streams are gone, makes them again and tries once more. */
  private async withState<T>(request: (ready: Ready) => Promise<T>): Promise<T> {
    try {
      return await request(this.available());
    } catch (error) {
      if (!jetStreamStateLost(error) || !this.link.up) throw error;
      await this.recreate(error);
      return request(this.available());
    }
  }

  private prepareLater(): void {
    if (this.retry || this.closed) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      const current = this.link.connection();
      if (!this.closed && current && this.link.up) void this.prepare(current);
    }, 500);
  }

  private async createStreams(connection: NatsConnection): Promise<Ready> {
    const settings = this.settings;
    const manager = await jetstreamManager(connection);
    // Bounded by age and size (limits retention, oldest discarded first), so a stream nobody reads cannot fill
    // JetStream's storage. The duplicate window cannot exceed the age limit.
    const limits = {
      subjects: [`${settings.subjectPrefix}.>`],
      duplicate_window: nanos(Math.min(settings.duplicateWindowMs, settings.maxAgeMs)),
      max_age: nanos(settings.maxAgeMs),
      max_bytes: settings.maxBytes,
      discard: DiscardPolicy.Old,
    };
    const exists = await manager.streams.info(settings.stream).then(
      () => true,
      () => false,
    );
    if (exists) await manager.streams.update(settings.stream, limits);
    else
      await manager.streams.add({
        name: settings.stream,
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        ...limits,
      });
    // The publisher's position: one message per subject, kept without an age limit, in a stream of its own.
    const positions = {
      subjects: [positionSubject(settings.stream)],
      max_msgs_per_subject: 1,
      discard: DiscardPolicy.Old,
    };
    const positionsKnown = await manager.streams.info(positionStream(settings.stream)).then(
      () => true,
      () => false,
    );
    if (!positionsKnown)
      await manager.streams.add({
        name: positionStream(settings.stream),
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        ...positions,
      });
    return { manager, client: jetstream(connection) };
  }

  /** The JetStream handles, or a BusUnavailableError at once while NATS is away. */
  private available(): Ready {
    if (!this.ready || !this.link.up) throw new BusUnavailableError("the bus (NATS)");
    return this.ready;
  }

  private subjectOf(type: string): string {
    return `${this.settings.subjectPrefix}.${type}`;
  }

  async publish(messages: readonly BusMessage[]): Promise<void> {
    // One at a time, each waiting for the server's ack: the order of a batch is the order in the stream.
    for (const message of messages) {
      // The trace context rides as a header too, for a consumer that reads headers only (W3C over NATS).
      const traceparent = traceparentOf(message);
      const traced = traceparent ? { headers: traceHeaders(traceparent) } : {};
      await this.withState(({ client }) =>
        client.publish(this.subjectOf(message.subject), encode(message), { msgID: message.id, ...traced }),
      );
    }
  }

  async subscribe(options: Subscribing): Promise<BusSubscription> {
    const request: Subscribing = { ...options };
    let messages: ConsumerMessages | null = null;
    let stopped = false;
    if (this.up) messages = await this.join(request, null);
    else {
      // Joined once NATS answers, from now: what is published meanwhile reaches the group.
      this.pending.set(request, new Date());
      this.reporting.logger?.warn(
        { event: "bus.subscribe_deferred", group: options.group },
        "NATS is away: the group is joined once it answers",
      );
    }
    this.joined.set(request, (joined) => {
      messages = joined;
      if (stopped) void joined.close();
    });
    return {
      stop: async () => {
        stopped = true;
        this.pending.delete(request);
        this.joined.delete(request);
        if (messages) {
          this.subscriptions.delete(messages);
          await messages.close();
        }
      },
    };
  }

  private async join(request: Subscribing, since: Date | null): Promise<ConsumerMessages> {
    const { manager, client } = this.available();
    const name = consumerName(request.group);
    const wanted = new Set(request.subjects);
    // nats-server 2.9 filters a consumer by one subject: a group of several subjects reads the whole stream
    // and passes over what it did not ask for.
    const [only] = request.subjects;
    const filterSubject =
      request.subjects.length === 1 && only !== undefined ? this.subjectOf(only) : `${this.settings.subjectPrefix}.>`;
    try {
      await ensureConsumer(
        manager,
        {
          stream: this.settings.stream,
          name,
          filterSubject,
          ackWaitMs: this.settings.ackWaitMs,
          maxDeliver: this.settings.maxDeliver,
          since,
        },
        this.reporting.logger,
      );
      const consumer = await client.consumers.get(this.settings.stream, name);
      const messages = await consumer.consume({ max_messages: 16 });
      this.subscriptions.add(messages);
      this.joined.get(request)?.(messages);
      void (async () => {
        for await (const delivered of messages) await this.handle(delivered, request.group, wanted, request.handler);
      })();
      return messages;
    } catch (error) {
      if (since === null) throw error;
      // A deferred join that failed (NATS went away again): tried again at the next connection.
      this.reporting.logger?.warn({ event: "bus.subscribe_failed", group: request.group, reason: reasonOf(error) });
      this.pending.set(request, since);
      this.ready = null;
      this.prepareLater();
      throw error;
    }
  }

  private async handle(
    delivered: JsMsg,
    group: string,
    wanted: ReadonlySet<string>,
    handler: BusHandler,
  ): Promise<void> {
    const decoded = decode(delivered.data);
    // A malformed message would fail the same way at every delivery: acknowledged so it does not come back,
    // and reported, so that it is seen rather than silently lost. It must not end this loop (nor the process).
    if ("malformed" in decoded) {
      this.reporting.logger?.warn({
        event: "bus.malformed_message",
        group,
        subject: delivered.subject,
        streamSequence: delivered.seq,
        reason: decoded.malformed,
      });
      this.reporting.metrics?.malformedMessage(group);
      return delivered.ack();
    }
    // Not asked for: acknowledged, so it does not come back.
    if (!wanted.has(decoded.message.subject)) return delivered.ack();
    try {
      await handler(withHeaderTrace(decoded.message, delivered.headers?.get("traceparent")));
      delivered.ack();
    } catch (error) {
      const deliveries = delivered.info.deliveryCount;
      const where = {
        group,
        subject: decoded.message.subject,
        id: decoded.message.id,
        streamSequence: delivered.seq,
        deliveries,
        maxDeliver: this.settings.maxDeliver,
        reason: reasonOf(error),
      };
      this.reporting.metrics?.handlerFailed(group);
      if (deliveries < this.settings.maxDeliver) {
        this.reporting.logger?.warn(
          { event: "bus.handler_failed", ...where },
          "a consumer failed a message; it comes back later",
        );
        return delivered.nak(this.settings.retryDelayMs);
      }
      // Past the cap: parked. Terminated so it is not delivered again; it stays in the stream (by its sequence)
      // for as long as the stream keeps messages, for an operator to look at.
      this.reporting.logger?.error(
        { event: "bus.message_parked", ...where },
        "a message failed at every delivery and is parked: this group will not handle it",
      );
      this.reporting.metrics?.messageParked(group);
      delivered.term(`failed ${deliveries} deliveries`);
    }
  }

  async publishedPosition(): Promise<number | null> {
    const stored = await this.withState(({ manager }) =>
      manager.streams
        .getMessage(positionStream(this.settings.stream), { last_by_subj: positionSubject(this.settings.stream) })
        .catch((error: unknown) => {
          // No message on the subject yet is an error of the API (404), not an outage.
          if (error instanceof Error && /no message found/i.test(error.message)) return null;
          throw error;
        }),
    );
    if (!stored) return null;
    return positionSchema.parse(JSON.parse(new TextDecoder().decode(stored.data))).position;
  }

  async savePublishedPosition(position: number): Promise<void> {
    await this.withState(({ client }) => client.publish(positionSubject(this.settings.stream), encode({ position })));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.pending.clear();
    this.joined.clear();
    for (const messages of this.subscriptions) await messages.close().catch(() => undefined);
    this.subscriptions.clear();
    await this.link.close();
  }
}
