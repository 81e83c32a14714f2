// Whether a NATS error says the server lost what the process set up in JetStream (its streams, a KV bucket):
// a store volume recreated, an operator's cleanup. Such state is made again by the process, not waited for.
import { JetStreamApiCodes, JetStreamApiError } from "@nats-io/jetstream";

const LOST = /stream not found|no responders|jetstream (is )?not enabled/i;

const messages = (error: unknown): string =>
  error instanceof Error ? `${error.message} ${messages(error.cause)}` : typeof error === "string" ? error : "";

export function jetStreamStateLost(error: unknown): boolean {
  if (
    error instanceof JetStreamApiError &&
    (error.code === JetStreamApiCodes.StreamNotFound || error.code === JetStreamApiCodes.JetStreamNotEnabledForAccount)
  )
    return true;
  return LOST.test(messages(error));
}
