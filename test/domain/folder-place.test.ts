// Re-rooting what lies below a moved or renamed folder, as every read-model adapter does it.
import { describe, expect, it } from "vitest";
import { reRooted } from "../../shared/folders/folder-place.ts";

describe("reRooted", () => {
  it("keeps the ancestors up to the moved folder and takes the folder's new ones and path above it", () => {
    const moved = { id: "moved", ancestorIds: ["new1"], path: "New/Moved" };
    expect(reRooted({ ancestorIds: ["f2", "moved", "old1", "old2"], path: "Old2/Old1/Moved/F2/Item" }, moved)).toEqual({ ancestorIds: ["f2", "moved", "new1"], path: "New/Moved/F2/Item" });
    expect(reRooted({ ancestorIds: ["moved"], path: "Moved/Item" }, { id: "moved", ancestorIds: [], path: "Renamed" })).toEqual({ ancestorIds: ["moved"], path: "Renamed/Item" });
  });

  it("re-roots a page's folder path, which ends at its own folder", () => {
    expect(reRooted({ ancestorIds: ["inner", "moved"], path: "Moved/Inner" }, { id: "moved", ancestorIds: ["top"], path: "Top/Moved" })).toEqual({ ancestorIds: ["inner", "moved", "top"], path: "Top/Moved/Inner" });
  });
});
