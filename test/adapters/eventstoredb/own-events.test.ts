// Which events of $all the EventStoreDB adapter hands on as the global log, decided without a server: a
// namespace's stream-prefix filter lets its streams' system events through, and a tombstone's $streamDeleted
// (not JSON) would stop a projector that read it.
import { describe, expect, it } from "vitest";
import { isApplicationEvent } from "../../../shared/adapters/eventstoredb/own-events.ts";

describe("the application's events among those read from $all", () => {
  it("keeps the application's events", () => {
    expect(isApplicationEvent({ event: { type: "PageCreated" } })).toBe(true);
  });

  it("skips a deleted stream's tombstone and every other system event", () => {
    for (const type of ["$streamDeleted", "$metadata", "$>", "$@", "$settings"])
      expect(isApplicationEvent({ event: { type } })).toBe(false);
  });

  it("skips a record without its event (a link to a deleted event)", () => {
    expect(isApplicationEvent({ event: undefined })).toBe(false);
    expect(isApplicationEvent({})).toBe(false);
  });
});
