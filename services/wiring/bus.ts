// The bus a process publishes to or takes messages from (the projector's publisher, the notifier, the
// all-in-one): NATS JetStream when NATS_URL is set, otherwise in this process only.
import type { Logger } from "pino";
import { InProcessBus } from "../../shared/adapters/in-process/in-process.bus.ts";
import { NatsBus, type NatsBusOptions } from "../../shared/adapters/nats/nats.bus.ts";
import type { Bus } from "../../shared/bus/bus.port.ts";
import type { Config } from "../../shared/config/config.ts";
import type { Metrics } from "../../shared/metrics/metrics.port.ts";

/**
 * The bus: NATS JetStream when NATS_URL is set, otherwise in this process only. A NATS bus is returned at once,
 * connecting in the background: the process starts and serves while NATS is away.
 */
export function busFor(config: Config, name: string, report: { logger?: Logger; metrics?: Metrics } = {}): Bus {
  return config.NATS_URL ? NatsBus.open(config.NATS_URL, natsOptions(config, name, report)) : new InProcessBus();
}

/** Whether the bus is reachable, for /readyz: null for the in-process bus, which cannot be away. */
export function busReachability(bus: Bus): { readonly up: boolean } | null {
  return bus instanceof NatsBus ? bus : null;
}

/** The NATS bus's settings from the configuration: the stream's retention limits. */
export function natsOptions(
  config: Config,
  name: string,
  report: { logger?: Logger; metrics?: Metrics } = {},
): NatsBusOptions {
  return {
    name,
    maxAgeMs: config.NATS_STREAM_MAX_AGE_HOURS * 60 * 60_000,
    maxBytes: config.NATS_STREAM_MAX_BYTES,
    ...report,
  };
}
