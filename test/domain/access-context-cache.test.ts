// A user's access context kept until their access changes, as every read store keeps it: the position of the
// last change (and the store's generation) is its version.
import { describe, expect, it } from "vitest";
import { AccessContextCache } from "../../shared/access/access-context-cache.ts";
import { assembleContext } from "../../shared/access/assemble-context.ts";

describe("access context cache", () => {
  it("answers the kept context at the same version, and loads again once the position or the generation moves", async () => {
    const counted = { hits: 0, misses: 0 };
    const cache = new AccessContextCache({ hit: () => (counted.hits += 1), miss: () => (counted.misses += 1) });
    let loads = 0;
    const load = () => {
      loads += 1;
      return assembleContext("ann", {
        grants: [{ entityType: "folder", entityId: "f1", permission: "edit" }],
        roles: [{ ownerId: "bob", role: "editor" }],
        groupIds: [],
      });
    };
    const first = await cache.contextFor("ann", { position: 3, generation: 1 }, load);
    expect(await cache.contextFor("ann", { position: 3, generation: 1 }, load)).toBe(first);
    await cache.contextFor("ann", { position: 4, generation: 1 }, load);
    await cache.contextFor("ann", { position: 4, generation: 2 }, load);
    expect({ loads, ...counted }).toEqual({ loads: 3, hits: 1, misses: 3 });
  });

  it("builds a context from grants, split by entity and the highest of each kept, and workspace roles", () => {
    const context = assembleContext("ann", {
      grants: [
        { entityType: "folder", entityId: "f1", permission: "edit" },
        { entityType: "page", entityId: "p1", permission: "view" },
        { entityType: "page", entityId: "p1", permission: "comment" },
      ],
      roles: [
        { ownerId: "bob", role: "admin" },
        { ownerId: "bob", role: "viewer" },
      ],
      groupIds: ["g1"],
    });
    expect(context).toEqual({
      userId: "ann",
      workspaceRoles: new Map([["bob", "admin"]]),
      folderGrants: new Map([["f1", "edit"]]),
      pageGrants: new Map([["p1", "comment"]]),
      groupIds: new Set(["g1"]),
    });
  });
});
