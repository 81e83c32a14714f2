// What a server answers while its read side has not caught up: every write 202 with X-Read-Side: behind (what it
// recorded is never reported as failed), a read waiting for a consistency token 503 consistency_timeout, and every
// request of a session first seen meanwhile 503 consistency_timeout (its account is recorded, not readable yet).
// The projector is paused for the while, as an overloaded or restarting one would be; everything the writes need
// is made (and projected) first.
import { SESSION_COOKIE } from "../../../shared/auth/session-verifier.ts";
import { attachmentForm } from "../attachments.ts";
import { authorizedApp } from "../oauth-flow.ts";
import { makeImage } from "../images.ts";
import type { TestServer } from "../server.ts";
import {
  attach,
  contentOf,
  createFolder,
  createPage,
  deletePage,
  imageForm,
  invite,
  openThread,
  reply,
  shareLink,
  unknownAddress,
} from "./builders.ts";
import { documentedOperations, exampleBody, filled } from "./documented.ts";
import type { ResponseConformance } from "../openapi-conformance.ts";
import { expectAnswer, header, read, type Answer, type Prober } from "./probe.ts";

const behind = (answer: Answer, what: string): Answer => {
  expectAnswer(answer, 202, what);
  if (answer.headers.get("x-read-side") !== "behind") throw new Error(`${what}: a 202 without X-Read-Side: behind`);
  return answer;
};

/** Runs the steps of each lane one after the other, and the lanes side by side. */
async function lanes(...all: Array<Array<() => Promise<unknown>>>): Promise<void> {
  await Promise.all(
    all.map(async (steps) => {
      for (const step of steps) await step();
    }),
  );
}

