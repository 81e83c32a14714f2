// An invisible thing answers exactly as a missing one: for every route nested under a page or folder (comments,
// threads, shares, invitations, images, attachments, history), an outsider naming a real child of an invisible
// entity gets the same status and the same bytes as one naming random ids.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type Client, type Reply } from "../../support/server.ts";
import { anchor, grantOnPage, openThread } from "../../support/threads.ts";
import { attach } from "../../support/attachments.ts";
import { makeImage, upload } from "../../support/images.ts";
import { createFolder, createPage, share, unknownAddress } from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

/** Ann's page and folder, with a thread, a grant, a pending invitation and an image on each that can have one. */
async function annsThings() {
  const ann = await server.registered("ann");
  const grantee = await server.registered("grantee");
  const folderId = await createFolder(ann);
  const pageId = await createPage(ann, { parentId: folderId });
  const thread = await openThread(ann, pageId);
  const invited = unknownAddress();
  expect((await share(ann, "page", pageId, grantee.email, "view")).status).toBe(200);
  const invitation = await share(ann, "page", pageId, invited, "view");
  expect(invitation.status).toBe(202);
  const image = await upload(ann, pageId, { file: { bytes: await makeImage("png"), name: "a.png" }, alt: "a" });
  expect(image.status).toBe(201);
  const attachment = await attach(ann, pageId, { bytes: Buffer.from("%PDF-1.7\n"), name: "a.pdf" });
  expect(attachment.status).toBe(201);
  return {
    ann,
    pageId,
    folderId,
    threadId: thread.id,
    commentId: thread.comments[0]?.id ?? "",
    granteeId: grantee.id,
    invited,
    invitationId: String((invitation.body.invitation as { id: string }).id),
    imageId: String(image.body.id),
    attachmentId: String(attachment.body.id),
  };
}
type Things = Awaited<ReturnType<typeof annsThings>>;
type Ids = Omit<Things, "ann" | "invited"> & { invited: string };

/** Every nested route, naming these ids. */
function everyRoute(client: Client, ids: Ids): Record<string, () => Promise<Reply>> {
  const { pageId, folderId, threadId, commentId, granteeId, invited, invitationId, imageId, attachmentId } = ids;
  return {
    "GET comments": () => client.get(`/pages/${pageId}/comments`),
    "POST comments": () => client.post(`/pages/${pageId}/comments`, { body: "hi", anchor }),
    "POST replies": () => client.post(`/pages/${pageId}/comments/${threadId}/replies`, { body: "hi" }),
    "PATCH thread status": () => client.patch(`/pages/${pageId}/comments/${threadId}/status`, { status: "resolved" }),
    "PATCH comment": () => client.patch(`/pages/${pageId}/comments/${commentId}`, { body: "edited" }),
    "DELETE comment": () => client.delete(`/pages/${pageId}/comments/${commentId}`),
    "GET page shares": () => client.get(`/shares/entity/page/${pageId}`),
    "GET folder shares": () => client.get(`/shares/entity/folder/${folderId}`),
    "POST page grant": () =>
      client.post(`/shares/entity/page/${pageId}/grants`, { email: unknownAddress("x"), permission: "view" }),
    "DELETE page grant": () => client.delete(`/shares/entity/page/${pageId}/grants/${granteeId}`),
    "resend by email": () =>
      client.post(`/shares/entity/page/${pageId}/invitations/by-email/${encodeURIComponent(invited)}/resend`),
    "resend invitation": () => client.post(`/shares/invitations/${invitationId}/resend`),
    "cancel invitation": () => client.delete(`/shares/invitations/${invitationId}`),
    "GET image": () => client.get(`/images/${imageId}`),
    "GET attachments": () => client.get(`/pages/${pageId}/attachments`),
    "GET attachment": () => client.get(`/attachments/${attachmentId}`),
    "GET attachment range": () => client.get(`/attachments/${attachmentId}`, { range: "bytes=0-1" }),
    "DELETE attachment": () => client.delete(`/pages/${pageId}/attachments/${attachmentId}`),
    "GET page history": () => client.get(`/pages/${pageId}/history`),
    "GET folder history": () => client.get(`/folders/${folderId}/history`),
  };
}

const randomIds = (): Ids => ({
  pageId: randomUUID(),
  folderId: randomUUID(),
  threadId: randomUUID(),
  commentId: randomUUID(),
  granteeId: randomUUID(),
  invited: unknownAddress(),
  invitationId: randomUUID(),
  imageId: randomUUID(),
  attachmentId: randomUUID(),
});

async function answers(client: Client, ids: Ids): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const [route, call] of Object.entries(everyRoute(client, ids))) {
    const reply = await call();
    result[route] = `${reply.status} ${reply.text}`;
  }
  return result;
}

describe("an outsider", () => {
  it("gets the same status and body for real children of an invisible page as for random ids", async () => {
    const things = await annsThings();
    const outsider = await server.registered("outsider");
    const real = await answers(outsider, things);
    // The entity is invisible, its children real; then the entity invisible with random children; then nothing real.
    const randomChildren = await answers(outsider, {
      ...randomIds(),
      pageId: things.pageId,
      folderId: things.folderId,
    });
    const nothingReal = await answers(outsider, randomIds());
    expect(real).toEqual(randomChildren);
    expect(real).toEqual(nothingReal);
    for (const [route, answer] of Object.entries(real)) expect(answer.slice(0, 3), route).toBe("404");
  });

  it("an upload to an invisible page answers as one to a missing page", async () => {
    const { pageId } = await annsThings();
    const outsider = await server.registered("outsider");
    const bytes = await makeImage("png");
    const hidden = await upload(outsider, pageId, { file: { bytes, name: "a.png" }, alt: "a" });
    const missing = await upload(outsider, randomUUID(), { file: { bytes, name: "a.png" }, alt: "a" });
    expect([hidden.status, hidden.text]).toEqual([missing.status, missing.text]);
    const hiddenFile = await attach(outsider, pageId, { bytes: Buffer.from("%PDF-1.7\n"), name: "a.pdf" });
    const missingFile = await attach(outsider, randomUUID(), { bytes: Buffer.from("%PDF-1.7\n"), name: "a.pdf" });
    expect([hiddenFile.status, hiddenFile.text]).toEqual([missingFile.status, missingFile.text]);
    expect(hiddenFile.status).toBe(404);
  });
});

describe("a viewer of the page", () => {
  it("gets the same answer for a real comment or thread as for a random one on the comment routes", async () => {
    const things = await annsThings();
    const viewer = await server.registered("viewer");
    await grantOnPage(things.ann, viewer, things.pageId, "view");
    const pick = (answersOf: Record<string, string>) =>
      Object.fromEntries(
        Object.entries(answersOf).filter(
          ([route]) => /replies|status|comment$/.test(route) && !route.startsWith("GET"),
        ),
      );
    const real = pick(await answers(viewer, things));
    const random = pick(await answers(viewer, { ...things, threadId: randomUUID(), commentId: randomUUID() }));
    expect(real).toEqual(random);
    for (const [route, answer] of Object.entries(real)) expect(answer.slice(0, 3), route).toBe("403");
  });
});
