// The event log names the key store it was written with: the first process to open both records the store's id
// in the stream `key-store` (KeyStoreBound), and every later start compares. A lost key store (a new file or
// collection made in its place) or another one restored by mistake then stops the process with a clear error,
// instead of reading every sealed field as erased.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { StreamConflictError, type EventStore } from "../event-store/event-store.port.ts";
import { schemaVersionOf } from "../event-store/upcasters.ts";
import { KeyStoreError, type KeyStore } from "./key-store.port.ts";

export const keyStoreBindingEventSchemas = [
  z.object({ type: z.literal("KeyStoreBound"), data: z.object({ storeId: z.string().min(1) }) }),
] as const;

export const KEY_STORE_STREAM = "key-store";

const boundId = (data: unknown): string | null => {
  const parsed = keyStoreBindingEventSchemas[0].shape.data.safeParse(data);
  return parsed.success ? parsed.data.storeId : null;
};

/**
 * Throws KeyStoreError when the log names another key store. `record`: a log that names none yet gets this
 * one's id (a process that writes the log does it; a reader, such as the projector, only checks).
 */
export async function bindKeyStore(
  eventStore: EventStore,
  keys: KeyStore,
  where: string,
  options: { record: boolean; now?: () => Date },
): Promise<void> {
  const now = options.now ?? (() => new Date());
  const storeId = await keys.storeId();
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const { events } = await eventStore.read(KEY_STORE_STREAM);
    const first = events[0];
    if (first) {
      const bound = boundId(first.data);
      if (bound === storeId) return;
      throw new KeyStoreError(
        `the key store (${where}) is not the one this event log was written with: restore the key store from the backup taken with the event log. ` +
          `A new key store would read every sealed field (users' emails and names) as erased.`,
      );
    }
    if (!options.record) return;
    const metadata = {
      actorId: "system",
      correlationId: `key-store-${storeId}`,
      causationId: null,
      occurredAt: now().toISOString(),
      schemaVersion: schemaVersionOf("KeyStoreBound"),
    };
    try {
      await eventStore.append(
        KEY_STORE_STREAM,
        [{ id: randomUUID(), type: "KeyStoreBound", data: { storeId }, metadata }],
        "no_stream",
      );
      return;
    } catch (error) {
      if (!(error instanceof StreamConflictError)) throw error;
    }
  }
}
