// Every operation of the API reference called through the typed client (openapi-fetch over the generated types),
// as a user's script would: no casts, no non-null assertions, no `any` (test/http/api/typed-client.test.ts compiles it
// alone with `tsc --strict` and checks). Each step names the answer it expects; test/http/api/api-conformance.test.ts
// checks every answer against the document and that every operation was called.
import type { WorkspaceClient } from "../../client/index.ts";
import { until } from "./poll.ts";

export interface EveryOperationInput {
  /** Ann's browser session: tokens and webhooks are managed by a session. */
  readonly browser: WorkspaceClient;
  /** Bob's browser session: an existing account to share with. */
  readonly bob: WorkspaceClient;
  /** Makes a client that sends an API token. */
  readonly withToken: (token: string) => WorkspaceClient;
  /** A webhook receiver's address. */
  readonly receiverUrl: string;
  /** A PNG image. */
  readonly png: Blob;
}

/** A value the previous answer must have carried: a missing one stops the script with what was answered. */
function must<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`expected ${what}`);
  return value;
}

function expectStatus(response: Response, status: number, what: string): void {
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status}`);
}

const unknownAddress = (label: string) => `${label}-${crypto.randomUUID()}@example.com`;

export async function callEveryOperation({
  browser,
  bob,
  withToken,
  receiverUrl,
  png,
}: EveryOperationInput): Promise<void> {
  // Operations: health, readiness, metrics.
  expectStatus((await browser.GET("/healthz")).response, 200, "getHealth");
  expectStatus((await browser.GET("/readyz")).response, 200, "getReadiness");
  const metrics = await browser.GET("/metrics", { parseAs: "text" });
  expectStatus(metrics.response, 200, "getMetrics");

  // Who am I, and an API token (only a session can make one).
  const me = await browser.GET("/api/v1/me");
  const annId = must(me.data, "getMe").id;
  const bobId = must((await bob.GET("/api/v1/me")).data, "bob's getMe").id;
  const created = await browser.POST("/api/v1/tokens", {
    body: { name: "every operation", scopes: ["pages:read", "pages:comment", "pages:write"], expiresAt: null },
  });
  const api = withToken(must(created.data, "createToken").token);
  expectStatus((await browser.GET("/api/v1/tokens")).response, 200, "listTokens");
  const spare = must((await browser.POST("/api/v1/tokens", { body: { name: "spare" } })).data, "a second token");
  expectStatus(
    (await browser.DELETE("/api/v1/tokens/{tokenId}", { params: { path: { tokenId: spare.id } } })).response,
    204,
    "revokeToken",
  );
  must((await browser.GET("/api/v1/apps")).data, "listApps");
  // No app was authorized here (an OAuth flow: api-conformance.test.ts revokes one): one not theirs is missing.
  expectStatus(
    (await browser.DELETE("/api/v1/apps/{appId}", { params: { path: { appId: "not-an-app-of-theirs-000" } } }))
      .response,
    404,
    "revokeApp",
  );

  // Folders.
  const projects = must((await api.POST("/api/v1/folders", { body: { name: "Projects" } })).data, "createFolder");
  const archive = must(
    (await api.POST("/api/v1/folders", { body: { name: "Archive", parentId: null, icon: null } })).data,
    "a second folder",
  );
  expectStatus((await api.GET("/api/v1/folders", { params: { query: { limit: 10 } } })).response, 200, "listFolders");
  const folder = must(
    (await api.GET("/api/v1/folders/{folderId}", { params: { path: { folderId: projects.id } } })).data,
    "getFolder",
  );
  const renamedFolder = must(
    (
      await api.PATCH("/api/v1/folders/{folderId}", {
        params: { path: { folderId: folder.id } },
        body: { name: "Projects 2026" },
      })
    ).data,
    "updateFolder",
  );
  if (renamedFolder.name !== "Projects 2026") throw new Error("updateFolder did not rename");
  expectStatus(
    (
      await api.POST("/api/v1/folders/{folderId}/move", {
        params: { path: { folderId: archive.id } },
        body: { parentId: projects.id },
      })
    ).response,
    200,
    "moveFolder",
  );
  expectStatus(
    (await api.GET("/api/v1/folders/{folderId}/history", { params: { path: { folderId: projects.id } } })).response,
    200,
    "getFolderHistory",
  );

  // Pages: the record is typed as one answer, so its fields read without narrowing.
  const page = must(
    (
      await api.POST("/api/v1/pages", {
        body: { title: "Q4 plan", markdown: "# Goals\n\nShip it.", parentId: projects.id },
      })
    ).data,
    "createPage",
  );
  const title: string = page.title;
  const other = must(
    (await api.POST("/api/v1/pages", { body: { title: "Budget", markdown: `See [Q4](/api/v1/pages/${page.id})` } }))
      .data,
    "a second page",
  );
  expectStatus((await api.GET("/api/v1/pages", { params: { query: { limit: 10 } } })).response, 200, "listPages");
  expectStatus(
    (await api.GET("/api/v1/pages/{pageId}", { params: { path: { pageId: page.id } } })).response,
    200,
    "getPage",
  );
  expectStatus(
    (await api.GET("/api/v1/pages/resolve", { params: { query: { title } } })).response,
    200,
    "resolvePages",
  );
  expectStatus((await api.GET("/api/v1/search", { params: { query: { q: "goals" } } })).response, 200, "searchPages");
  expectStatus(
    (await api.GET("/api/v1/pages/{pageId}/backlinks", { params: { path: { pageId: page.id } } })).response,
    200,
    "listBacklinks",
  );
  const renamed = must(
    (
      await api.PATCH("/api/v1/pages/{pageId}", {
        params: { path: { pageId: page.id } },
        body: { title: "Q4 plan (v2)" },
      })
    ).data,
    "updatePage",
  );
  if (renamed.title !== "Q4 plan (v2)") throw new Error("updatePage did not rename");
  const moved = must(
    (
      await api.POST("/api/v1/pages/{pageId}/move", {
        params: { path: { pageId: other.id } },
        body: { parentId: projects.id },
      })
    ).data,
    "movePage",
  );
  if (moved.folderPath !== "Projects 2026") throw new Error(`movePage: folderPath ${moved.folderPath}`);

  // Markdown is text: read as text, with its ETag; the same ETag again is 304.
  const content = await api.GET("/api/v1/pages/{pageId}/content", {
    params: { path: { pageId: page.id } },
    parseAs: "text",
  });
  const etag = must(content.response.headers.get("etag"), "an ETag");
  const notModified = await api.GET("/api/v1/pages/{pageId}/content", {
    params: { path: { pageId: page.id }, header: { "If-None-Match": etag } },
    parseAs: "text",
  });
  expectStatus(notModified.response, 304, "getPageContent with If-None-Match");
  // A replacement as JSON, then as markdown text (a string body goes out as text/markdown, no header needed).
  const replaced = await api.PUT("/api/v1/pages/{pageId}/content", {
    params: { path: { pageId: page.id }, header: { "If-Match": etag } },
    body: { markdown: "# Goals\n\nShip it twice." },
    parseAs: "text",
  });
  const replacedTag = must(replaced.response.headers.get("etag"), "the replacement's ETag");
  const asText = await api.PUT("/api/v1/pages/{pageId}/content", {
    params: { path: { pageId: page.id }, header: { "If-Match": replacedTag } },
    body: "# Goals\n\nShip it three times.",
    parseAs: "text",
  });
  if (!must(asText.data, "replacePageContent as text").endsWith("Ship it three times."))
    throw new Error("replacePageContent as text did not replace");
  const stale = await api.PUT("/api/v1/pages/{pageId}/content", {
    params: { path: { pageId: page.id }, header: { "If-Match": etag } },
    body: { markdown: "lost update" },
    parseAs: "text",
  });
  expectStatus(stale.response, 412, "replacePageContent with a stale ETag");
  const appended = await api.PATCH("/api/v1/pages/{pageId}/content", {
    params: { path: { pageId: page.id } },
    body: { append: "\n- 09:30 deploy finished" },
    parseAs: "text",
  });
  if (!must(appended.data, "appendPageContent").includes("deploy finished"))
    throw new Error("appendPageContent did not append");
  const history = must(
    (
      await api.GET("/api/v1/pages/{pageId}/history", {
        params: { path: { pageId: page.id }, query: { order: "asc" } },
      })
    ).data,
    "getPageHistory",
  );
  const firstChange = must(history.data[0], "a first change").position;
  const current = must(appended.response.headers.get("etag"), "the append's ETag");
  const restored = await api.POST("/api/v1/pages/{pageId}/restore", {
    params: { path: { pageId: page.id }, header: { "If-Match": current } },
    body: { at: firstChange },
    parseAs: "text",
  });
  if (!must(restored.data, "restorePage").endsWith("Ship it.")) throw new Error("restorePage did not restore");
  const copy = must(
    (
      await api.POST("/api/v1/pages/{pageId}/duplicate", {
        params: { path: { pageId: page.id } },
        body: { title: "Q4 plan (copy)" },
      })
    ).data,
    "duplicatePage",
  );

  // Images: the file part is a Blob.
  const image = must(
    (
      await api.POST("/api/v1/pages/{pageId}/images", {
        params: { path: { pageId: page.id } },
        body: { file: png, alt: "a chart" },
      })
    ).data,
    "uploadImage",
  );
  const bytes = await api.GET("/api/v1/images/{imageId}", {
    params: { path: { imageId: image.id } },
    parseAs: "arrayBuffer",
  });
  if (must(bytes.data, "getImage").byteLength !== png.size) throw new Error("getImage answered other bytes");

  // Attachments: any file, as a Blob part; its bytes, listed, and removed.
  const pdf = new Blob([new TextEncoder().encode("%PDF-1.4\n%every operation\n")], { type: "application/pdf" });
  const attached = must(
    (
      await api.POST("/api/v1/pages/{pageId}/attachments", {
        params: { path: { pageId: page.id } },
        body: { file: pdf, name: "brief.pdf" },
      })
    ).data,
    "uploadAttachment",
  );
  expectStatus(
    (await api.GET("/api/v1/pages/{pageId}/attachments", { params: { path: { pageId: page.id } } })).response,
    200,
    "listAttachments",
  );
  const attachedBytes = await api.GET("/api/v1/attachments/{attachmentId}", {
    params: { path: { attachmentId: attached.id } },
    parseAs: "arrayBuffer",
  });
  if (must(attachedBytes.data, "getAttachment").byteLength !== pdf.size)
    throw new Error("getAttachment answered other bytes");
  expectStatus(
    (
      await api.GET("/api/v1/attachments/{attachmentId}", {
        params: { path: { attachmentId: crypto.randomUUID() } },
        parseAs: "arrayBuffer",
      })
    ).response,
    404,
    "getAttachment of a file that is not there",
  );
  expectStatus(
    (
      await api.DELETE("/api/v1/pages/{pageId}/attachments/{attachmentId}", {
        params: { path: { pageId: page.id, attachmentId: attached.id } },
      })
    ).response,
    204,
    "deleteAttachment",
  );

  // The change between two instants: a unified diff, or hunks as JSON; a page that is not there is 404.
  // Between the page's creation and its append: the restore since then brought the first version back.
  const range = {
    from: firstChange,
    to: must(appended.response.headers.get("x-consistency-token"), "the append's position"),
  };
  const diff = await api.GET("/api/v1/pages/{pageId}/diff", {
    params: { path: { pageId: page.id }, query: range },
    headers: { accept: "application/json" },
  });
  const hunks = must(diff.data, "getPageDiff");
  if (typeof hunks === "string" || hunks.linesAdded === 0)
    throw new Error("getPageDiff as JSON did not show the change");
  const unified = await api.GET("/api/v1/pages/{pageId}/diff", {
    params: { path: { pageId: page.id }, query: range },
    parseAs: "text",
  });
  if (!must(unified.data, "getPageDiff as text").includes("+- 09:30 deploy finished"))
    throw new Error("getPageDiff as text did not show the change");
  const noDiff = await api.GET("/api/v1/pages/{pageId}/diff", {
    params: { path: { pageId: crypto.randomUUID() }, query: { from: firstChange } },
    parseAs: "text",
  });
  expectStatus(noDiff.response, 404, "getPageDiff of a page that is not there");

  // Public share links: the secret is in the creation answer's url alone; the public pages need no credentials.
  const pageLink = must(
    (await api.POST("/api/v1/pages/{pageId}/share-links", { params: { path: { pageId: page.id } }, body: {} })).data,
    "createPageShareLink",
  );
  const folderLink = must(
    (
      await api.POST("/api/v1/folders/{folderId}/share-links", {
        params: { path: { folderId: projects.id } },
        body: { allowIndexing: true },
      })
    ).data,
    "createFolderShareLink",
  );
  const secretOf = (url: string | null, what: string) =>
    must(must(url, what).split("/").pop(), `the secret of ${what}`);
  const pageSecret = secretOf(pageLink.url, "the page link's url");
  const folderSecret = secretOf(folderLink.url, "the folder link's url");
  expectStatus((await api.GET("/api/v1/share-links")).response, 200, "listShareLinks");
  expectStatus(
    (await api.GET("/api/v1/share-links/{linkId}", { params: { path: { linkId: pageLink.id } } })).response,
    200,
    "getShareLink",
  );
  const changedLink = must(
    (
      await api.PATCH("/api/v1/share-links/{linkId}", {
        params: { path: { linkId: folderLink.id } },
        body: { allowIndexing: false },
      })
    ).data,
    "changeShareLink",
  );
  if (changedLink.allowIndexing) throw new Error("changeShareLink did not change");

  // The audit trail of Ann's workspace: her own changes, newest first.
  const annsTrail = must(
    (await api.GET("/api/v1/audit", { params: { query: { limit: 10 } } })).data,
    "listAuditEntries",
  );
  if (annsTrail.data.length === 0) throw new Error("listAuditEntries: no entry for the changes above");
  // Notifications: Bob's own, then all marked read.
  const bobsNotifications = must(
    (await bob.GET("/api/v1/notifications", { params: { query: { limit: 10 } } })).data,
    "listNotifications",
  );
  if (bobsNotifications.unreadCount < 0) throw new Error("listNotifications: a negative unread count");
  expectStatus(
    (await bob.POST("/api/v1/notifications/read", { body: { all: true } })).response,
    204,
    "markNotificationsRead",
  );
  // An unsubscribe link's token comes only in an email: a made-up one is not found, on the page and the one-click POST.
  const madeUpToken = { query: { token: "u1.e30.bm90LWEtc2lnbmF0dXJl" } };
  expectStatus(
    (await api.GET("/api/v1/notifications/unsubscribe", { params: madeUpToken, parseAs: "text" })).response,
    404,
    "showNotificationUnsubscribe",
  );
  expectStatus(
    (
      await api.POST("/api/v1/notifications/unsubscribe", {
        params: madeUpToken,
        body: new Blob(["List-Unsubscribe=One-Click"]),
        bodySerializer: (body) => body,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        parseAs: "text",
      })
    ).response,
    404,
    "unsubscribeFromNotificationEmails",
  );
  expectStatus(
    (await api.GET("/s/{secret}", { params: { path: { secret: pageSecret } }, parseAs: "text" })).response,
    200,
    "viewSharedPage",
  );
  expectStatus(
    (
      await api.GET("/s/{secret}/pages/{pageId}", {
        params: { path: { secret: folderSecret, pageId: page.id } },
        parseAs: "text",
      })
    ).response,
    200,
    "viewSharedFolderPage",
  );
  expectStatus(
    (
      await api.GET("/s/{secret}/pages/{pageId}", {
        params: { path: { secret: folderSecret, pageId: crypto.randomUUID() } },
        parseAs: "text",
      })
    ).response,
    404,
    "viewSharedFolderPage of a page outside the link",
  );
  expectStatus(
    (
      await api.GET("/s/{secret}/images/{imageId}", {
        params: { path: { secret: pageSecret, imageId: image.id } },
        parseAs: "arrayBuffer",
      })
    ).response,
    200,
    "getSharedImage",
  );
  expectStatus(
    (
      await api.GET("/s/{secret}/images/{imageId}", {
        params: { path: { secret: pageSecret, imageId: crypto.randomUUID() } },
        parseAs: "arrayBuffer",
      })
    ).response,
    404,
    "getSharedImage of an image not on the page",
  );
  const sharedFile = must(
    (
      await api.POST("/api/v1/pages/{pageId}/attachments", {
        params: { path: { pageId: page.id } },
        body: { file: pdf, name: "shared.pdf" },
      })
    ).data,
    "uploadAttachment to share",
  );
  const sharedBytes = await api.GET("/s/{secret}/attachments/{attachmentId}", {
    params: { path: { secret: pageSecret, attachmentId: sharedFile.id } },
    parseAs: "arrayBuffer",
  });
  if (must(sharedBytes.data, "getSharedAttachment").byteLength !== pdf.size)
    throw new Error("getSharedAttachment answered other bytes");
  expectStatus(
    (
      await api.GET("/s/{secret}/attachments/{attachmentId}", {
        params: { path: { secret: pageSecret, attachmentId: crypto.randomUUID() } },
        parseAs: "arrayBuffer",
      })
    ).response,
    404,
    "getSharedAttachment of a file not on the page",
  );
  expectStatus((await api.GET("/favicon.ico", { parseAs: "text" })).response, 204, "getFavicon");
  // A protected link: its page asks for the password; the form (as a browser posts it, or as JSON) answers 303 to
  // the page with the cookie that unlocks it.
  const locked = must(
    (
      await api.POST("/api/v1/pages/{pageId}/share-links", {
        params: { path: { pageId: page.id } },
        body: { password: "correct horse" },
      })
    ).data,
    "a protected link",
  );
  const lockedPath = { secret: secretOf(locked.url, "the protected link's url") };
  expectStatus(
    (await api.GET("/s/{secret}", { params: { path: lockedPath }, parseAs: "text" })).response,
    401,
    "viewSharedPage of a protected link",
  );
  const wrong = await api.POST("/s/{secret}", {
    params: { path: lockedPath },
    body: { password: "wrong horse" },
    redirect: "manual",
    parseAs: "text",
  });
  expectStatus(wrong.response, 401, "unlockSharedPage with a wrong password");
  const form = { "content-type": "application/x-www-form-urlencoded" };
  const unlocked = await api.POST("/s/{secret}", {
    params: { path: lockedPath },
    body: { password: "correct horse" },
    headers: form,
    redirect: "manual",
    parseAs: "text",
  });
  expectStatus(unlocked.response, 303, "unlockSharedPage");
  if (unlocked.response.headers.get("location") !== `/s/${lockedPath.secret}`)
    throw new Error("unlockSharedPage did not send to the link's page");
  const cookie = must(
    must(unlocked.response.headers.get("set-cookie"), "the unlocking cookie").split(";")[0],
    "the cookie's value",
  );
  expectStatus(
    (await api.GET("/s/{secret}", { params: { path: lockedPath }, headers: { cookie }, parseAs: "text" })).response,
    200,
    "viewSharedPage unlocked",
  );
  expectStatus(
    (await api.DELETE("/api/v1/share-links/{linkId}", { params: { path: { linkId: pageLink.id } } })).response,
    204,
    "revokeShareLink",
  );

  // Comments.
  const opened = must(
    (
      await api.POST("/api/v1/pages/{pageId}/comments", {
        params: { path: { pageId: other.id } },
        body: { body: "Which quarter?", anchor: { quote: "Q4" } },
      })
    ).data,
    "createCommentThread",
  );
  const threadId = opened.thread.id;
  const firstComment = must(opened.thread.comments[0], "the thread's first comment");
  expectStatus(
    (await api.GET("/api/v1/pages/{pageId}/comments", { params: { path: { pageId: other.id } } })).response,
    200,
    "listCommentThreads",
  );
  const replied = must(
    (
      await api.POST("/api/v1/pages/{pageId}/comments/{threadId}/replies", {
        params: { path: { pageId: other.id, threadId } },
        body: { body: "The fourth." },
      })
    ).data,
    "replyToCommentThread",
  );
  const reply = must(replied.thread.comments[1], "the reply");
  expectStatus(
    (
      await api.PATCH("/api/v1/pages/{pageId}/comments/{commentId}", {
        params: { path: { pageId: other.id, commentId: firstComment.id } },
        body: { body: "Which quarter, again?" },
      })
    ).response,
    200,
    "editComment",
  );
  expectStatus(
    (
      await api.DELETE("/api/v1/pages/{pageId}/comments/{commentId}", {
        params: { path: { pageId: other.id, commentId: reply.id } },
      })
    ).response,
    200,
    "deleteComment",
  );
  const resolved = must(
    (
      await api.PATCH("/api/v1/pages/{pageId}/comments/{threadId}/status", {
        params: { path: { pageId: other.id, threadId } },
        body: { status: "resolved" },
      })
    ).data,
    "setCommentThreadStatus",
  );
  if (resolved.thread.status !== "resolved") throw new Error("setCommentThreadStatus did not resolve");

  // Sharing: an existing account gets access at once (200); an address without one, an invitation (202).
  const entityType: "page" | "folder" = "page";
  const pagePath = { entityType, entityId: page.id };
  const bobEmail = must((await bob.GET("/api/v1/me")).data, "bob").email;
  const granted = must(
    (
      await api.POST("/api/v1/shares/entity/{entityType}/{entityId}/grants", {
        params: { path: pagePath },
        body: { email: bobEmail, permission: "view" },
      })
    ).data,
    "grantEntityAccess",
  );
  if (granted.invitation !== null) throw new Error("grantEntityAccess invited an existing account");

  // The people directory: bob, given the page, is found by the start of his address.
  const found = must(
    (await api.GET("/api/v1/users", { params: { query: { query: bobEmail.slice(0, 8) } } })).data,
    "findPeople",
  );
  if (!found.data.some((person) => person.id === bobId)) throw new Error("findPeople did not find bob");

  // Templates: the page marked as one, listed, and a new page made from it.
  must(
    (await api.PATCH("/api/v1/pages/{pageId}", { params: { path: { pageId: page.id } }, body: { isTemplate: true } }))
      .data,
    "updatePage isTemplate",
  );
  const templates = must((await api.GET("/api/v1/templates")).data, "listTemplates");
  if (!templates.data.some((template) => template.id === page.id))
    throw new Error("listTemplates did not list the template");
  const fromTemplate = must(
    (await api.POST("/api/v1/pages", { body: { templateId: page.id, title: "From the template", parentId: null } }))
      .data,
    "createPage from a template",
  );
  if (fromTemplate.unreachableMentions.length !== 0) throw new Error("createPage from a template reported mentions");

  // Watching: a page and a folder, and the settings that turn automatic watches off.
  must((await api.PUT("/api/v1/pages/{pageId}/watch", { params: { path: { pageId: page.id } } })).data, "watchPage");
  if (
    !must(
      (await api.GET("/api/v1/pages/{pageId}/watch", { params: { path: { pageId: page.id } } })).data,
      "getPageWatch",
    ).watching
  )
    throw new Error("getPageWatch: not watching");
  must(
    (await api.DELETE("/api/v1/pages/{pageId}/watch", { params: { path: { pageId: page.id } } })).data,
    "unwatchPage",
  );
  must(
    (await api.PUT("/api/v1/folders/{folderId}/watch", { params: { path: { folderId: folder.id } } })).data,
    "watchFolder",
  );
  must(
    (await api.GET("/api/v1/folders/{folderId}/watch", { params: { path: { folderId: folder.id } } })).data,
    "getFolderWatch",
  );
  must(
    (await api.DELETE("/api/v1/folders/{folderId}/watch", { params: { path: { folderId: folder.id } } })).data,
    "unwatchFolder",
  );
  must(
    (await api.PUT("/api/v1/me/notification-settings", { body: { autoWatch: false } })).data,
    "changeNotificationSettings",
  );
  if (must((await api.GET("/api/v1/me/notification-settings")).data, "getNotificationSettings").autoWatch)
    throw new Error("getNotificationSettings: still autoWatch");
  const invitedAddress = unknownAddress("invited");
  const invited = await api.POST("/api/v1/shares/entity/{entityType}/{entityId}/grants", {
    params: { path: pagePath },
    body: { email: invitedAddress, permission: "comment" },
  });
  expectStatus(invited.response, 202, "grantEntityAccess to an address without an account");
  const invitation = must(invited.data?.invitation, "the invitation");
  const secondAddress = unknownAddress("second");
  expectStatus(
    (
      await api.POST("/api/v1/shares/entity/{entityType}/{entityId}/grants", {
        params: { path: pagePath },
        body: { email: secondAddress, permission: "view" },
      })
    ).response,
    202,
    "a second invitation",
  );
  expectStatus(
    (await api.GET("/api/v1/shares/entity/{entityType}/{entityId}", { params: { path: pagePath } })).response,
    200,
    "getEntitySharing",
  );
  expectStatus(
    (
      await api.POST("/api/v1/shares/invitations/{invitationId}/resend", {
        params: { path: { invitationId: invitation.id } },
      })
    ).response,
    200,
    "resendInvitation",
  );
  expectStatus(
    (
      await api.POST("/api/v1/shares/entity/{entityType}/{entityId}/invitations/by-email/{email}/resend", {
        params: { path: { ...pagePath, email: secondAddress } },
      })
    ).response,
    200,
    "resendEntityInvitation",
  );
  expectStatus(
    (
      await api.DELETE("/api/v1/shares/invitations/{invitationId}", {
        params: { path: { invitationId: invitation.id } },
      })
    ).response,
    204,
    "cancelInvitation",
  );
  expectStatus(
    (
      await api.DELETE("/api/v1/shares/entity/{entityType}/{entityId}/grants/{userId}", {
        params: { path: { ...pagePath, userId: bobId } },
      })
    ).response,
    204,
    "revokeEntityAccess",
  );
  const member = must(
    (await api.POST("/api/v1/shares/workspace/members", { body: { email: bobEmail, role: "viewer" } })).data,
    "addWorkspaceMember",
  );
  if (member.memberId !== bobId) throw new Error("addWorkspaceMember did not add bob");
  const workspaceAddress = unknownAddress("member");
  expectStatus(
    (await api.POST("/api/v1/shares/workspace/members", { body: { email: workspaceAddress, role: "editor" } }))
      .response,
    202,
    "addWorkspaceMember of an address without an account",
  );
  expectStatus(
    (
      await api.POST("/api/v1/shares/workspace/invitations/by-email/{email}/resend", {
        params: { path: { email: workspaceAddress } },
      })
    ).response,
    200,
    "resendWorkspaceInvitation",
  );
  expectStatus((await api.GET("/api/v1/shares/workspace")).response, 200, "getWorkspaceSharing");
  expectStatus(
    (await api.DELETE("/api/v1/shares/workspace/members/{memberId}", { params: { path: { memberId: bobId } } }))
      .response,
    204,
    "removeWorkspaceMember",
  );

  // Groups: a member by account (200) or an address invited (202); a grant to the group; removal of each.
  const group = must((await api.POST("/api/v1/groups", { body: { name: "Editors" } })).data, "createGroup");
  const groupPath = { groupId: group.id };
  const groupMember = must(
    (await api.POST("/api/v1/groups/{groupId}/members", { params: { path: groupPath }, body: { email: bobEmail } }))
      .data,
    "addGroupMember",
  );
  if (groupMember.memberId !== bobId) throw new Error("addGroupMember did not add bob");
  expectStatus(
    (
      await api.POST("/api/v1/groups/{groupId}/members", {
        params: { path: groupPath },
        body: { email: unknownAddress("grouped") },
      })
    ).response,
    202,
    "addGroupMember of an address without an account",
  );
  expectStatus((await api.GET("/api/v1/groups")).response, 200, "listGroups");
  expectStatus((await api.GET("/api/v1/groups/{groupId}", { params: { path: groupPath } })).response, 200, "getGroup");
  expectStatus(
    (await api.GET("/api/v1/groups/{groupId}/history", { params: { path: groupPath } })).response,
    200,
    "getGroupHistory",
  );
  expectStatus(
    (await api.GET("/api/v1/groups/{groupId}/members", { params: { path: groupPath } })).response,
    200,
    "listGroupMembers",
  );
  expectStatus(
    (await api.PATCH("/api/v1/groups/{groupId}", { params: { path: groupPath }, body: { name: "Writers" } })).response,
    200,
    "renameGroup",
  );
  expectStatus(
    (
      await api.POST("/api/v1/shares/entity/{entityType}/{entityId}/grants", {
        params: { path: pagePath },
        body: { groupId: group.id, permission: "view" },
      })
    ).response,
    200,
    "grantEntityAccess to a group",
  );
  expectStatus(
    (
      await api.DELETE("/api/v1/shares/entity/{entityType}/{entityId}/groups/{groupId}", {
        params: { path: { ...pagePath, groupId: group.id } },
      })
    ).response,
    204,
    "revokeGroupAccess",
  );
  expectStatus(
    (await api.POST("/api/v1/shares/workspace/members", { body: { groupId: group.id, role: "editor" } })).response,
    200,
    "addWorkspaceMember: a role for a group",
  );
  expectStatus(
    (await api.DELETE("/api/v1/shares/workspace/groups/{groupId}", { params: { path: groupPath } })).response,
    204,
    "removeWorkspaceGroupRole",
  );
  expectStatus(
    (
      await api.DELETE("/api/v1/groups/{groupId}/members/{userId}", {
        params: { path: { ...groupPath, userId: bobId } },
      })
    ).response,
    204,
    "removeGroupMember",
  );
  expectStatus(
    (await api.DELETE("/api/v1/groups/{groupId}", { params: { path: groupPath } })).response,
    204,
    "deleteGroup",
  );

  // Import and export.
  const imported = must(
    (
      await api.POST("/api/v1/imports/obsidian", {
        body: {
          files: [
            { path: "Vault/Plan.md", content: "See [[Budget]]" },
            { path: "Vault/Budget.md", content: "Numbers" },
          ],
        },
      })
    ).data,
    "importObsidianVault",
  );
  if (imported.pagesCreated !== 2) throw new Error(`importObsidianVault created ${imported.pagesCreated} pages`);
  const vault = await api.GET("/api/v1/exports/obsidian", {
    params: { query: { folderId: projects.id } },
    parseAs: "arrayBuffer",
  });
  if (must(vault.data, "exportObsidianVault").byteLength === 0) throw new Error("exportObsidianVault answered nothing");

  // The change feed: a stream, opened and closed.
  const feed = await api.GET("/api/v1/changes", { parseAs: "stream" });
  expectStatus(feed.response, 200, "streamChanges");
  await feed.response.body?.cancel();

  // Webhooks, managed by a session.
  const webhook = must(
    (await browser.POST("/api/v1/webhooks", { body: { url: receiverUrl, events: ["*"] } })).data,
    "createWebhook",
  );
  if (webhook.secret.length === 0) throw new Error("createWebhook answered no secret");
  expectStatus((await browser.GET("/api/v1/webhooks")).response, 200, "listWebhooks");
  expectStatus(
    (await browser.GET("/api/v1/webhooks/{webhookId}", { params: { path: { webhookId: webhook.id } } })).response,
    200,
    "getWebhook",
  );
  const updated = must(
    (
      await browser.PATCH("/api/v1/webhooks/{webhookId}", {
        params: { path: { webhookId: webhook.id } },
        body: { description: "every operation" },
      })
    ).data,
    "updateWebhook",
  );
  if (updated.description !== "every operation") throw new Error("updateWebhook did not update");
  expectStatus(
    (await api.PATCH("/api/v1/pages/{pageId}", { params: { path: { pageId: copy.id } }, body: { icon: "📈" } }))
      .response,
    200,
    "a change to deliver",
  );
  const delivery = await until(
    async () => {
      const deliveries = await browser.GET("/api/v1/webhooks/{webhookId}/deliveries", {
        params: { path: { webhookId: webhook.id } },
      });
      return must(deliveries.data, "listWebhookDeliveries").data[0];
    },
    (found) => found !== undefined,
    "a delivery",
  );
  expectStatus(
    (
      await browser.POST("/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry", {
        params: { path: { webhookId: webhook.id, deliveryId: delivery.id } },
      })
    ).response,
    202,
    "retryWebhookDelivery",
  );
  expectStatus(
    (
      await browser.POST("/api/v1/webhooks/{webhookId}/replay", {
        params: { path: { webhookId: webhook.id } },
        body: { after: "0" },
      })
    ).response,
    202,
    "replayWebhook",
  );
  expectStatus(
    (await browser.DELETE("/api/v1/webhooks/{webhookId}", { params: { path: { webhookId: webhook.id } } })).response,
    204,
    "deleteWebhook",
  );

  // Deletion to the trash, listed there, and back.
  expectStatus(
    (await api.DELETE("/api/v1/pages/{pageId}", { params: { path: { pageId: copy.id } } })).response,
    204,
    "deletePage",
  );
  expectStatus(
    (
      await api.DELETE("/api/v1/folders/{folderId}", {
        params: { path: { folderId: archive.id }, query: { recursive: "true" } },
      })
    ).response,
    204,
    "deleteFolder",
  );
  const trash = must((await api.GET("/api/v1/trash")).data, "listTrash");
  if (!trash.data.some((item) => item.id === copy.id)) throw new Error("the deleted page is not in the trash");
  const back = must(
    (await api.POST("/api/v1/trash/{type}/{id}/restore", { params: { path: { type: "page", id: copy.id } } })).data,
    "restoreFromTrash",
  );
  if (back.id !== copy.id || annId.length === 0) throw new Error("restoreFromTrash restored another item");
  const doomed = must((await api.POST("/api/v1/pages", { body: { title: "To be purged" } })).data, "a page to purge");
  expectStatus(
    (await api.DELETE("/api/v1/pages/{pageId}", { params: { path: { pageId: doomed.id } } })).response,
    204,
    "deletePage before a purge",
  );
  expectStatus(
    (await api.DELETE("/api/v1/trash/{type}/{id}", { params: { path: { type: "page", id: doomed.id } } })).response,
    204,
    "purgeFromTrash",
  );

  // Last: bob erases his account (a session, and his address to confirm it).
  expectStatus((await bob.DELETE("/api/v1/me", { body: { confirm: bobEmail } })).response, 204, "eraseAccount");
}
