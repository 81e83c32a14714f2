// An erased account never comes back: the same identity (the same `sub` and email, as the identity provider goes
// on issuing them) signing in again gets a new account under a new id, which owns nothing of before; what the
// erased account left on others' pages stays an erased user's. Seen from the other user's side (Dave) and from
// hers (Erin).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintSession } from "../../../shared/auth/session-verifier.ts";
import { anchor, listThreads, openThread } from "../../support/threads.ts";
import { Client, TEST_SESSION_SECRET, TestServer } from "../../support/server.ts";
import { createPage, share } from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

describe("signing in again after an erasure", () => {
  it("gives the same identity a new, empty account: Dave still sees an erased user's comment, and Erin cannot edit it or see what she had", async () => {
    const dave = await server.registered("dave", { name: "Dave" });
    const erin = await server.registered("erin", { name: "Erin" });
    const davesPage = await createPage(dave, {
      title: "Dave's plan",
      markdown: "text before the quoted words text after",
    });
    expect((await share(dave, "page", davesPage, erin.email, "edit")).status).toBe(200);
    const comment = await openThread(erin, davesPage, "Erin's remark before", anchor);
    const commentId = String(comment.comments[0]?.id);
    const hersBefore = await createPage(erin, { title: "Erin's own page" });
    const token = await server.tokenClient(erin, ["pages:read", "pages:write", "pages:comment"]);

    expect((await erin.call("DELETE", "/me", { json: { confirm: erin.email } })).status).toBe(204);
    const erasedAuthor = {
      authorId: erin.id,
      authorName: "Erased user",
      authorImage: null,
      body: "Erin's remark before",
    };
    expect(
      (await listThreads(dave, davesPage)).data.find((thread) => thread.id === comment.id)?.comments[0],
    ).toMatchObject(erasedAuthor);

    await new Promise((resolve) => setTimeout(resolve, 1_100)); // a session's issue time counts whole seconds
    const again = new Client(server.url, {
      cookie: await mintSession(TEST_SESSION_SECRET, { sub: erin.id, email: erin.email, name: "Erin" }),
    });
    const me = await again.get("/me");
    expect(me.status, me.text).toBe(200);
    expect(me.body).toMatchObject({ email: erin.email, name: "Erin" });
    const newId = String(me.body.id);
    expect(newId).not.toBe(erin.id);

    // Dave's side: the comment is still an erased user's, under the erased id.
    expect(
      (await listThreads(dave, davesPage)).data.find((thread) => thread.id === comment.id)?.comments[0],
    ).toMatchObject(erasedAuthor);
    expect(JSON.stringify((await dave.get(`/pages/${davesPage}/comments`)).body)).not.toContain(newId);

    // Erin's side: nothing of before is hers, nor shown to her.
    expect((await again.get("/pages")).body.data).toEqual([]);
    expect((await again.get(`/pages/${davesPage}`)).status).toBe(404);
    expect((await again.get(`/pages/${hersBefore}`)).status).toBe(404);
    const edit = await again.call("PATCH", `/pages/${davesPage}/comments/${commentId}`, {
      json: { body: "taken back" },
    });
    expect(edit.status).toBe(404);
    expect(
      (await listThreads(dave, davesPage)).data.find((thread) => thread.id === comment.id)?.comments[0],
    ).toMatchObject(erasedAuthor);
    // The credentials of before stay refused: the old session and the old token.
    expect((await erin.get("/me")).status).toBe(401);
    expect((await token.get("/me")).status).toBe(401);
    expect((await again.get("/me")).body).toMatchObject({ id: newId });

    // Sharing with her address now reaches the new account.
    expect((await share(dave, "page", davesPage, erin.email, "view")).status).toBe(200);
    expect((await again.get(`/pages/${davesPage}`)).status).toBe(200);
  });

  it("gives a new account again after the new account is erased in its turn, never an earlier one", async () => {
    const ann = await server.registered("ann");
    expect((await ann.call("DELETE", "/me", { json: { confirm: ann.email } })).status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const second = new Client(server.url, {
      cookie: await mintSession(TEST_SESSION_SECRET, { sub: ann.id, email: ann.email, name: "ann" }),
    });
    const secondId = String((await second.get("/me")).body.id);
    await createPage(second, { title: "Ann's second page" });
    expect((await second.call("DELETE", "/me", { json: { confirm: ann.email } })).status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const third = new Client(server.url, {
      cookie: await mintSession(TEST_SESSION_SECRET, { sub: ann.id, email: ann.email, name: "ann" }),
    });
    const me = await third.get("/me");
    expect(me.status, me.text).toBe(200);
    expect([ann.id, secondId]).not.toContain(me.body.id);
    expect((await third.get("/pages")).body.data).toEqual([]);
    expect((await second.get("/me")).status).toBe(401);
  });
});
