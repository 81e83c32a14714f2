// Who may use the comment routes: token scopes, page visibility and permission, authorship; and threads
// surviving a read-model rebuild.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, TestServer } from "../../support/server.ts";
import { anchor, grantOnPage, listThreads, commentedPage, openThread, threadOf } from "../../support/threads.ts";
import { createPage } from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

/** One call to each comment route on a thread of `pageId`, as `client`. */
function everyRoute(client: Client, pageId: string, threadId: string, commentId: string) {
  return {
    list: () => client.get(`/pages/${pageId}/comments`),
    open: () => client.post(`/pages/${pageId}/comments`, { body: "hello", anchor }),
    reply: () => client.post(`/pages/${pageId}/comments/${threadId}/replies`, { body: "answer" }),
    status: () => client.patch(`/pages/${pageId}/comments/${threadId}/status`, { status: "resolved" }),
    edit: () => client.patch(`/pages/${pageId}/comments/${commentId}`, { body: "edited" }),
    remove: () => client.delete(`/pages/${pageId}/comments/${commentId}`),
  };
}

async function ownedThread() {
  const owner = await server.signIn("owner");
  const pageId = await createPage(owner, commentedPage);
  const thread = await openThread(owner, pageId);
  return { owner, pageId, threadId: thread.id, commentId: thread.comments[0]?.id ?? "" };
}

describe("scopes", () => {
  it("a token without pages:comment gets 403 insufficient_scope on every comment route, the list included", async () => {
    const { owner, pageId, threadId, commentId } = await ownedThread();
    const token = await server.tokenClient(owner, ["pages:read", "pages:write"]);
    for (const [route, call] of Object.entries(everyRoute(token, pageId, threadId, commentId))) {
      const reply = await call();
      expect(reply.status, route).toBe(403);
      expect(reply.body.error?.code, route).toBe("insufficient_scope");
    }
  });

  it("a token with only pages:comment uses every comment route", async () => {
    const { owner, pageId, threadId, commentId } = await ownedThread();
    const routes = everyRoute(await server.tokenClient(owner, ["pages:comment"]), pageId, threadId, commentId);
    expect((await routes.list()).status).toBe(200);
    expect((await routes.open()).status).toBe(201);
    expect((await routes.reply()).status).toBe(201);
    expect((await routes.status()).status).toBe(200);
    expect((await routes.edit()).status).toBe(200);
    expect((await routes.remove()).status).toBe(200);
  });

  it("without credentials every comment route is 401", async () => {
    const { pageId, threadId, commentId } = await ownedThread();
    for (const [route, call] of Object.entries(everyRoute(server.anonymous(), pageId, threadId, commentId))) {
      expect((await call()).status, route).toBe(401);
    }
  });
});

describe("page access", () => {
  it("a user without access to the page gets 404 on every comment route and changes nothing", async () => {
    const { owner, pageId, threadId, commentId } = await ownedThread();
    const before = await listThreads(owner, pageId, "?status=all");
    const stranger = await server.signIn("stranger");
    for (const [route, call] of Object.entries(everyRoute(stranger, pageId, threadId, commentId))) {
      const reply = await call();
      expect(reply.status, route).toBe(404);
      expect(reply.body.error?.code, route).toBe("not_found");
    }
    const strangerToken = await server.tokenClient(stranger, ["pages:comment"]);
    expect((await everyRoute(strangerToken, pageId, threadId, commentId).list()).status).toBe(404);
    expect(await listThreads(owner, pageId, "?status=all")).toEqual(before);
  });

  it("a user who may only view the page gets 403 forbidden on every comment route", async () => {
    const { owner, pageId, threadId, commentId } = await ownedThread();
    const viewer = await server.signIn("viewer");
    await grantOnPage(owner, viewer, pageId, "view");
    expect((await viewer.get(`/pages/${pageId}`)).status).toBe(200);
    for (const [route, call] of Object.entries(everyRoute(viewer, pageId, threadId, commentId))) {
      const reply = await call();
      expect(reply.status, route).toBe(403);
      expect(reply.body.error?.code, route).toBe("forbidden");
    }
  });
});