export async function whileTheReadSideLags({
  server,
  prober,
  conformance,
  receiverUrl,
}: {
  server: TestServer;
  prober: Prober;
  conformance: ResponseConformance;
  receiverUrl: string;
}): Promise<void> {
  const [ann, bob, carl, late] = await Promise.all([
    prober.signIn("ann"),
    prober.signIn("bob"),
    prober.signIn("carl"),
    prober.stranger("late"),
  ]);
  const [api, spareToken, updatedHook, deletedHook, png] = await Promise.all([
    prober.token(ann, ["pages:read", "pages:comment", "pages:write"]),
    ann
      .post("/api/v1/tokens", { name: "spare", scopes: ["pages:read"] })
      .then((created) => read(expectAnswer(created, 201, "a spare token"), "id")),
    ann
      .post("/api/v1/webhooks", { url: receiverUrl, events: ["*"] })
      .then((created) => read(expectAnswer(created, 201, "a webhook"), "id")),
    ann
      .post("/api/v1/webhooks", { url: receiverUrl, events: ["page.created"] })
      .then((created) => read(expectAnswer(created, 201, "a second webhook"), "id")),
    makeImage("png"),
  ]);
  const [target, moving] = await Promise.all([
    createFolder(api, { name: "Target" }),
    createFolder(api, { name: "Moving" }),
  ]);
  // An app authorized through OAuth (its consent given by a signed-in person), revoked below while the read side lags.
  const appOwner = await server.registered("app-owner");
  await authorizedApp(server.url, appOwner, ["pages:read"]);
  const appId = String(((await appOwner.get("/apps")).body.data as Array<{ id: string }>)[0]?.id);
  const appOwnerSession = prober.as({
    cookie: `${SESSION_COOKIE}=${appOwner.credentials && "cookie" in appOwner.credentials ? appOwner.credentials.cookie : ""}`,
  });
  const [renamed, moved, appended, restored, duplicated, deleted, purged, undeleted, discussed, shared, filed] =
    await Promise.all(
      [
        "Renamed",
        "Moved",
        "Appended",
        "Restored",
        "Duplicated",
        "Deleted",
        "Purged",
        "Undeleted",
        "Discussed",
        "Shared",
        "Filed",
      ].map((title) => createPage(api, { title })),
    );
  if (
    !renamed ||
    !moved ||
    !appended ||
    !restored ||
    !duplicated ||
    !deleted ||
    !purged ||
    !undeleted ||
    !discussed ||
    !shared ||
    !filed
  )
    throw new Error("setup failed");
  const resentByEmail = unknownAddress();
  const invitedMember = unknownAddress("member");
  const [restoredTag, thread, resent, cancelled, attachment, changedLink, revokedLink] = await Promise.all([
    api
      .put(`/api/v1/pages/${restored.id}/content`, { markdown: "other words" }, { "if-match": "*" })
      .then(async (second) => {
        expectAnswer(second, 200, "a second version");
        return (await contentOf(api, restored.id)).etag;
      }),
    openThread(api, discussed.id).then(async (opened) => ({
      ...opened,
      replyId: await reply(api, discussed.id, opened.threadId),
    })),
    invite(api, shared.id, unknownAddress()),
    invite(api, shared.id, unknownAddress()),
    attach(api, filed.id, new TextEncoder().encode("a file")),
    shareLink(api, "page", shared.id),
    shareLink(api, "page", shared.id),
    invite(api, shared.id, resentByEmail),
    deletePage(api, purged.id),
    deletePage(api, undeleted.id),
    api
      .post(`/api/v1/shares/entity/page/${shared.id}/grants`, { email: bob.email, permission: "view" })
      .then((granted) => expectAnswer(granted, 200, "a grant to bob")),
    api
      .post("/api/v1/shares/workspace/members", { email: bob.email, role: "viewer" })
      .then((added) => expectAnswer(added, 200, "bob a member")),
    api
      .post("/api/v1/shares/workspace/members", { email: invitedMember, role: "viewer" })
      .then((invited) => expectAnswer(invited, 202, "a member invited")),
    // The import's worker threads start on its first use: started now, so the import below waits only for the read side.
    api
      .post("/api/v1/imports/obsidian", { files: [{ path: "Warm/Up.md", content: "warm" }] })
      .then((imported) => expectAnswer(imported, 201, "a first import")),
  ]);
  const groupOf = async (name: string) =>
    read(expectAnswer(await api.post("/api/v1/groups", { name }), 201, `the group ${name}`), "id");
  const [renamedGroup, deletedGroup, sharedGroup] = await Promise.all(["Renamed", "Deleted", "Shared"].map(groupOf));
  expectAnswer(await api.post(`/api/v1/groups/${sharedGroup}/members`, { email: bob.email }), 200, "bob in a group");
  expectAnswer(
    await api.post(`/api/v1/shares/entity/page/${shared.id}/grants`, { groupId: sharedGroup, permission: "view" }),
    200,
    "a grant to a group",
  );
  expectAnswer(
    await api.post("/api/v1/shares/workspace/members", { groupId: renamedGroup, role: "viewer" }),
    200,
    "a role for a group",
  );
  const notes = [
    { path: "Vault/Plan.md", content: "See [[Budget]]" },
    { path: "Vault/Budget.md", content: "Numbers" },
  ];
  const operations = documentedOperations(conformance);

  await server.internals.projector.stop();
  try {
    // The first write the read side has not seen: its position is what the reads below wait for.
    const first = behind(await api.post("/api/v1/pages", { title: "Unseen" }), "createPage");
    const unseen = header(first, "x-consistency-token");
    await lanes(
      [
        async () =>
          behind(await ann.post("/api/v1/tokens", { name: "while behind", scopes: ["pages:read"] }), "createToken"),
        async () => behind(await ann.delete(`/api/v1/tokens/${spareToken}`), "revokeToken"),
        async () => behind(await appOwnerSession.delete(`/api/v1/apps/${appId}`), "revokeApp"),
      ],
      [
        async () => behind(await api.post("/api/v1/folders", { name: "While behind" }), "createFolder"),
        async () => behind(await api.post(`/api/v1/folders/${moving}/move`, { parentId: target }), "moveFolder"),
      ],
      [async () => behind(await api.patch(`/api/v1/pages/${renamed.id}`, { title: "Renamed again" }), "updatePage")],
      [
        async () => behind(await api.put(`/api/v1/pages/${moved.id}/watch`, {}), "watchPage"),
        async () => behind(await api.delete(`/api/v1/pages/${moved.id}/watch`), "unwatchPage"),
        async () => behind(await api.put(`/api/v1/folders/${target}/watch`, {}), "watchFolder"),
        async () => behind(await api.delete(`/api/v1/folders/${target}/watch`), "unwatchFolder"),
        async () =>
          behind(await api.put("/api/v1/me/notification-settings", { autoWatch: false }), "changeNotificationSettings"),
      ],
      [async () => behind(await api.post("/api/v1/notifications/read", { all: true }), "markNotificationsRead")],
      [async () => behind(await api.post(`/api/v1/pages/${moved.id}/move`, { parentId: target }), "movePage")],
      [
        async () =>
          behind(await api.patch(`/api/v1/pages/${appended.id}/content`, { append: "\nmore" }), "appendPageContent"),
      ],
      [
        async () =>
          behind(
            await api.post(
              `/api/v1/pages/${restored.id}/restore`,
              { at: restored.created },
              { "if-match": restoredTag },
            ),
            "restorePage",
          ),
      ],
      [
        async () =>
          behind(await api.post(`/api/v1/pages/${duplicated.id}/duplicate`, { title: "A copy" }), "duplicatePage"),
      ],
      [async () => behind(await api.delete(`/api/v1/pages/${deleted.id}`), "deletePage")],
      [async () => behind(await api.delete(`/api/v1/trash/page/${purged.id}`), "purgeFromTrash")],
      [async () => behind(await api.post(`/api/v1/trash/page/${undeleted.id}/restore`), "restoreFromTrash")],
      [
        async () =>
          behind(
            await api.post(`/api/v1/pages/${discussed.id}/comments/${thread.threadId}/replies`, { body: "And?" }),
            "replyToCommentThread",
          ),
        async () =>
          behind(
            await api.patch(`/api/v1/pages/${discussed.id}/comments/${thread.threadId}/status`, { status: "resolved" }),
            "setCommentThreadStatus",
          ),
        async () =>
          behind(
            await api.patch(`/api/v1/pages/${discussed.id}/comments/${thread.commentId}`, { body: "Why, again?" }),
            "editComment",
          ),
        async () =>
          behind(await api.delete(`/api/v1/pages/${discussed.id}/comments/${thread.replyId}`), "deleteComment"),
      ],
      [
        async () =>
          behind(await api.delete(`/api/v1/shares/entity/page/${shared.id}/grants/${bob.id}`), "revokeEntityAccess"),
        async () => behind(await api.delete(`/api/v1/shares/workspace/members/${bob.id}`), "removeWorkspaceMember"),
      ],
      [
        async () => behind(await api.post(`/api/v1/shares/invitations/${resent}/resend`), "resendInvitation"),
        async () =>
          behind(
            await api.post(
              `/api/v1/shares/entity/page/${shared.id}/invitations/by-email/${encodeURIComponent(resentByEmail)}/resend`,
            ),
            "resendEntityInvitation",
          ),
        async () =>
          behind(
            await api.post(`/api/v1/shares/workspace/invitations/by-email/${encodeURIComponent(invitedMember)}/resend`),
            "resendWorkspaceInvitation",
          ),
        async () => behind(await api.delete(`/api/v1/shares/invitations/${cancelled}`), "cancelInvitation"),
      ],
      [
        async () =>
          behind(await api.send("POST", `/api/v1/pages/${filed.id}/images`, { body: imageForm(png) }), "uploadImage"),
        async () =>
          behind(
            await api.send("POST", `/api/v1/pages/${filed.id}/attachments`, {
              body: attachmentForm({ bytes: new TextEncoder().encode("another file"), name: "notes.txt" }),
            }),
            "uploadAttachment",
          ),
        async () => behind(await api.delete(`/api/v1/pages/${filed.id}/attachments/${attachment}`), "deleteAttachment"),
      ],
      [
        async () =>
          behind(await ann.post("/api/v1/webhooks", { url: receiverUrl, events: ["folder.created"] }), "createWebhook"),
        async () =>
          behind(await ann.patch(`/api/v1/webhooks/${updatedHook}`, { description: "while behind" }), "updateWebhook"),
        async () => behind(await ann.delete(`/api/v1/webhooks/${deletedHook}`), "deleteWebhook"),
      ],
      [
        async () => behind(await api.post(`/api/v1/pages/${shared.id}/share-links`, {}), "createPageShareLink"),
        async () => behind(await api.post(`/api/v1/folders/${target}/share-links`, {}), "createFolderShareLink"),
        async () =>
          behind(await api.patch(`/api/v1/share-links/${changedLink.id}`, { allowIndexing: true }), "changeShareLink"),
        async () => behind(await api.delete(`/api/v1/share-links/${revokedLink.id}`), "revokeShareLink"),
      ],
      [
        async () => behind(await api.post("/api/v1/groups", { name: "While behind" }), "createGroup"),
        async () => behind(await api.patch(`/api/v1/groups/${renamedGroup}`, { name: "Renamed again" }), "renameGroup"),
        async () =>
          behind(await api.delete(`/api/v1/shares/workspace/groups/${renamedGroup}`), "removeWorkspaceGroupRole"),
        async () => behind(await api.delete(`/api/v1/groups/${deletedGroup}`), "deleteGroup"),
        async () =>
          behind(
            await api.delete(`/api/v1/shares/entity/page/${shared.id}/groups/${sharedGroup}`),
            "revokeGroupAccess",
          ),
        async () => behind(await api.delete(`/api/v1/groups/${sharedGroup}/members/${bob.id}`), "removeGroupMember"),
      ],
      [async () => behind(await carl.delete("/api/v1/me", { confirm: carl.email }), "eraseAccount")],
      [async () => behind(await api.post("/api/v1/imports/obsidian", { files: notes }), "importObsidianVault")],
      // Every read told to wait for the unseen write answers 503 once the wait is over.
      ...operations
        .filter((operation) => operation.headers.includes("X-Consistency-Token"))
        .map((operation) => [
          async () =>
            expectAnswer(
              await (operation.sessionOnly ? ann : api).get(filled(operation), { "x-consistency-token": unseen }),
              503,
              `${operation.operationId} waiting for a write`,
            ),
        ]),
      // A session first seen now: until the account it recorded is readable, its every request answers 503.
      ...operations
        .filter((operation) => operation.secured)
        .map((operation) => [
          async () =>
            expectAnswer(
              await late.send(operation.method, filled(operation), exampleBody(operation)),
              503,
              `${operation.operationId} before the session's account is readable`,
            ),
        ]),
    );
  } finally {
    await server.internals.projector.start();
  }
  await caughtUp(prober);
}

/** Waits, with a deadline, until /readyz says the read models hold every event of the log. */
async function caughtUp(prober: Prober): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const readiness = await prober.send("GET", "/readyz");
    if (readiness.status === 200 && read(readiness, "lag") === "0 events") return;
    if (Date.now() > deadline) throw new Error(`the read side did not catch up: ${readiness.text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
