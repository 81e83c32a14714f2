// How a namespace maps stream names on a shared EventStoreDB, tested without a server.
import { describe, expect, it } from "vitest";
import { StreamNames } from "../../../shared/adapters/eventstoredb/eventstoredb.event-store.ts";

describe("EventStoreDB stream names", () => {
  it("keeps names as they are without a namespace", () => {
    const names = new StreamNames(null);
    expect(names.stored("page-1")).toBe("page-1");
    expect(names.ours("$$page-1")).toBe("$$page-1");
  });

  it("puts streams and their metadata streams inside the namespace, and takes them out again", () => {
    const names = new StreamNames("tenant");
    expect(names.stored("page-1")).toBe("tenant:page-1");
    expect(names.stored("$$page-1")).toBe("$$tenant:page-1");
    for (const stream of ["page-1", "$$page-1", "email-a@b.c"]) expect(names.ours(names.stored(stream))).toBe(stream);
  });
});
