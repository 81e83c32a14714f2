// The conflicts a request can run into (409) and the requests that cannot be processed as sent (422): a session
// whose address is not its account's, on every operation; the quotas (tokens, webhooks, stored bytes); the rules
// of folders and comments; an Idempotency-Key sent again with another request; a diff too large to compute.
import { randomUUID } from "node:crypto";
import { attachmentForm } from "../attachments.ts";
import { makeImage, pngOfExactly } from "../images.ts";
import type { ResponseConformance } from "../openapi-conformance.ts";
import { attach, createFolder, createPage, imageForm, openThread, unknownAddress } from "./builders.ts";
import { documentedOperations, exampleBody, filled } from "./documented.ts";
import { expectAnswer, read, sessionHeaders, type Agent, type Answer, type Prober, type Sent } from "./probe.ts";

export interface Quotas {
  readonly QUOTA_TOKENS_PER_USER: number;
  readonly WEBHOOKS_PER_USER: number;
  readonly QUOTA_BLOB_BYTES_PER_OWNER: number;
  readonly ATTACHMENT_MAX_BYTES: number;
}

const refusedAs = (answer: Answer, status: number, code: string, what: string): Answer => {
  expectAnswer(answer, status, what);
  if (read(answer, "error.code") !== code) throw new Error(`${what}: expected ${code}, got ${answer.text}`);
  return answer;
};

/** Every operation refuses a session whose email claim is not its account's address: 409 conflict, nothing changed. */
async function changedAddress(prober: Prober, conformance: ResponseConformance): Promise<void> {
  const dora = await prober.signIn("dora");
  const changed = prober.as(await sessionHeaders(dora.id, `changed-${dora.email}`, "dora"));
  await Promise.all(
    documentedOperations(conformance)
      .filter((operation) => operation.secured)
      .map(async (operation) =>
        refusedAs(
          await changed.send(operation.method, filled(operation), exampleBody(operation)),
          409,
          "conflict",
          `${operation.operationId} with a changed address`,
        ),
      ),
  );
}

async function quotas(prober: Prober, limits: Quotas, receiverUrl: string): Promise<void> {
  const quinn = await prober.signIn("quinn");
  for (let index = 0; index < limits.QUOTA_TOKENS_PER_USER; index += 1) await prober.token(quinn, ["pages:read"]);
  refusedAs(
    await quinn.post("/api/v1/tokens", { name: "one too many", scopes: ["pages:read"] }),
    409,
    "quota_exceeded",
    "createToken past the quota",
  );
  for (let index = 0; index < limits.WEBHOOKS_PER_USER; index += 1)
    expectAnswer(await quinn.post("/api/v1/webhooks", { url: receiverUrl, events: ["*"] }), 201, "a webhook");
  refusedAs(
    await quinn.post("/api/v1/webhooks", { url: receiverUrl, events: ["*"] }),
    409,
    "quota_exceeded",
    "createWebhook past the quota",
  );

  // More than half the workspace's bytes in one file: a second such file, a copy of the page holding it, an
  // image or an import of that size would pass the quota.
  const size = limits.ATTACHMENT_MAX_BYTES;
  if (2 * size <= limits.QUOTA_BLOB_BYTES_PER_OWNER)
    throw new Error("two of the largest attachments must pass the stored bytes quota");
  const { id: pageId } = await createPage(quinn);
  await attach(quinn, pageId, new Uint8Array(size));
  const large = attachmentForm({ bytes: new Uint8Array(size), name: "again.bin" });
  refusedAs(
    await quinn.send("POST", `/api/v1/pages/${pageId}/attachments`, { body: large }),
    409,
    "quota_exceeded",
    "uploadAttachment past the quota",
  );
  refusedAs(
    await quinn.send("POST", `/api/v1/pages/${pageId}/images`, { body: imageForm(await pngOfExactly(size)) }),
    409,
    "quota_exceeded",
    "uploadImage past the quota",
  );
  refusedAs(
    await quinn.post(`/api/v1/pages/${pageId}/duplicate`, { title: "A copy" }),
    409,
    "quota_exceeded",
    "duplicatePage past the quota",
  );
  const vault = {
    files: [
      { path: "Report.md", content: "See [[report.pdf]]" },
      { path: "report.pdf", content: Buffer.alloc(size, 0x25).toString("base64") },
    ],
  };
  refusedAs(
    await quinn.post("/api/v1/imports/obsidian", vault),
    409,
    "quota_exceeded",
    "importObsidianVault past the quota",
  );
}

async function rules(prober: Prober): Promise<void> {
  const owner = await prober.signIn("rules");
  const folderId = await createFolder(owner);
  await createPage(owner, { parentId: folderId });
  refusedAs(
    await owner.delete(`/api/v1/folders/${folderId}`),
    409,
    "conflict",
    "deleteFolder of a folder with a page inside",
  );
  refusedAs(
    await owner.post(`/api/v1/folders/${folderId}/move`, { parentId: folderId }),
    409,
    "conflict",
    "moveFolder into itself",
  );
  const { id: pageId } = await createPage(owner);
  const { commentId } = await openThread(owner, pageId);
  expectAnswer(await owner.delete(`/api/v1/pages/${pageId}/comments/${commentId}`), 200, "a comment deleted");
  refusedAs(
    await owner.patch(`/api/v1/pages/${pageId}/comments/${commentId}`, { body: "Edited after all" }),
    409,
    "conflict",
    "editComment of a deleted comment",
  );
}

