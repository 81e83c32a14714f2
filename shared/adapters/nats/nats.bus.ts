// The Bus port on NATS JetStream (nats.js v3: @nats-io/transport-node and @nats-io/jetstream, the maintained
// modular client; the `nats` package is the legacy v2 line). Messages go to one stream with a subject per
// event type; the message id is the JetStream message id, so the server drops a republish within its
// duplicate window. Each group is a durable pull consumer: it resumes where it left off, its members share
// the work, a message is acknowledged only once the handler resolved, and a failing handler's message comes
// back after a delay.
import { AckPolicy, DeliverPolicy, DiscardPolicy, RetentionPolicy, jetstream, jetstreamManager, StorageType, type ConsumerMessages, type JetStreamClient, type JetStreamManager, type JsMsg } from "@nats-io/jetstream";
import { connect, nanos, type NatsConnection } from "@nats-io/transport-node";
import type { Logger } from "pino";
import { z } from "zod";
import type { BusMetrics } from "../../metrics/metrics.port.ts";
import type { Bus, BusHandler, BusMessage, BusSubscription } from "../../bus/bus.port.ts";

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
  /** How long the stream keeps a message (default 7 days): consumers away longer miss what expired. */
  readonly maxAgeMs?: number;
  /** How many bytes the stream holds at most (default 1 GiB); past that the oldest messages go first. */
  readonly maxBytes?: number;
  /** Name of this connection, as the server shows it. */
  readonly name?: string;
  /** Where a malformed message is reported (it is acknowledged and passed over). */
  readonly logger?: Pick<Logger, "warn">;
  readonly metrics?: BusMetrics;
}

const payloadSchema = z.object({ id: z.string().min(1), subject: z.string().min(1), data: z.unknown(), metadata: z.record(z.string(), z.unknown()) });
const positionStream = (stream: string) => `${stream}_PUBLISHED`;
const positionSubject = (stream: string) => `workspace.published.${stream}`;
const positionSchema = z.object({ position: z.number().int().nonnegative() });
const consumerName = (group: string) => group.replace(/[^A-Za-z0-9_-]/g, "_");
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
  return parsed.success ? { message: parsed.data } : { malformed: `not a bus message: ${parsed.error.issues.map((issue) => issue.path.join(".") || "(root)").join(", ")}` };
}

export class NatsBus implements Bus {
  private readonly subscriptions = new Set<ConsumerMessages>();

  private constructor(
    private readonly connection: NatsConnection,
    private readonly manager: JetStreamManager,
    private readonly client: JetStreamClient,
    private readonly settings: Required<Omit<NatsBusOptions, "name" | "logger" | "metrics">>,
    private readonly reporting: Pick<NatsBusOptions, "logger" | "metrics">,
  ) {}

