// What a caller is shown of an item's place agrees with the access rule: an ancestor is shown exactly when
// the caller could view that folder itself.
import { describe, expect, it } from "vitest";
import { effectivePermission } from "../../shared/access/effective-permission.ts";
import { seenBy, visibleAncestorCount } from "../../shared/access/seen-by.ts";
import { accessContext } from "../support/access-context.ts";

// Folders f0 (nearest) .. f3 (at the root) above a page in "A/B/C/D".
const page = {
  id: "p",
  ownerId: "owner",
  parentId: "f0",
  ancestorIds: ["f0", "f1", "f2", "f3"],
  folderPath: "A/B/C/D",
};

describe("visible ancestors", () => {
  it("an ancestor is counted exactly when the caller could view that folder", () => {
    const contexts = [
      accessContext(),
      accessContext({ pageGrants: new Map([["p", "view"]]) }),
      accessContext({ folderGrants: new Map([["f1", "view"]]) }),
      accessContext({
        folderGrants: new Map([
          ["f0", "edit"],
          ["f2", "view"],
        ]),
      }),
      accessContext({ workspaceRoles: new Map([["owner", "viewer"]]) }),
      accessContext({ userId: "owner" }),
    ];
    for (const caller of contexts) {
      const visible = page.ancestorIds.filter((id, index) =>
        effectivePermission(caller, {
          kind: "folder",
          id,
          ownerId: page.ownerId,
          ancestorIds: page.ancestorIds.slice(index + 1),
        }),
      );
      expect(page.ancestorIds.slice(0, visibleAncestorCount(caller, page))).toEqual(visible);
    }
  });

  it("a page whose folder is hidden is shown at the root; one below a granted folder from that folder down", () => {
    const onlyPage = seenBy(accessContext({ pageGrants: new Map([["p", "view"]]) }), page);
    expect([onlyPage.parentId, onlyPage.folderPath, onlyPage.ancestorIds]).toEqual([null, "", []]);
    const fromB = seenBy(accessContext({ folderGrants: new Map([["f2", "view"]]) }), page);
    expect([fromB.parentId, fromB.folderPath, fromB.ancestorIds]).toEqual(["f0", "B/C/D", ["f0", "f1", "f2"]]);
  });

  it("a folder's own path keeps its name", () => {
    const folder = { id: "f0", ownerId: "owner", parentId: "f1", ancestorIds: ["f1", "f2", "f3"], path: "A/B/C/D" };
    const shown = seenBy(accessContext({ folderGrants: new Map([["f0", "view"]]) }), folder);
    expect([shown.parentId, shown.path]).toEqual([null, "D"]);
  });

  it("leaves the permission unchanged", () => {
    const caller = accessContext({ folderGrants: new Map([["f1", "comment"]]), pageGrants: new Map([["p", "view"]]) });
    expect(effectivePermission(caller, { kind: "page", ...seenBy(caller, page) })).toBe(
      effectivePermission(caller, { kind: "page", ...page }),
    );
  });
});