describe("authorship", () => {
  it("a commenter replies and resolves, but cannot edit or delete someone else's comment (403)", async () => {
    const { owner, pageId, threadId, commentId } = await ownedThread();
    const bob = await server.signIn("bob", { picture: "https://img.example/bob.png" });
    await grantOnPage(owner, bob, pageId, "comment");
    const answered = threadOf(
      await bob.post(`/pages/${pageId}/comments/${threadId}/replies`, { body: "bob's answer" }),
    );
    expect(answered.comments[1]).toMatchObject({
      authorId: bob.id,
      authorName: "bob",
      authorImage: "https://img.example/bob.png",
    });
    expect(
      threadOf(await bob.patch(`/pages/${pageId}/comments/${threadId}/status`, { status: "resolved" })).resolvedBy,
    ).toBe(bob.id);

    for (const reply of [
      await bob.patch(`/pages/${pageId}/comments/${commentId}`, { body: "mine now" }),
      await bob.delete(`/pages/${pageId}/comments/${commentId}`),
    ]) {
      expect(reply.status).toBe(403);
      expect(reply.body.error?.code).toBe("forbidden");
    }
    const bobsComment = answered.comments[1]?.id;
    expect((await owner.patch(`/pages/${pageId}/comments/${bobsComment}`, { body: "owner edit" })).status).toBe(403);
    expect((await owner.delete(`/pages/${pageId}/comments/${bobsComment}`)).status).toBe(403);

    const [thread] = (await listThreads(owner, pageId, "?status=resolved")).data;
    expect(thread?.comments.map((comment) => [comment.body, comment.deletedAt])).toEqual([
      ["first comment", null],
      ["bob's answer", null],
    ]);
  });
});

describe("read-model rebuild", () => {
  it("threads, replies, edits, deletions and statuses survive a rebuild with identical output", async () => {
    const rebuilt = await TestServer.start();
    try {
      const ann = await rebuilt.signIn("ann", { picture: "https://img.example/ann.png" });
      const pageId = await createPage(ann, commentedPage);
      const first = await openThread(ann, pageId, "first");
      await ann.post(`/pages/${pageId}/comments/${first.id}/replies`, { body: "reply" });
      await ann.patch(`/pages/${pageId}/comments/${first.comments[0]?.id}`, { body: "first, edited" });
      const second = await openThread(ann, pageId, "second", { quote: "q" });
      await ann.delete(`/pages/${pageId}/comments/${second.comments[0]?.id}`);
      await ann.patch(`/pages/${pageId}/comments/${second.id}/status`, { status: "resolved" });
      const third = await openThread(ann, pageId, "third");
      await ann.patch(`/pages/${pageId}/comments/${third.id}/status`, { status: "resolved" });
      await ann.patch(`/pages/${pageId}/comments/${third.id}/status`, { status: "open" });

      const queries = ["?status=all", "?status=open", "?status=resolved", "?status=all&limit=1", "?status=all&limit=2"];
      const before = await Promise.all(queries.map((query) => ann.get(`/pages/${pageId}/comments${query}`)));
      await rebuilt.rebuildReadModels();
      const after = await Promise.all(queries.map((query) => ann.get(`/pages/${pageId}/comments${query}`)));
      expect(after.map((reply) => reply.status)).toEqual(queries.map(() => 200));
      expect(after.map((reply) => reply.body)).toEqual(before.map((reply) => reply.body));
      expect((before[0]?.body.data as unknown[]).length).toBe(3);

      // The rebuilt read model still routes commands addressed by comment id.
      expect(
        (await ann.patch(`/pages/${pageId}/comments/${first.comments[0]?.id}`, { body: "after rebuild" })).status,
      ).toBe(200);
      expect((await ann.patch(`/pages/${pageId}/comments/${randomUUID()}`, { body: "x" })).status).toBe(404);
    } finally {
      await rebuilt.stop();
    }
  });
});
