// Event versioning: an event type's shape changes by a new schemaVersion and an upcaster from the previous
// one, applied when events are read back. Stored events are never rewritten: the log keeps what was written,
// and every reader sees the current shape. To change a shape: add the new schema to the event union, raise
// the type's entry in `currentSchemaVersion`, and register an upcaster from the old version that validates
// the old shape with its own zod schema (docs/contributing/adding-an-event.md, "Event versioning").
import { z } from "zod";
import { DEFAULT_DELIVERY_SETTINGS } from "../notifications/notification-kinds.ts";

type Upcaster = (data: unknown) => unknown;

/** The schema version each event type is written with today; a type not listed is at version 1. */
const currentSchemaVersion: Readonly<Record<string, number>> = {
  PageRenamed: 2,
  NotificationSettingsChanged: 2,
};

/** type → version → the upcaster that lifts data of that version to the next one. */
const upcasters: Readonly<Record<string, Readonly<Record<number, Upcaster>>>> = {
  PageRenamed: {
    // v1 carried only the new title. The title it replaced is not in the event, so it reads as unknown.
    1: (data) => ({ ...z.object({ pageId: z.string(), title: z.string() }).parse(data), previousTitle: null }),
  },
  NotificationSettingsChanged: {
    // v1 carried autoWatch alone, written when delivery could not be chosen yet: it reads with the default delivery.
    1: (data) => ({
      ...z.object({ userId: z.string(), autoWatch: z.boolean() }).parse(data),
      delivery: DEFAULT_DELIVERY_SETTINGS,
    }),
  },
};

export const schemaVersionOf = (type: string): number => currentSchemaVersion[type] ?? 1;

class UnknownSchemaVersionError extends Error {}

/** The event's data in its type's current shape; throws when no chain of upcasters leads there. */
export function upcast(type: string, schemaVersion: number, data: unknown): unknown {
  const target = schemaVersionOf(type);
  if (schemaVersion > target)
    throw new UnknownSchemaVersionError(`${type} v${schemaVersion} is newer than this code (v${target})`);
  let current = data;
  for (let version = schemaVersion; version < target; version += 1) {
    const step = upcasters[type]?.[version];
    if (!step) throw new UnknownSchemaVersionError(`no upcaster for ${type} from v${version}`);
    current = step(current);
  }
  return current;
}
