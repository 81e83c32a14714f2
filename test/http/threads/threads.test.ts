import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { threadStream } from "../../../shared/threads/thread.decider.ts";
import { anchor, listThreads, commentedPage, openThread, threadOf, walkThreads } from "../../support/threads.ts";
import { createPage } from "../../support/workspace-builders.ts";
import { TestServer, type TestUser } from "../../support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
// Timestamps have millisecond resolution: let one pass so a later change gets a later time.
const nextMillisecond = () => new Promise((resolve) => setTimeout(resolve, 5));

async function pageWithAuthor(label = "ann"): Promise<{ ann: TestUser; pageId: string }> {
  const ann = await server.signIn(label, { picture: `https://img.example/${label}.png` });
  return { ann, pageId: await createPage(ann, commentedPage) };
}

describe("POST /pages/{pageId}/comments", () => {
  it("opens a thread with its first comment, authored from the caller's profile", async () => {
    const { ann, pageId } = await pageWithAuthor();
    const reply = await ann.post(`/pages/${pageId}/comments`, { body: "Is this right?", anchor });
    expect(reply.status).toBe(201);
    expect(reply.headers.get("x-consistency-token")).toMatch(/^\d+$/);
    const thread = threadOf(reply);
    expect(thread).toEqual({
      id: expect.any(String),
      pageId,
      anchor: { ...anchor, found: true },
      status: "open",
      createdBy: ann.id,
      createdAt: expect.stringMatching(iso),
      updatedAt: thread.createdAt,
      resolvedBy: null,
      resolvedAt: null,
      comments: [
        {
          id: expect.any(String),
          threadId: thread.id,
          authorId: ann.id,
          authorName: "ann",
          authorImage: "https://img.example/ann.png",
          body: "Is this right?",
          createdAt: thread.createdAt,
          updatedAt: thread.createdAt,
          deletedAt: null,
        },
      ],
    });
    expect((await listThreads(ann, pageId)).data).toEqual([thread]);
  });

  it("defaults an anchor's prefix and suffix to empty strings, and authorImage to null without a picture", async () => {
    const bea = await server.signIn("bea");
    const thread = await openThread(bea, await createPage(bea, commentedPage), "note", { quote: "words" });
    expect(thread.anchor).toEqual({ quote: "words", prefix: "", suffix: "", found: true });
    expect(thread.comments[0]?.authorImage).toBeNull();
  });

  it("keeps a thread on text the page does not contain, saying so in anchor.found, and says so once its text is edited away", async () => {
    const { ann, pageId } = await pageWithAuthor();
    const missing = await ann.post(`/pages/${pageId}/comments`, {
      body: "Where is this?",
      anchor: { quote: "words that are not there" },
    });
    expect(missing.status).toBe(201);
    expect(threadOf(missing).anchor.found).toBe(false);
    const present = threadOf(
      await ann.post(`/pages/${pageId}/comments`, { body: "Here", anchor: { quote: "quoted words" } }),
    );
    expect(present.anchor.found).toBe(true);
    expect(
      (
        await ann.call("PUT", `/pages/${pageId}/content`, {
          json: { markdown: "All new text." },
          headers: { "if-match": "*" },
        })
      ).status,
    ).toBe(200);
    const threads = (await listThreads(ann, pageId)).data;
    expect(threads.map((thread) => thread.anchor.found)).toEqual([false, false]);
  });

  it("validates the body and the anchor", async () => {
    const { ann, pageId } = await pageWithAuthor();
    const bad = [
      {},
      { anchor },
      { body: "", anchor },
      { body: "  \n ", anchor },
      { body: 42, anchor },
      { body: "x".repeat(10_001), anchor },
      { body: "ok" },
      { body: "ok", anchor: "the words" },
      { body: "ok", anchor: { prefix: "a", suffix: "b" } },
      { body: "ok", anchor: { quote: "" } },
      { body: "ok", anchor: { quote: "q", prefix: 1 } },
      { body: "ok", anchor: { quote: "q", suffix: null } },
      { body: "ok", anchor: { quote: "q".repeat(2_001) } },
      { body: "ok", anchor: { quote: "q", prefix: "p".repeat(501) } },
    ];
    for (const json of bad) {
      const reply = await ann.post(`/pages/${pageId}/comments`, json);
      expect(reply.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect(reply.body.error?.code).toBe("validation_failed");
    }
    expect((await ann.post(`/pages/${pageId}/comments`, { body: "x".repeat(10_000), anchor })).status).toBe(201);
    expect((await ann.post(`/pages/not-a-uuid/comments`, { body: "ok", anchor })).status).toBe(400);
    expect((await listThreads(ann, pageId)).data).toHaveLength(1);
  });

  it("an unknown or deleted page is 404", async () => {
    const { ann, pageId } = await pageWithAuthor();
    expect((await ann.post(`/pages/${randomUUID()}/comments`, { body: "ok", anchor })).status).toBe(404);
    await openThread(ann, pageId);
    expect((await ann.delete(`/pages/${pageId}`)).status).toBe(204);
    expect((await ann.post(`/pages/${pageId}/comments`, { body: "ok", anchor })).status).toBe(404);
    expect((await ann.get(`/pages/${pageId}/comments`)).status).toBe(404);
  });
});

describe("POST /pages/{pageId}/comments/{threadId}/replies", () => {
  it("adds a comment at the end of the thread and moves the thread's updatedAt", async () => {
    const { ann, pageId } = await pageWithAuthor();
    const thread = await openThread(ann, pageId);
    await nextMillisecond();
    const reply = await ann.post(`/pages/${pageId}/comments/${thread.id}/replies`, { body: "second" });
    expect(reply.status).toBe(201);
    const answered = threadOf(reply);
    expect(answered.comments.map((comment) => comment.body)).toEqual(["first comment", "second"]);
    expect(answered.comments[1]).toMatchObject({ threadId: thread.id, authorId: ann.id, deletedAt: null });
    expect(answered.updatedAt > thread.updatedAt).toBe(true);
    expect(answered.createdAt).toBe(thread.createdAt);
  });

  it("validates the body and the ids; a thread of another page is 404", async () => {
    const { ann, pageId } = await pageWithAuthor();
    const thread = await openThread(ann, pageId);
    for (const json of [{}, { body: "" }, { body: "   " }, { body: "x".repeat(10_001) }]) {
      expect((await ann.post(`/pages/${pageId}/comments/${thread.id}/replies`, json)).status).toBe(400);
    }
    expect((await ann.post(`/pages/${pageId}/comments/not-a-uuid/replies`, { body: "ok" })).status).toBe(400);
    expect((await ann.post(`/pages/${pageId}/comments/${randomUUID()}/replies`, { body: "ok" })).status).toBe(404);
    const otherPage = await createPage(ann, { ...commentedPage, title: "Other page" });
    const misplaced = await ann.post(`/pages/${otherPage}/comments/${thread.id}/replies`, { body: "ok" });
    expect(misplaced.status).toBe(404);
    expect(misplaced.body.error?.code).toBe("not_found");
  });
});

describe("PATCH /pages/{pageId}/comments/{threadId}/status", () => {
  it("resolving sets resolvedBy and resolvedAt; reopening clears them", async () => {
    const { ann, pageId } = await pageWithAuthor();
    const thread = await openThread(ann, pageId);
    const resolved = threadOf(await ann.patch(`/pages/${pageId}/comments/${thread.id}/status`, { status: "resolved" }));
    expect(resolved).toMatchObject({ status: "resolved", resolvedBy: ann.id, resolvedAt: expect.stringMatching(iso) });
    expect(resolved.updatedAt).toBe(resolved.resolvedAt);
    const reopened = threadOf(await ann.patch(`/pages/${pageId}/comments/${thread.id}/status`, { status: "open" }));
    expect(reopened).toMatchObject({ status: "open", resolvedBy: null, resolvedAt: null });
  });

  it("asking for the status a thread already has answers 200 and records no event", async () => {
    const { ann, pageId } = await pageWithAuthor();
    const thread = await openThread(ann, pageId);
    const events = () => server.internals.eventStore.read(threadStream(thread.id)).then((read) => read.events);
    const before = (await events()).length;
    const same = await ann.patch(`/pages/${pageId}/comments/${thread.id}/status`, { status: "open" });
    expect(same.status).toBe(200);
    expect(threadOf(same)).toEqual(thread);
    const resolved = threadOf(await ann.patch(`/pages/${pageId}/comments/${thread.id}/status`, { status: "resolved" }));
    const again = await ann.patch(`/pages/${pageId}/comments/${thread.id}/status`, { status: "resolved" });
    expect(again.status).toBe(200);
    expect(threadOf(again)).toEqual(resolved);
    expect((await events()).length).toBe(before + 1);
  });

  it("validates the status and the ids; a thread of another page is 404", async () => {
    const { ann, pageId } = await pageWithAuthor();
    const thread = await openThread(ann, pageId);
    for (const json of [{}, { status: "closed" }, { status: "all" }, { status: null }]) {
      expect((await ann.patch(`/pages/${pageId}/comments/${thread.id}/status`, json)).status).toBe(400);
    }
    expect((await ann.patch(`/pages/${pageId}/comments/nope/status`, { status: "resolved" })).status).toBe(400);
    expect((await ann.patch(`/pages/${pageId}/comments/${randomUUID()}/status`, { status: "resolved" })).status).toBe(
      404,
    );
    const otherPage = await createPage(ann, { ...commentedPage, title: "Other page" });
    expect((await ann.patch(`/pages/${otherPage}/comments/${thread.id}/status`, { status: "resolved" })).status).toBe(
      404,
    );
  });
});

describe("PATCH /pages/{pageId}/comments/{commentId}", () => {
  it("the author replaces the body and updatedAt moves", async () => {
    const { ann, pageId } = await pageWithAuthor();
    const thread = await openThread(ann, pageId);
    const first = thread.comments[0];
    await nextMillisecond();
    const edited = threadOf(await ann.patch(`/pages/${pageId}/comments/${first?.id}`, { body: "better words" }));
    const comment = edited.comments[0];
    expect(comment).toMatchObject({
      id: first?.id,
      body: "better words",
      createdAt: first?.createdAt,
      deletedAt: null,
    });
    expect(comment && first && comment.updatedAt > first.updatedAt).toBe(true);
    expect(edited.updatedAt).toBe(comment?.updatedAt);
  });

  it("validates the body and the ids; a comment of another page or an unknown one is 404", async () => {
    const { ann, pageId } = await pageWithAuthor();
    const commentId = (await openThread(ann, pageId)).comments[0]?.id;
    for (const json of [{}, { body: "" }, { body: " " }, { body: "x".repeat(10_001) }, { body: ["x"] }]) {
      expect((await ann.patch(`/pages/${pageId}/comments/${commentId}`, json)).status).toBe(400);
    }
    expect((await ann.patch(`/pages/${pageId}/comments/not-a-uuid`, { body: "ok" })).status).toBe(400);
    expect((await ann.patch(`/pages/${pageId}/comments/${randomUUID()}`, { body: "ok" })).status).toBe(404);
    const otherPage = await createPage(ann, { ...commentedPage, title: "Other page" });
    expect((await ann.patch(`/pages/${otherPage}/comments/${commentId}`, { body: "ok" })).status).toBe(404);
  });
});

describe("DELETE /pages/{pageId}/comments/{commentId}", () => {
  it("the author deletes a comment: deletedAt is set, the body is no longer returned, the thread stays", async () => {
    const { ann, pageId } = await pageWithAuthor();
    const thread = await openThread(ann, pageId, "regrettable words");
    const commentId = thread.comments[0]?.id;
    const reply = await ann.delete(`/pages/${pageId}/comments/${commentId}`);
    expect(reply.status).toBe(200);
    const comment = threadOf(reply).comments[0];
    expect(comment).toMatchObject({ id: commentId, body: "", deletedAt: expect.stringMatching(iso) });
    expect(comment?.updatedAt).toBe(comment?.deletedAt);
    const listed = await listThreads(ann, pageId);
    expect(listed.data[0]?.comments[0]).toEqual(comment);
    expect(JSON.stringify(listed)).not.toContain("regrettable");
  });

  it("deleting again is a no-op 200; editing a deleted comment is 409", async () => {
    const { ann, pageId } = await pageWithAuthor();
    const commentId = (await openThread(ann, pageId)).comments[0]?.id;
    const deleted = threadOf(await ann.delete(`/pages/${pageId}/comments/${commentId}`));
    const again = await ann.delete(`/pages/${pageId}/comments/${commentId}`);
    expect(again.status).toBe(200);
    expect(threadOf(again)).toEqual(deleted);
    const edit = await ann.patch(`/pages/${pageId}/comments/${commentId}`, { body: "back" });
    expect(edit.status).toBe(409);
    expect(edit.body.error?.code).toBe("conflict");
  });

  it("validates the ids; a comment of another page or an unknown one is 404", async () => {
    const { ann, pageId } = await pageWithAuthor();
    const commentId = (await openThread(ann, pageId)).comments[0]?.id;
    expect((await ann.delete(`/pages/${pageId}/comments/not-a-uuid`)).status).toBe(400);
    expect((await ann.delete(`/pages/${pageId}/comments/${randomUUID()}`)).status).toBe(404);
    expect(
      (await ann.delete(`/pages/${await createPage(ann, { ...commentedPage, title: "Other" })}/comments/${commentId}`))
        .status,
    ).toBe(404);
    expect((await ann.delete(`/pages/${randomUUID()}/comments/${commentId}`)).status).toBe(404);
  });
});

describe("GET /pages/{pageId}/comments", () => {
  it("lists open threads by default, newest first, and walks open, resolved and all through small pages", async () => {
    const { ann, pageId } = await pageWithAuthor();
    const opened: string[] = [];
    for (let i = 0; i < 7; i += 1) opened.push((await openThread(ann, pageId, `thread ${i}`)).id);
    const resolvedIds = [opened[1], opened[4], opened[5]];
    for (const id of resolvedIds) await ann.patch(`/pages/${pageId}/comments/${id}/status`, { status: "resolved" });
    const newestFirst = [...opened].reverse();
    const open = newestFirst.filter((id) => !resolvedIds.includes(id));
    const resolved = newestFirst.filter((id) => resolvedIds.includes(id));

    expect((await listThreads(ann, pageId)).data.map((thread) => thread.id)).toEqual(open);
    for (const limit of [1, 2, 3, 50]) {
      expect(await walkThreads(ann, pageId, null, limit)).toEqual(open);
      expect(await walkThreads(ann, pageId, "open", limit)).toEqual(open);
      expect(await walkThreads(ann, pageId, "resolved", limit)).toEqual(resolved);
      expect(await walkThreads(ann, pageId, "all", limit)).toEqual(newestFirst);
    }
    const firstPage = await listThreads(ann, pageId, "?status=all&limit=7");
    expect(firstPage.nextCursor).toBeNull();
  });

  it("lists a thread's comments oldest first and only the threads of that page", async () => {
    const { ann, pageId } = await pageWithAuthor();
    const thread = await openThread(ann, pageId, "one");
    for (const body of ["two", "three"]) await ann.post(`/pages/${pageId}/comments/${thread.id}/replies`, { body });
    await openThread(ann, await createPage(ann, { ...commentedPage, title: "Elsewhere" }), "not here");
    const listed = await listThreads(ann, pageId);
    expect(listed.data.map((t) => t.comments.map((comment) => comment.body))).toEqual([["one", "two", "three"]]);
  });

  it("validates status, limit, cursor and the page id", async () => {
    const { ann, pageId } = await pageWithAuthor();
    for (const query of [
      "?status=closed",
      "?status=",
      "?limit=0",
      "?limit=101",
      "?limit=two",
      "?cursor=garbage",
      "?cursor=",
    ]) {
      const reply = await ann.get(`/pages/${pageId}/comments${query}`);
      expect(reply.status, query).toBe(400);
      expect(reply.body.error?.code).toBe("validation_failed");
    }
    expect((await ann.get(`/pages/not-a-uuid/comments`)).status).toBe(400);
    expect((await ann.get(`/pages/${pageId}/comments?limit=100`)).status).toBe(200);
  });

  it("shows authors' current names and images, so profile changes appear on old comments", async () => {
    const id = randomUUID();
    const email = `${id}@example.com`;
    const ann = await server.signIn("ann", { id, email, name: "Ann Old" });
    const pageId = await createPage(ann, commentedPage);
    await openThread(ann, pageId);
    const renamed = await server.signIn("ann", { id, email, name: "Ann New", picture: "https://img.example/new.png" });
    expect((await renamed.get("/me")).status).toBe(200);
    const comment = (await listThreads(renamed, pageId)).data[0]?.comments[0];
    expect(comment).toMatchObject({ authorName: "Ann New", authorImage: "https://img.example/new.png" });
  });
});
