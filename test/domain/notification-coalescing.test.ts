// The coalescing rule, pure: the first event of a subject adds a notification; later ones within the hour of it,
// while unread, update it with how many and who; after the hour, once read, or without a key, a new one.
import { describe, expect, it } from "vitest";
import {
  notificationAfter,
  notificationIdOf,
  type NotificationCandidate,
} from "../../shared/notifications/notification-coalescing.ts";

const ann = "00000000-0000-4000-8000-00000000000a";
const bob = "00000000-0000-4000-8000-00000000000b";
const cat = "00000000-0000-4000-8000-00000000000c";

function reply(
  actorId: string,
  minute: number,
  position: number,
  overrides: Partial<NotificationCandidate> = {},
): NotificationCandidate {
  return {
    userId: ann,
    kind: "replied",
    actorId,
    pageId: "00000000-0000-4000-8000-0000000000a1",
    folderId: null,
    threadId: "00000000-0000-4000-8000-0000000000b1",
    groupId: null,
    coalesceKey: "replied:t1",
    eventId: `event-${position}`,
    occurredAt: new Date(Date.UTC(2026, 2, 2, 9, minute)).toISOString(),
    position,
    ...overrides,
  };
}

describe("coalescing notifications", () => {
  const first = notificationAfter(null, reply(bob, 0, 10));

  it("the first event of a subject adds a notification named by its event and recipient", () => {
    expect(first).toMatchObject({
      id: notificationIdOf("event-10", ann),
      count: 1,
      actorIds: [bob],
      actorId: bob,
      readAt: null,
      position: 10,
    });
    expect(first.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("a later event within the hour updates it with how many and who, latest first", () => {
    const second = notificationAfter(first, reply(cat, 20, 11));
    const third = notificationAfter(second, reply(bob, 59, 12));
    expect(third).toMatchObject({
      id: first.id,
      count: 3,
      actorIds: [bob, cat],
      actorId: bob,
      position: 12,
      createdAt: first.createdAt,
    });
  });

  it("an event projected again changes nothing", () => {
    expect(notificationAfter(first, reply(bob, 0, 10))).toBe(first);
  });

  it("after the hour, once read, or without a key, a new notification", () => {
    expect(notificationAfter(first, reply(cat, 60, 11)).id).not.toBe(first.id);
    expect(notificationAfter({ ...first, readAt: "2026-03-02T09:05:00.000Z" }, reply(cat, 10, 11)).id).not.toBe(
      first.id,
    );
    expect(notificationAfter(first, reply(cat, 10, 11, { coalesceKey: null })).count).toBe(1);
  });
});
