import { describe, expect, it } from "vitest";
import { describeChange, summariseAll } from "../../shared/history/describe-history.ts";
import type { HistoryEntry } from "../../shared/history/history.view.ts";
import { instantSchema } from "../../shared/history/instant.ts";
import { summariseLines } from "../../shared/history/line-diff.ts";
import { pageAsOf } from "../../shared/history/page-as-of.ts";
import type { DomainEvent } from "../../shared/events.ts";
import { pageIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";

const pageId = pageIdSchema.parse("6f1c1f0e-8a4b-4c53-9a53-0d0c7c1f2a10");
const ownerId = userIdSchema.parse("0b7c3a52-1d4e-4f6a-8b9c-2e3f4a5b6c7d");
const annId = userIdSchema.parse("1b7c3a52-1d4e-4f6a-8b9c-2e3f4a5b6c7d");

/** Entries at positions 10, 20, 30, ... one minute apart from 09:00. */
function entries(...events: DomainEvent[]): HistoryEntry[] {
  return events.map((event, i) => ({
    position: (i + 1) * 10,
    entityKind: "page",
    entityId: pageId,
    access: { kind: "page", id: pageId },
    occurredAt: new Date(Date.UTC(2026, 10, 1, 9, i)).toISOString(),
    actorId: ownerId,
    correlationId: `req-${i}`,
    event,
  }));
}

const created: DomainEvent = {
  type: "PageCreated",
  data: { pageId, ownerId, parentId: null, title: "Draft", icon: null, markdown: "a\nb" },
};
const renamed: DomainEvent = { type: "PageRenamed", data: { pageId, title: "Plan", previousTitle: "Draft" } };
const edited: DomainEvent = { type: "PageContentReplaced", data: { pageId, markdown: "a\nc\nd" } };
const deleted: DomainEvent = { type: "PageDeleted", data: { pageId } };
const at = (value: string) => instantSchema.parse(value);

describe("a page as of an instant", () => {
  const log = entries(created, renamed, edited, deleted);

  it("does not exist before its creation", () => {
    expect(pageAsOf(log, at("9"))).toBeNull();
    expect(pageAsOf(log, at("2026-11-01T08:59:59Z"))).toBeNull();
  });

  it("is the fold of its events up to a position or a time", () => {
    expect(pageAsOf(log, at("20"))).toMatchObject({
      title: "Plan",
      markdown: "a\nb",
      revision: 1,
      updatedPosition: 20,
    });
    expect(pageAsOf(log, at("29"))).toMatchObject({ title: "Plan", markdown: "a\nb" });
    expect(pageAsOf(log, at("2026-11-01T09:02:30+00:00"))).toMatchObject({
      title: "Plan",
      markdown: "a\nc\nd",
      revision: 2,
    });
  });

  it("does not exist once deleted", () => {
    expect(pageAsOf(log, at("40"))).toBeNull();
  });

  it("folds to the same page from only the latest event of each type and the count of them all", () => {
    const restored: DomainEvent = {
      type: "PageRestored",
      data: { pageId, title: "Draft", icon: null, markdown: "a\nb", restoredFrom: 10 },
    };
    const iconed: DomainEvent = { type: "PageIconChanged", data: { pageId, icon: "⭐" } };
    const long = entries(
      created,
      renamed,
      edited,
      iconed,
      { ...renamed, data: { ...renamed.data, title: "Again" } },
      edited,
      restored,
      { ...edited, data: { pageId, markdown: "z" } },
    );
    for (let until = 10; until <= long.length * 10; until += 10) {
      const upTo = long.filter((entry) => entry.position <= until);
      const latest = [...new Map(upTo.map((entry) => [entry.event.type, entry])).values()].sort(
        (a, b) => a.position - b.position,
      );
      expect(pageAsOf(latest, at(String(until)), upTo.length)).toEqual(pageAsOf(long, at(String(until))));
    }
  });
});

describe("an instant", () => {
  it("is a decimal position or an ISO-8601 time with an offset, nothing else", () => {
    expect(instantSchema.parse("42")).toEqual({ kind: "position", position: 42 });
    expect(instantSchema.parse("2026-11-01T09:00:00Z")).toEqual({ kind: "time", ms: Date.UTC(2026, 10, 1, 9) });
    for (const bad of ["", "-1", "0x10", "yesterday", "2026-11-01", "1e3"])
      expect(instantSchema.safeParse(bad).success).toBe(false);
  });
});

describe("a line summary", () => {
  it("counts added and removed lines around a common head and tail", () => {
    expect(summariseLines("a\nb\nc", "a\nx\nc")).toEqual({ linesAdded: 1, linesRemoved: 1 });
    expect(summariseLines("", "a\nb")).toEqual({ linesAdded: 2, linesRemoved: 0 });
    expect(summariseLines("a\nb\nc\nd", "a\nd")).toEqual({ linesAdded: 0, linesRemoved: 2 });
    expect(summariseLines("same", "same")).toEqual({ linesAdded: 0, linesRemoved: 0 });
  });

  it("stays exact for additions and removals past the size bound", () => {
    const before = Array.from({ length: 3_000 }, (_, i) => `line ${i}`);
    const after = [...before.slice(1), "x", ...before.slice(0, 1)].reverse();
    const summary = summariseLines(before.join("\n"), after.join("\n"));
    expect(summary.linesAdded - summary.linesRemoved).toBe(1);
  });
});

/** Entries summarised oldest first, as the projector stores them, then named as a reader sees them. */
const describeHistory = (log: HistoryEntry[], names: Map<string, string>) =>
  summariseAll(log).map((change) => describeChange(change, names));

describe("describing history", () => {
  it("says what each change replaced and marks grants as sharing", () => {
    const grant: DomainEvent = {
      type: "AccessGranted",
      data: {
        entityType: "page",
        entityId: pageId,
        userId: annId,
        permission: "edit",
        grantedBy: ownerId,
        invitationId: null,
      },
    };
    const revoke: DomainEvent = {
      type: "AccessRevoked",
      data: { entityType: "page", entityId: pageId, userId: annId, revokedBy: ownerId },
    };
    const described = describeHistory(
      entries(created, renamed, edited, grant, revoke),
      new Map([
        [ownerId, "Olive"],
        [annId, "Ann"],
      ]),
    );
    expect(described.map((d) => [d.changes, d.entry.sharing, d.actor.name])).toEqual([
      [{ kind: "created", title: "Draft", icon: null, parentId: null, size: 3 }, false, "Olive"],
      [{ kind: "title", from: "Draft", to: "Plan" }, false, "Olive"],
      [{ kind: "content", sizeBefore: 3, sizeAfter: 5, linesAdded: 2, linesRemoved: 1 }, false, "Olive"],
      [
        {
          kind: "grant",
          user: { id: annId, name: "Ann" },
          permission: "edit",
          previousPermission: null,
          viaInvitation: false,
        },
        true,
        "Olive",
      ],
      [{ kind: "revoke", user: { id: annId, name: "Ann" }, previousPermission: "edit" }, true, "Olive"],
    ]);
  });

  it("takes an upcast rename's unknown previous title from the fold", () => {
    const oldRename: DomainEvent = { type: "PageRenamed", data: { pageId, title: "Plan", previousTitle: null } };
    const [, rename] = describeHistory(entries(created, oldRename), new Map());
    expect(rename?.changes).toEqual({ kind: "title", from: "Draft", to: "Plan" });
    expect(rename?.actor).toEqual({ id: ownerId, name: "Erased user" });
  });
});
