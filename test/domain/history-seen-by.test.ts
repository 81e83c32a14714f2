// History as one caller may be told it: each folder a change names is shown exactly when the caller could view
// that folder itself, otherwise as null (the root); the rest of the change is left as it is.
import { describe, expect, it } from "vitest";
import type { AccessContext } from "../../shared/access/access-context.ts";
import { describeChange, type DescribedEntry } from "../../shared/history/describe-history.ts";
import type { Change, StoredChange } from "../../shared/history/change-summary.ts";
import { entriesSeenBy, foldersNamedBy, type FolderStanding } from "../../shared/history/history-seen-by.ts";
import { accessContext } from "../support/access-context.ts";

const described = (change: StoredChange): DescribedEntry =>
  describeChange(
    {
      position: 1,
      entityKind: "page",
      entityId: "p",
      access: { kind: "page", id: "p" },
      occurredAt: "2024-01-01T00:00:00.000Z",
      actorId: "owner",
      correlationId: "c",
      type: "PageMoved",
      change,
      sharing: false,
    },
    new Map([["owner", "Owner"]]),
  );

// "top" holds "granted" (which the grantee may view); "binned" is in the owner's trash; "gone" was purged.
const standings = new Map<string, FolderStanding | null>([
  ["top", { ownerId: "owner", ancestorIds: [], inTrash: false }],
  ["granted", { ownerId: "owner", ancestorIds: ["top"], inTrash: false }],
  ["below", { ownerId: "owner", ancestorIds: ["granted", "top"], inTrash: false }],
  ["binned", { ownerId: "owner", ancestorIds: [], inTrash: true }],
  ["gone", null],
]);
const grantee = accessContext({ folderGrants: new Map([["granted", "view"]]) });
const member = accessContext({ workspaceRoles: new Map([["owner", "viewer"]]) });
const owner = accessContext({ userId: "owner" });

const shownTo = (caller: AccessContext, changes: StoredChange): Change | undefined =>
  entriesSeenBy(caller, [described(changes)], standings)[0]?.changes;

describe("history seen by a caller", () => {
  it("names the folders every change kind points at, each once", () => {
    const entries = [
      described({ kind: "created", title: "t", icon: null, parentId: "top", size: 0 }),
      described({ kind: "moved", from: "top", to: "granted" }),
      described({ kind: "undeleted", parentId: "binned" }),
      described({ kind: "moved", from: null, to: null }),
      described({ kind: "deleted" }),
    ];
    expect(foldersNamedBy(entries).sort()).toEqual(["binned", "granted", "top"]);
  });

  it("shows a folder granted to the caller or below a grant, and hides the one above it", () => {
    expect(shownTo(grantee, { kind: "moved", from: "top", to: "granted" })).toEqual({
      kind: "moved",
      from: null,
      to: "granted",
    });
    expect(shownTo(grantee, { kind: "moved", from: "below", to: "top" })).toEqual({
      kind: "moved",
      from: "below",
      to: null,
    });
    expect(shownTo(grantee, { kind: "created", title: "t", icon: null, parentId: "top", size: 3 })).toEqual({
      kind: "created",
      title: "t",
      icon: null,
      parentId: null,
      size: 3,
    });
    expect(shownTo(grantee, { kind: "undeleted", parentId: "below" })).toEqual({
      kind: "undeleted",
      parentId: "below",
    });
  });

  it("shows a folder in the trash to the owner and members only, a purged or unknown one to nobody", () => {
    const back: StoredChange = { kind: "undeleted", parentId: "binned" };
    expect(shownTo(owner, back)).toEqual(back);
    expect(shownTo(member, back)).toEqual(back);
    expect(shownTo(accessContext({ folderGrants: new Map([["binned", "edit"]]) }), back)).toEqual({
      kind: "undeleted",
      parentId: null,
    });
    expect(shownTo(owner, { kind: "moved", from: "gone", to: "never-looked-up" })).toEqual({
      kind: "moved",
      from: null,
      to: null,
    });
  });

  it("leaves an entry naming no hidden folder as it is, and every other change kind alone", () => {
    const entries = [
      described({ kind: "moved", from: "top", to: "granted" }),
      described({ kind: "title", from: "a", to: "b" }),
    ];
    const seen = entriesSeenBy(owner, entries, standings);
    expect(seen[0]).toBe(entries[0]);
    expect(seen[1]).toBe(entries[1]);
  });
});
