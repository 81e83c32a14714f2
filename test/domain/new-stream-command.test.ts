// A command on a stream its caller just named at random (a new page) is decided without reading the stream,
// and still never appends onto one that exists.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "../../shared/errors/app-error.ts";
import { pageIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import { pageCommands } from "../../shared/pages/page.commands.ts";
import { sqliteEventStoreFactory } from "../support/stores.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const context = () => ({ actorId: userIdSchema.parse(randomUUID()), correlationId: randomUUID(), now: new Date() });
const create = (pageId: ReturnType<typeof pageIdSchema.parse>, title: string) => ({
  type: "CreatePage" as const,
  pageId,
  ownerId: userIdSchema.parse(randomUUID()),
  parentId: null,
  title,
  icon: null,
  markdown: "",
});

describe("a command on a stream named new", () => {
  it("creates the page as a command that read the stream would", async () => {
    const { store, cleanup } = await sqliteEventStoreFactory();
    cleanups.push(cleanup);
    const pageId = pageIdSchema.parse(randomUUID());
    const result = await pageCommands.handle(store, pageId, create(pageId, "New"), context(), { newStream: true });
    expect(result.events.map((event) => event.type)).toEqual(["PageCreated"]);
    expect((await store.read(`page-${pageId}`)).events.map((event) => event.type)).toEqual(["PageCreated"]);
  });

  it("is decided again on what the stream holds when it exists after all, and appends nothing", async () => {
    const { store, cleanup } = await sqliteEventStoreFactory();
    cleanups.push(cleanup);
    const pageId = pageIdSchema.parse(randomUUID());
    await pageCommands.handle(store, pageId, create(pageId, "First"), context());
    const again = pageCommands.handle(store, pageId, create(pageId, "Second"), context(), { newStream: true });
    await expect(again).rejects.toBeInstanceOf(AppError);
    await expect(again).rejects.toMatchObject({ code: "conflict" });
    expect((await store.read(`page-${pageId}`)).events).toHaveLength(1);
  });
});
