import { describe, expect, it } from "vitest";
import { CorruptEventError, parseRecorded } from "../../shared/events.ts";
import type { RecordedEvent } from "../../shared/event-store/event-store.port.ts";
import { schemaVersionOf, upcast } from "../../shared/event-store/upcasters.ts";
import { DEFAULT_DELIVERY_SETTINGS } from "../../shared/notifications/notification-kinds.ts";

const pageId = "6f1c1f0e-8a4b-4c53-9a53-0d0c7c1f2a10";
const recorded = (schemaVersion: number, data: unknown): RecordedEvent => ({
  id: "e1",
  type: "PageRenamed",
  stream: `page-${pageId}`,
  revision: 1,
  position: 7,
  data,
  metadata: {
    actorId: "u",
    correlationId: "c",
    causationId: null,
    occurredAt: "2026-01-01T00:00:00.000Z",
    schemaVersion,
  },
});

describe("event versioning", () => {
  it("writes PageRenamed as version 2 and other events as version 1", () => {
    expect(schemaVersionOf("PageRenamed")).toBe(2);
    expect(schemaVersionOf("PageCreated")).toBe(1);
  });

  it("reads a PageRenamed stored in version 1 as version 2 with an unknown previous title", () => {
    const stored = parseRecorded(recorded(1, { pageId, title: "New" }));
    expect(stored.event).toEqual({ type: "PageRenamed", data: { pageId, title: "New", previousTitle: null } });
    expect(stored.metadata.schemaVersion).toBe(2);
  });

  it("reads a version 2 event as it is", () => {
    expect(parseRecorded(recorded(2, { pageId, title: "New", previousTitle: "Old" })).event.data).toEqual({
      pageId,
      title: "New",
      previousTitle: "Old",
    });
  });

  it("refuses a version 1 event that does not have the version 1 shape, and a version newer than the code", () => {
    expect(() => parseRecorded(recorded(1, { pageId }))).toThrow(CorruptEventError);
    expect(() => parseRecorded(recorded(3, { pageId, title: "New", previousTitle: null }))).toThrow(CorruptEventError);
    expect(() => upcast("PageCreated", 2, {})).toThrow();
  });

  it("reads a NotificationSettingsChanged of version 1 (autoWatch alone) with the default delivery", () => {
    const userId = "0b5d4c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e";
    const stored = parseRecorded({
      ...recorded(1, { userId, autoWatch: false }),
      type: "NotificationSettingsChanged",
      stream: `notification-settings-${userId}`,
    });
    expect(stored.event).toEqual({
      type: "NotificationSettingsChanged",
      data: { userId, autoWatch: false, delivery: DEFAULT_DELIVERY_SETTINGS },
    });
    expect(stored.metadata.schemaVersion).toBe(2);
  });
});
