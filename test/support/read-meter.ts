// Counts what a running server reads from its real stores: every query view of the read store and the event
// store's stream reads, each result measured in bytes of its JSON. Tests use it to show that a request's cost does
// not grow with data the caller cannot see, without timing anything.
import type { EventStore } from "../../shared/event-store/event-store.port.ts";
import type { ReadStore } from "../../shared/read-store/read-store.port.ts";

export interface ReadMeter {
  /** Bytes read since the last reset, and by which method. */
  readonly bytes: number;
  readonly reads: ReadonlyMap<string, number>;
  reset(): void;
}

const VIEWS = [
  "users",
  "tokens",
  "folders",
  "pages",
  "access",
  "threads",
  "invitations",
  "images",
  "history",
  "webhooks",
  "links",
  "trash",
] as const;

/** The size of a result as JSON (Maps and Sets as their entries). */
function sizeOf(result: unknown): number {
  if (result === undefined) return 0;
  if (typeof result === "string") return Buffer.byteLength(result);
  const json = JSON.stringify(result, (_key, value: unknown) =>
    value instanceof Map ? [...value.entries()] : value instanceof Set ? [...value] : value,
  );
  return Buffer.byteLength(json ?? "");
}

/** Wraps the object's methods (own and inherited, not Object's) so each call adds its result's size to `count`. */
function meterMethods(target: object, label: string, count: (method: string, bytes: number) => void): void {
  const names = new Set<string>();
  for (
    let proto: object | null = target;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) names.add(name);
  }
  for (const name of names) {
    const original: unknown = Reflect.get(target, name);
    if (name === "constructor" || typeof original !== "function") continue;
    Reflect.set(target, name, async (...args: unknown[]) => {
      const result: unknown = await Reflect.apply(original, target, args);
      count(`${label}.${name}`, sizeOf(result));
      return result;
    });
  }
}

export function meterReads(readStore: ReadStore, eventStore: EventStore): ReadMeter {
  let bytes = 0;
  const reads = new Map<string, number>();
  const count = (method: string, size: number) => {
    bytes += size;
    reads.set(method, (reads.get(method) ?? 0) + size);
  };
  for (const view of VIEWS) meterMethods(readStore[view], view, count);
  const read = eventStore.read.bind(eventStore);
  Reflect.set(eventStore, "read", async (stream: string) => {
    const result = await read(stream);
    count("eventStore.read", sizeOf(result.events));
    return result;
  });
  return {
    get bytes() {
      return bytes;
    },
    get reads() {
      return reads;
    },
    reset() {
      bytes = 0;
      reads.clear();
    },
  };
}
