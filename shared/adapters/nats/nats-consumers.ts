// A consumer group's durable JetStream consumer, made to match what this release asks of it each time a member
// subscribes: created when missing, and updated when its subject filter, delivery cap or ack wait changed (a
// group that starts consuming a new subject must receive it). A changed filter makes the consumer again from
// where the old one stood, so nothing is skipped and what it had acknowledged does not come back.
import {
  AckPolicy,
  DeliverPolicy,
  type ConsumerConfig,
  type ConsumerInfo,
  type JetStreamManager,
} from "@nats-io/jetstream";
import { nanos } from "@nats-io/transport-node";
import type { Logger } from "pino";

export interface WantedConsumer {
  readonly stream: string;
  readonly name: string;
  readonly filterSubject: string;
  readonly ackWaitMs: number;
  readonly maxDeliver: number;
  /**
   * A new consumer delivers what is published from now on; one made late (the bus was away when the group
   * subscribed) delivers from this moment, so what was published in between is not missed.
   */
  readonly since: Date | null;
}

const infoOf = (manager: JetStreamManager, stream: string, name: string): Promise<ConsumerInfo | null> =>
  manager.consumers.info(stream, name).then(
    (info) => info,
    () => null,
  );

function changed(info: ConsumerInfo, wanted: WantedConsumer): boolean {
  const config = info.config;
  return (
    config.filter_subject !== wanted.filterSubject ||
    config.max_deliver !== wanted.maxDeliver ||
    config.ack_wait !== nanos(wanted.ackWaitMs)
  );
}

export async function ensureConsumer(
  manager: JetStreamManager,
  wanted: WantedConsumer,
  logger?: Pick<Logger, "info" | "warn">,
): Promise<void> {
  const settings = {
    ack_wait: nanos(wanted.ackWaitMs),
    max_deliver: wanted.maxDeliver,
    filter_subject: wanted.filterSubject,
  };
  const base: Partial<ConsumerConfig> = { durable_name: wanted.name, ack_policy: AckPolicy.Explicit, ...settings };
  const info = await infoOf(manager, wanted.stream, wanted.name);
  if (!info) {
    const start: Partial<ConsumerConfig> = wanted.since
      ? { deliver_policy: DeliverPolicy.StartTime, opt_start_time: wanted.since.toISOString() }
      : { deliver_policy: DeliverPolicy.New };
    await manager.consumers.add(wanted.stream, { ...base, ...start }).catch(async (error: unknown) => {
      // Another member may have created it meanwhile: the same group, the same consumer.
      if (!(await infoOf(manager, wanted.stream, wanted.name))) throw error;
    });
    return;
  }
  if (!changed(info, wanted)) return;
  const before = { filterSubject: info.config.filter_subject ?? null, maxDeliver: info.config.max_deliver ?? null };
  const after = { filterSubject: wanted.filterSubject, maxDeliver: wanted.maxDeliver };
  if (info.config.filter_subject === wanted.filterSubject) {
    await manager.consumers.update(wanted.stream, wanted.name, settings);
    logger?.info({ event: "bus.consumer_updated", consumer: wanted.name, before, after });
    return;
  }
  // A new filter: nats-server 2.9 takes it in place but moves the consumer past every message then pending,
  // delivering none of them. So the consumer is made again from the old one's place: after the last message
  // delivered when none awaits an acknowledgement, else after the acknowledgement floor (a message
  // delivered but not acknowledged comes again, as at-least-once allows).
  const from = info.num_ack_pending === 0 ? info.delivered.stream_seq + 1 : info.ack_floor.stream_seq + 1;
  await manager.consumers.delete(wanted.stream, wanted.name);
  await manager.consumers
    .add(wanted.stream, { ...base, deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: from })
    .catch(async (error: unknown) => {
      if (!(await infoOf(manager, wanted.stream, wanted.name))) throw error;
    });
  logger?.info({ event: "bus.consumer_recreated", consumer: wanted.name, from, before, after });
}