/** For each operation taking an Idempotency-Key: where it goes, and two different requests. */
type KeyedCase = { readonly path: string; readonly first: Sent; readonly second: Sent };

async function keyedCases(owner: Agent): Promise<Record<string, KeyedCase>> {
  const { id: pageId } = await createPage(owner);
  const { threadId } = await openThread(owner, pageId);
  const png = await makeImage("png");
  const invited = unknownAddress();
  const member = unknownAddress("member");
  const json = (first: unknown, second: unknown) => ({ first: { json: first }, second: { json: second } });
  const groupId = read(expectAnswer(await owner.post("/api/v1/groups", { name: "Keyed" }), 201, "a group"), "id");
  const grouped = unknownAddress("grouped");
  return {
    createGroup: { path: "/api/v1/groups", ...json({ name: "One" }, { name: "Two" }) },
    addGroupMember: {
      path: `/api/v1/groups/${groupId}/members`,
      ...json({ email: grouped }, { email: unknownAddress("other") }),
    },
    createFolder: { path: "/api/v1/folders", ...json({ name: "One" }, { name: "Two" }) },
    createPage: { path: "/api/v1/pages", ...json({ title: "One" }, { title: "Two" }) },
    duplicatePage: { path: `/api/v1/pages/${pageId}/duplicate`, ...json({ title: "One" }, { title: "Two" }) },
    createCommentThread: {
      path: `/api/v1/pages/${pageId}/comments`,
      ...json({ body: "One", anchor: { quote: "words" } }, { body: "Two", anchor: { quote: "words" } }),
    },
    replyToCommentThread: {
      path: `/api/v1/pages/${pageId}/comments/${threadId}/replies`,
      ...json({ body: "One" }, { body: "Two" }),
    },
    grantEntityAccess: {
      path: `/api/v1/shares/entity/page/${pageId}/grants`,
      ...json({ email: invited, permission: "view" }, { email: invited, permission: "edit" }),
    },
    addWorkspaceMember: {
      path: "/api/v1/shares/workspace/members",
      ...json({ email: member, role: "viewer" }, { email: member, role: "editor" }),
    },
    uploadImage: {
      path: `/api/v1/pages/${pageId}/images`,
      first: { body: imageForm(png, "one") },
      second: { body: imageForm(png, "two") },
    },
    uploadAttachment: {
      path: `/api/v1/pages/${pageId}/attachments`,
      first: { body: attachmentForm({ bytes: new TextEncoder().encode("one"), name: "one.txt" }) },
      second: { body: attachmentForm({ bytes: new TextEncoder().encode("two"), name: "two.txt" }) },
    },
    importObsidianVault: {
      path: "/api/v1/imports/obsidian",
      ...json({ files: [{ path: "One.md", content: "one" }] }, { files: [{ path: "Two.md", content: "two" }] }),
    },
  };
}

/** The same Idempotency-Key with another request: 422 idempotency_key_mismatch, on every operation that takes one. */
async function keyReused(prober: Prober, conformance: ResponseConformance): Promise<void> {
  const owner = await prober.signIn("keys");
  const cases = await keyedCases(owner);
  const keyed = documentedOperations(conformance).filter(({ headers }) => headers.includes("Idempotency-Key"));
  await Promise.all(
    keyed.map(async (operation) => {
      const sent = cases[operation.operationId];
      if (!sent)
        throw new Error(
          `${operation.operationId} takes an Idempotency-Key: give it a case in test/support/conformance/conflicts.ts`,
        );
      const key = { "idempotency-key": randomUUID() };
      const first = await owner.send(operation.method, sent.path, { ...sent.first, headers: key });
      if (first.status >= 300)
        throw new Error(`${operation.operationId}: the first request answered ${first.status} ${first.text}`);
      refusedAs(
        await owner.send(operation.method, sent.path, { ...sent.second, headers: key }),
        422,
        "idempotency_key_mismatch",
        `${operation.operationId} with a key used for another request`,
      );
    }),
  );
}

/** Two versions too different to compare: 422 diff_too_large. */
async function diffTooLarge(prober: Prober): Promise<void> {
  const owner = await prober.signIn("differ");
  // Every line changed: an edit script of twice the lines, past the 5,000 edits a diff computes.
  const lines = (prefix: string) => Array.from({ length: 3_000 }, (_, index) => `${prefix} ${index}`).join("\n");
  const { id: pageId, created } = await createPage(owner, { markdown: lines("a") });
  expectAnswer(
    await owner.put(`/api/v1/pages/${pageId}/content`, { markdown: lines("b") }, { "if-match": "*" }),
    200,
    "another version",
  );
  refusedAs(
    await owner.get(`/api/v1/pages/${pageId}/diff?from=${created}`),
    422,
    "diff_too_large",
    "getPageDiff of two very different versions",
  );
}

export async function conflicts({
  prober,
  conformance,
  limits,
  receiverUrl,
}: {
  prober: Prober;
  conformance: ResponseConformance;
  limits: Quotas;
  receiverUrl: string;
}): Promise<void> {
  await Promise.all([
    changedAddress(prober, conformance),
    quotas(prober, limits, receiverUrl),
    rules(prober),
    keyReused(prober, conformance),
    diffTooLarge(prober),
  ]);
}