  /** Connects (reconnecting for ever after a lost connection) and creates or updates the stream. */
  static async connect(url: string, options: NatsBusOptions = {}): Promise<NatsBus> {
    const settings = {
      stream: options.stream ?? "WORKSPACE_EVENTS",
      subjectPrefix: options.subjectPrefix ?? "workspace.events",
      duplicateWindowMs: options.duplicateWindowMs ?? 2 * 60 * 60_000,
      ackWaitMs: options.ackWaitMs ?? 60_000,
      retryDelayMs: options.retryDelayMs ?? 1_000,
      maxAgeMs: options.maxAgeMs ?? 7 * 24 * 60 * 60_000,
      maxBytes: options.maxBytes ?? 1024 * 1024 * 1024,
    };
    const connection = await connect({ servers: url, name: options.name ?? "workspace", maxReconnectAttempts: -1, reconnectTimeWait: 250 });
    try {
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
      const exists = await manager.streams.info(settings.stream).then(() => true, () => false);
      if (exists) await manager.streams.update(settings.stream, limits);
      else await manager.streams.add({ name: settings.stream, storage: StorageType.File, retention: RetentionPolicy.Limits, ...limits });
      // The publisher's position: one message per subject, kept without an age limit, in a stream of its own.
      const positions = { subjects: [positionSubject(settings.stream)], max_msgs_per_subject: 1, discard: DiscardPolicy.Old };
      const positionsKnown = await manager.streams.info(positionStream(settings.stream)).then(() => true, () => false);
      if (!positionsKnown) await manager.streams.add({ name: positionStream(settings.stream), storage: StorageType.File, retention: RetentionPolicy.Limits, ...positions });
      return new NatsBus(connection, manager, jetstream(connection), settings, { ...(options.logger ? { logger: options.logger } : {}), ...(options.metrics ? { metrics: options.metrics } : {}) });
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  private subjectOf(type: string): string {
    return `${this.settings.subjectPrefix}.${type}`;
  }

  async publish(messages: readonly BusMessage[]): Promise<void> {
    // One at a time, each waiting for the server's ack: the order of a batch is the order in the stream.
    for (const message of messages) {
      await this.client.publish(this.subjectOf(message.subject), encode(message), { msgID: message.id });
    }
  }

  async subscribe(options: { subjects: readonly string[]; group: string; handler: BusHandler }): Promise<BusSubscription> {
    const name = consumerName(options.group);
    const wanted = new Set(options.subjects);
    // nats-server 2.9 filters a consumer by one subject: a group of several subjects reads the whole stream
    // and passes over what it did not ask for.
    const [only] = options.subjects;
    const filter_subject = options.subjects.length === 1 && only !== undefined ? this.subjectOf(only) : `${this.settings.subjectPrefix}.>`;
    const known = await this.manager.consumers.info(this.settings.stream, name).then(() => true, () => false);
    if (!known) {
      await this.manager.consumers
        .add(this.settings.stream, {
          durable_name: name,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.New,
          filter_subject,
          ack_wait: nanos(this.settings.ackWaitMs),
          max_deliver: -1,
        })
        // Another member may have created it meanwhile: the same group, the same consumer.
        .catch(async (error: unknown) => {
          if (!(await this.manager.consumers.info(this.settings.stream, name).then(() => true, () => false))) throw error;
        });
    }
    const consumer = await this.client.consumers.get(this.settings.stream, name);
    const messages = await consumer.consume({ max_messages: 16 });
    this.subscriptions.add(messages);
    void (async () => {
      for await (const delivered of messages) await this.handle(delivered, options.group, wanted, options.handler);
    })();
    return {
      stop: async () => {
        this.subscriptions.delete(messages);
        await messages.close();
      },
    };
  }

  private async handle(delivered: JsMsg, group: string, wanted: ReadonlySet<string>, handler: BusHandler): Promise<void> {
    const decoded = decode(delivered.data);
    // A malformed message would fail the same way at every delivery: acknowledged so it does not come back,
    // and reported, so that it is seen rather than silently lost. It must not end this loop (nor the process).
    if ("malformed" in decoded) {
      this.reporting.logger?.warn({ event: "bus.malformed_message", group, subject: delivered.subject, streamSequence: delivered.seq, reason: decoded.malformed });
      this.reporting.metrics?.malformedMessage(group);
      return delivered.ack();
    }
    // Not asked for: acknowledged, so it does not come back.
    if (!wanted.has(decoded.message.subject)) return delivered.ack();
    try {
      await handler(decoded.message);
      delivered.ack();
    } catch {
      delivered.nak(this.settings.retryDelayMs);
    }
  }

  async publishedPosition(): Promise<number | null> {
    const stored = await this.manager.streams.getMessage(positionStream(this.settings.stream), { last_by_subj: positionSubject(this.settings.stream) }).catch((error: unknown) => {
      // No message on the subject yet is an error of the API (404), not an outage.
      if (error instanceof Error && /no message found/i.test(error.message)) return null;
      throw error;
    });
    if (!stored) return null;
    return positionSchema.parse(JSON.parse(new TextDecoder().decode(stored.data))).position;
  }

  async savePublishedPosition(position: number): Promise<void> {
    await this.client.publish(positionSubject(this.settings.stream), encode({ position }));
  }

  async close(): Promise<void> {
    for (const messages of this.subscriptions) await messages.close();
    this.subscriptions.clear();
    await this.connection.drain();
  }
}
