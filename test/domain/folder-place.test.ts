// Placing an item in a folder, and re-rooting what lies below a moved or renamed folder, as every projection,
// read-model adapter and answer does it.
import { describe, expect, it } from "vitest";
import { folderPlacedIn, placedIn, reRooted } from "../../shared/folders/folder-place.ts";

describe("reRooted", () => {
  it("keeps the ancestors up to the moved folder and takes the folder's new ones and path above it", () => {
    const moved = { id: "moved", ancestorIds: ["new1"], path: "New/Moved" };
    expect(reRooted({ ancestorIds: ["f2", "moved", "old1", "old2"], path: "Old2/Old1/Moved/F2/Item" }, moved)).toEqual({
      ancestorIds: ["f2", "moved", "new1"],
      path: "New/Moved/F2/Item",
    });
    expect(
      reRooted({ ancestorIds: ["moved"], path: "Moved/Item" }, { id: "moved", ancestorIds: [], path: "Renamed" }),
    ).toEqual({ ancestorIds: ["moved"], path: "Renamed/Item" });
  });

  it("re-roots a page's folder path, which ends at its own folder", () => {
    expect(
      reRooted(
        { ancestorIds: ["inner", "moved"], path: "Moved/Inner" },
        { id: "moved", ancestorIds: ["top"], path: "Top/Moved" },
      ),
    ).toEqual({ ancestorIds: ["inner", "moved", "top"], path: "Top/Moved/Inner" });
  });
});

describe("placedIn", () => {
  it("places an item directly in a folder below it and its ancestors, in its path, and at the root without one", () => {
    const folder = { id: "inner", ancestorIds: ["top"], path: "Top/Inner" };
    expect(placedIn(folder)).toEqual({ ancestorIds: ["inner", "top"], folderPath: "Top/Inner" });
    expect(placedIn(null)).toEqual({ ancestorIds: [], folderPath: "" });
    expect(folderPlacedIn(folder, "New")).toEqual({ ancestorIds: ["inner", "top"], path: "Top/Inner/New" });
    expect(folderPlacedIn(undefined, "New")).toEqual({ ancestorIds: [], path: "New" });
  });
});
