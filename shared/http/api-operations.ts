// What each operation of the API reference says beyond its zod schemas: its operationId, a summary, the error
// codes its shape does not imply, example bodies, media types and the conditional headers it takes. One entry a
// route, keyed by method and OpenAPI path; shared/http/api-reference.ts turns them into the document.
import type { ErrorCode } from "../errors/app-error.ts";

export interface Operation {
  /** The operationId: what a generated client names the call. */
  readonly id: string;
  readonly summary: string;
  /** Codes beyond those the route's shape implies (see `errorCodes` in api-reference.ts). */
  readonly errors?: readonly ErrorCode[];
  /** An example request body, shown in the reference. */
  readonly example?: unknown;
  /** The media types of the success answer when it is not JSON (the bytes of a page or an image, a stream). */
  readonly produces?: readonly string[];
  /** The media types the request body may have when JSON is not the only one. */
  readonly consumes?: readonly string[];
  /** Takes If-Match with the page's ETag (412 when it moved on); `required`: 428 without it. */
  readonly ifMatch?: "required" | "optional";
  /** A multipart body's file parts and the media types each takes (its `encoding`). */
  readonly parts?: Readonly<Record<string, string>>;
  /** Answers 202 `accepted` for work queued, not a write's 202 with its record (no X-Read-Side). */
  readonly accepted?: true;
  /** Answers an ETag, and 304 to an If-None-Match that holds it. */
  readonly conditional?: true;
  /** Takes a Last-Event-ID to resume from. */
  readonly resumable?: true;
  /** Takes one byte range (Range, If-Range) and answers 206 with Content-Range. */
  readonly ranged?: true;
  /** Answers a redirect (302 Found or 303 See Other): what its Location names, and the cookie it may set. */
  readonly redirect?: { readonly location: string; readonly cookie: string };
  /** What the Location header of its 201 (and of a 202 that creates) names, and its path (shared/http/locations.ts). */
  readonly location?: string;
  /** Writes markdown and answers the page's: the mentions of the text sent that reach nobody come as a header. */
  readonly mentions?: true;
}

const IDEMPOTENT: readonly ErrorCode[] = ["idempotency_key_mismatch"];
/** Where a share that became an invitation (the address has no account yet) can be followed. */
const INVITATION_LOCATION =
  "On the 202 of an invitation, the invitation: `/api/v1/shares/invitations/{invitationId}` (cancelled there with DELETE)";

/** Keyed by method and OpenAPI path; the test fails when a registered route has no entry. */
export const operations: Record<string, Operation> = {
  "GET /healthz": { id: "getHealth", summary: "The process answers" },
  "GET /favicon.ico": {
    id: "getFavicon",
    summary: "The site's icon: none, answered 204 with a day's caching, so browsers stop asking",
  },
  "GET /readyz": { id: "getReadiness", summary: "Stores reachable and the read models caught up (503 otherwise)" },
  "GET /metrics": {
    id: "getMetrics",
    summary: "Prometheus metrics (not served through the gateway)",
    produces: ["text/plain"],
  },
  "POST /api/v1/tokens": {
    id: "createToken",
    summary: "Create an API token (its secret appears only in this answer)",
    errors: ["quota_exceeded"],
    location: "The new token: `/api/v1/tokens/{tokenId}` (revoked there with DELETE; listed by GET /api/v1/tokens)",
    example: { name: "CI publisher", scopes: ["pages:read", "pages:write"], expiresAt: null },
  },
  "GET /api/v1/tokens": { id: "listTokens", summary: "List the caller's API tokens" },
  "DELETE /api/v1/tokens/{tokenId}": { id: "revokeToken", summary: "Revoke an API token" },
  "GET /api/v1/apps": { id: "listApps", summary: "List the apps the caller authorized through OAuth" },
  "DELETE /api/v1/apps/{appId}": {
    id: "revokeApp",
    summary: "Revoke an app's authorization: its tokens stop working at once",
  },
  "DELETE /api/v1/me": {
    id: "eraseAccount",
    summary:
      "Erase the caller's account for good: identity unreadable everywhere, own workspace purged (body repeats the email)",
    example: { confirm: "ann@example.com" },
  },
  "POST /api/v1/webhooks": {
    id: "createWebhook",
    summary: "Create a webhook (its signing secret appears only in this answer)",
    location: "The new webhook: `/api/v1/webhooks/{webhookId}`",
    example: {
      url: "https://hooks.example.com/workspace",
      events: ["page.created", "page.updated"],
      description: "search indexer",
      folderId: null,
    },
    errors: ["quota_exceeded"],
  },
  "GET /api/v1/webhooks": { id: "listWebhooks", summary: "List the caller's webhooks, newest first" },
  "GET /api/v1/webhooks/{webhookId}": { id: "getWebhook", summary: "Read a webhook (active, or why it was disabled)" },
  "PATCH /api/v1/webhooks/{webhookId}": {
    id: "updateWebhook",
    summary: "Change a webhook's URL, events, description or whether it is active",
    example: { active: false },
  },
  "DELETE /api/v1/webhooks/{webhookId}": { id: "deleteWebhook", summary: "Delete a webhook" },
  "GET /api/v1/webhooks/{webhookId}/deliveries": {
    id: "listWebhookDeliveries",
    summary: "A webhook's delivery log, newest first (kept 7 days by default)",
  },
  "POST /api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry": {
    id: "retryWebhookDelivery",
    summary: "Send a delivery again, with the same webhook-id",
    accepted: true,
  },
  "POST /api/v1/webhooks/{webhookId}/replay": {
    id: "replayWebhook",
    summary: "Deliver again every matching event after a position (a consistency token)",
    example: { after: "1042" },
    accepted: true,
    errors: ["quota_exceeded"],
  },
  "GET /api/v1/me": { id: "getMe", summary: "The current user and how they authenticated" },
  "GET /api/v1/pages": { id: "listPages", summary: "List the pages the caller can see, most recently updated first" },
  "POST /api/v1/pages": {
    id: "createPage",
    summary:
      "Create a page, or one from a template (templateId: placeholders filled); the answer lists the mentions that reach nobody",
    errors: IDEMPOTENT,
    location: "The new page: `/api/v1/pages/{pageId}`",
    example: { title: "Release checklist", markdown: "# Release checklist\n\n- [ ] tag the build", parentId: null },
  },
  "GET /api/v1/search": {
    id: "searchPages",
    summary: "Full-text search of the pages the caller can see: title matches first, with a marked snippet",
    errors: ["too_many_tasks", "unavailable"],
  },
  "GET /api/v1/pages/resolve": { id: "resolvePages", summary: "Find pages by exact title (case-insensitive)" },
  "GET /api/v1/pages/{pageId}": { id: "getPage", summary: "Read a page's record (as of an earlier instant with ?at=)" },
  "GET /api/v1/pages/{pageId}/history": {
    id: "getPageHistory",
    summary: "A page's changes, with who made them (sharing changes only for those who may share)",
  },
  "GET /api/v1/pages/{pageId}/diff": {
    id: "getPageDiff",
    summary:
      "The change between two instants of a page: a unified diff (text/x-diff), or JSON hunks with Accept: application/json; title and icon changes too",
    errors: ["diff_too_large", "too_many_tasks"],
    produces: ["text/x-diff", "application/json"],
  },
  "POST /api/v1/pages/{pageId}/restore": {
    id: "restorePage",
    summary: "Restore a page's title, icon and content to an earlier instant (If-Match)",
    errors: ["precondition_failed", "precondition_required"],
    ifMatch: "required",
    produces: ["text/markdown"],
    example: { at: "2026-11-01T09:30:00Z" },
  },
  "GET /api/v1/changes": {
    id: "streamChanges",
    summary:
      "Live change feed (Server-Sent Events) of the pages, folders, threads and groups the caller can see; resume with Last-Event-ID",
    produces: ["text/event-stream"],
    resumable: true,
  },
  "GET /api/v1/folders/{folderId}/history": {
    id: "getFolderHistory",
    summary: "A folder's changes, with who made them (sharing changes only for those who may share)",
  },
  "PATCH /api/v1/pages/{pageId}": {
    id: "updatePage",
    summary: "Rename a page, change its icon, and/or mark it as a template (isTemplate)",
    example: { title: "Release checklist (v2)" },
  },
  "DELETE /api/v1/pages/{pageId}": { id: "deletePage", summary: "Delete a page" },
  "POST /api/v1/pages/{pageId}/images": {
    id: "uploadImage",
    summary: "Upload an image to a page (JPEG, PNG, GIF or WebP, at most 10 MB); answers its record and markdown",
    errors: [...IDEMPOTENT, "payload_too_large", "unsupported_media_type", "quota_exceeded"],
    parts: { file: "image/jpeg, image/png, image/gif, image/webp" },
    location: "The new image's bytes: `/api/v1/images/{imageId}`",
  },
  "POST /api/v1/pages/{pageId}/attachments": {
    id: "uploadAttachment",
    summary:
      "Attach a file of any type to a page (at most ATTACHMENT_MAX_BYTES, 50 MB by default; streamed, 413 as soon as it passes the limit; counted in the page owner's stored bytes, QUOTA_BLOB_BYTES_PER_OWNER, 409 quota_exceeded past it); answers its record and the markdown link to insert",
    errors: [...IDEMPOTENT, "payload_too_large", "unsupported_media_type", "quota_exceeded"],
    location: "The new attachment's bytes: `/api/v1/attachments/{attachmentId}`",
  },
  "GET /api/v1/pages/{pageId}/attachments": {
    id: "listAttachments",
    summary: "A page's attachments, newest first, for whoever may view the page",
  },
  "DELETE /api/v1/pages/{pageId}/attachments/{attachmentId}": {
    id: "deleteAttachment",
    summary: "Remove an attachment from a page (recorded in the page's history; its bytes go when the page is purged)",
  },
  "GET /api/v1/attachments/{attachmentId}": {
    id: "getAttachment",
    summary:
      "An attachment's bytes, for whoever may view its page: PDFs, audio, video and raster images inline, anything a browser could run (HTML, SVG, XML, scripts, unknown types) as application/octet-stream to download; nosniff and a sandboxing CSP always; one Range answered 206 (416 past the end); ETag from the SHA-256, If-None-Match",
    // The type sniffed from the bytes (or the name), whatever it is: any media type may answer.
    produces: ["*/*"],
    conditional: true,
    ranged: true,
    errors: ["range_not_satisfiable"],
  },
  "POST /api/v1/imports/obsidian": {
    id: "importObsidianVault",
    summary:
      "Import an Obsidian vault, as JSON files or a zip (the export as it is, or a zipped vault), into the caller's root or a folder: notes become pages in folders, other files attachments of the notes linking them, wikilinks and embeds are rewritten; the same vault imported into the same place again updates what it made",
    errors: [...IDEMPOTENT, "not_found", "forbidden", "quota_exceeded", "too_many_tasks"],
    consumes: ["application/json", "application/zip"],
    example: {
      files: [
        { path: "Projects/Plan.md", content: "---\ntitle: The plan\n---\nSee [[Budget]] and ![[chart.png]]" },
        { path: "Projects/Budget.md", content: "Numbers" },
      ],
    },
  },
  "GET /api/v1/exports/obsidian": {
    id: "exportObsidianVault",
    summary:
      "Export the caller's workspace, or one folder, as an Obsidian vault: a zip of notes, images and attached files, streamed",
    produces: ["application/zip"],
    errors: ["rate_limited", "too_many_tasks"],
  },
  "GET /api/v1/images/{imageId}": {
    id: "getImage",
    summary: "An uploaded image's bytes, for whoever may view its page (ETag, If-None-Match)",
    produces: ["image/jpeg", "image/png", "image/gif", "image/webp"],
    conditional: true,
  },
  "GET /api/v1/pages/{pageId}/content": {
    id: "getPageContent",
    summary: "Read a page's markdown, with its ETag (as of an earlier instant with ?at=)",
    produces: ["text/markdown"],
    conditional: true,
  },
  "POST /api/v1/pages/{pageId}/move": {
    id: "movePage",
    summary: "Move a page into a folder of its workspace, or to its root (null)",
    example: { parentId: null },
  },
  "PUT /api/v1/pages/{pageId}/content": {
    id: "replacePageContent",
    summary: "Replace a page's markdown (If-Match with the ETag read)",
    ifMatch: "required",
    produces: ["text/markdown"],
    mentions: true,
    consumes: ["text/markdown", "text/plain", "application/json"],
    errors: ["precondition_failed", "precondition_required"],
    example: { markdown: "# Release checklist\n\n- [x] tag the build" },
  },
  "PATCH /api/v1/pages/{pageId}/content": {
    id: "appendPageContent",
    summary:
      "Append or prepend to a page's markdown without reading it first (If-Match optional); answers the new content and ETag",
    errors: ["precondition_failed"],
    ifMatch: "optional",
    produces: ["text/markdown"],
    mentions: true,
    example: { append: "\n- 09:30 deploy finished" },
  },
  "POST /api/v1/pages/{pageId}/duplicate": {
    id: "duplicatePage",
    summary:
      "Duplicate a page: same markdown and icon, its images and attachments copied, no comments, history starting at the copy",
    errors: [...IDEMPOTENT, "quota_exceeded"],
    location: "The copy: `/api/v1/pages/{pageId}`",
    example: { title: "Release checklist (v3)", parentId: null },
  },
  "GET /api/v1/templates": {
    id: "listTemplates",
    summary: "The templates the caller can view, newest marked first (mark one with PATCH /pages/{pageId} isTemplate)",
  },
  "PUT /api/v1/pages/{pageId}/watch": {
    id: "watchPage",
    summary: "Watch a page (view permission): its changes will notify you",
  },
  "DELETE /api/v1/pages/{pageId}/watch": {
    id: "unwatchPage",
    summary: "Stop watching a page, also as its author or commenter and below a watched folder",
  },
  "GET /api/v1/pages/{pageId}/watch": { id: "getPageWatch", summary: "Whether the caller watches a page" },
  "PUT /api/v1/folders/{folderId}/watch": {
    id: "watchFolder",
    summary: "Watch a folder and everything below it (view permission)",
  },
  "DELETE /api/v1/folders/{folderId}/watch": { id: "unwatchFolder", summary: "Stop watching a folder" },
  "GET /api/v1/folders/{folderId}/watch": { id: "getFolderWatch", summary: "Whether the caller watches a folder" },
  "GET /api/v1/me/notification-settings": {
    id: "getNotificationSettings",
    summary: "The caller's notification settings",
  },
  "PUT /api/v1/me/notification-settings": {
    id: "changeNotificationSettings",
    summary: "Change the caller's notification settings (only the fields sent)",
    example: { autoWatch: false },
  },
  "GET /api/v1/users": {
    id: "findPeople",
    summary:
      "People who share a workspace with the caller, by the start of a name or (where already shown to you) an address",
  },
  "GET /api/v1/pages/{pageId}/backlinks": {
    id: "listBacklinks",
    summary: "The pages the caller can view whose markdown links to this page, newest link first",
  },
  "GET /api/v1/trash": {
    id: "listTrash",
    summary: "Deleted pages and folders the caller could edit, newest deletion first, with when each is purged",
  },
  "POST /api/v1/trash/{type}/{id}/restore": {
    id: "restoreFromTrash",
    summary: "Bring a deleted page or folder (with what was deleted with it) back, into its folder or its owner's root",
  },
  "DELETE /api/v1/trash/{type}/{id}": {
    id: "purgeFromTrash",
    summary:
      "Purge a deleted page or folder (with what was deleted with it) at once, its owner only: its content is erased for good, from the log too",
  },
  "GET /api/v1/pages/{pageId}/comments": { id: "listCommentThreads", summary: "List a page's comment threads" },
  "POST /api/v1/pages/{pageId}/comments": {
    id: "createCommentThread",
    summary: "Open a comment thread on a quote",
    errors: IDEMPOTENT,
    location:
      "The thread's first comment: `/api/v1/pages/{pageId}/comments/{commentId}` (edited and deleted there; read with the page's threads)",
    example: { body: "Should this step come first?", anchor: { quote: "tag the build", prefix: "- [ ] ", suffix: "" } },
  },
  "POST /api/v1/pages/{pageId}/comments/{threadId}/replies": {
    id: "replyToCommentThread",
    summary: "Reply in a comment thread",
    errors: IDEMPOTENT,
    location:
      "The new reply: `/api/v1/pages/{pageId}/comments/{commentId}` (edited and deleted there; read with the page's threads)",
    example: { body: "Yes, moved it." },
  },
  "PATCH /api/v1/pages/{pageId}/comments/{threadId}/status": {
    id: "setCommentThreadStatus",
    summary: "Resolve or reopen a comment thread",
    example: { status: "resolved" },
  },
  "PATCH /api/v1/pages/{pageId}/comments/{commentId}": {
    id: "editComment",
    summary: "Edit one's own comment",
    example: { body: "Should this step come first? (edited)" },
  },
  "DELETE /api/v1/pages/{pageId}/comments/{commentId}": { id: "deleteComment", summary: "Delete one's own comment" },
  "GET /api/v1/folders": { id: "listFolders", summary: "List the folders the caller can see" },
  "GET /api/v1/folders/{folderId}": { id: "getFolder", summary: "Read a folder's record" },
  "PATCH /api/v1/folders/{folderId}": {
    id: "updateFolder",
    summary: "Rename a folder and/or change its icon",
    example: { name: "Runbooks (old)" },
  },
  "POST /api/v1/folders/{folderId}/move": {
    id: "moveFolder",
    summary: "Move a folder within its workspace (never into itself or below itself)",
    example: { parentId: null },
  },
  "DELETE /api/v1/folders/{folderId}": {
    id: "deleteFolder",
    summary: "Delete an empty folder, or with ?recursive=true the folder and everything below it, to the trash",
  },
  "POST /api/v1/folders": {
    id: "createFolder",
    summary: "Create a folder",
    errors: IDEMPOTENT,
    location: "The new folder: `/api/v1/folders/{folderId}`",
    example: { name: "Runbooks", parentId: null },
  },
  "GET /api/v1/shares/workspace": {
    id: "getWorkspaceSharing",
    summary: "Workspace sharing: members, pending invitations, workspaces joined",
  },
  "POST /api/v1/shares/workspace/members": {
    id: "addWorkspaceMember",
    summary:
      "Add a member to the caller's workspace (or invite an address without an account, 202), or give one of its groups a role",
    errors: IDEMPOTENT,
    location: INVITATION_LOCATION,
    example: { email: "ada@example.com", role: "viewer" },
  },
  "DELETE /api/v1/shares/workspace/members/{memberId}": {
    id: "removeWorkspaceMember",
    summary: "Remove a member from the caller's workspace",
  },
  "GET /api/v1/shares/entity/{entityType}/{entityId}": {
    id: "getEntitySharing",
    summary: "Who has access to a page or folder",
  },
  "POST /api/v1/shares/entity/{entityType}/{entityId}/grants": {
    id: "grantEntityAccess",
    summary:
      "Share a page or folder by email (or invite an address without an account, 202), or with a group by its id",
    errors: IDEMPOTENT,
    location: INVITATION_LOCATION,
    example: { email: "ada@example.com", permission: "view" },
  },
  "DELETE /api/v1/shares/entity/{entityType}/{entityId}/grants/{userId}": {
    id: "revokeEntityAccess",
    summary: "Revoke a user's access to a page or folder",
  },
  "DELETE /api/v1/shares/workspace/groups/{groupId}": {
    id: "removeWorkspaceGroupRole",
    summary: "Take a group's workspace role away: its members keep only their own roles",
  },
  "DELETE /api/v1/shares/entity/{entityType}/{entityId}/groups/{groupId}": {
    id: "revokeGroupAccess",
    summary: "Revoke a group's access to a page or folder: its members lose what it gave at once",
  },
  "POST /api/v1/groups": {
    id: "createGroup",
    summary: "Create a group in the caller's workspace",
    errors: IDEMPOTENT,
    location: "The new group: `/api/v1/groups/{groupId}`",
    example: { name: "Editors" },
  },
  "GET /api/v1/groups": {
    id: "listGroups",
    summary: "The groups of the workspaces the caller owns or administers, and the groups they belong to, newest first",
  },
  "GET /api/v1/groups/{groupId}": {
    id: "getGroup",
    summary: "Read a group (its workspace's owner and admins, and its members; 404 to anyone else)",
  },
  "PATCH /api/v1/groups/{groupId}": { id: "renameGroup", summary: "Rename a group", example: { name: "Writers" } },
  "DELETE /api/v1/groups/{groupId}": {
    id: "deleteGroup",
    summary: "Delete a group: what it was given is taken from its members at once",
  },
  "GET /api/v1/groups/{groupId}/history": {
    id: "getGroupHistory",
    summary: "A group's changes (created, renamed, members added and removed, role), for those who see the group",
  },
  "GET /api/v1/groups/{groupId}/members": {
    id: "listGroupMembers",
    summary: "A group's members, in the order they joined (email shown to the group's managers only)",
  },
  "POST /api/v1/groups/{groupId}/members": {
    id: "addGroupMember",
    summary: "Add someone to a group by email, or invite an address without an account (202)",
    errors: IDEMPOTENT,
    location: INVITATION_LOCATION,
    example: { email: "ada@example.com" },
  },
  "DELETE /api/v1/groups/{groupId}/members/{userId}": {
    id: "removeGroupMember",
    summary: "Remove a member from a group (a member may remove themselves): they lose what it gave at once",
  },
  "POST /api/v1/shares/workspace/invitations/by-email/{email}/resend": {
    id: "resendWorkspaceInvitation",
    summary: "Resend a pending workspace invitation",
  },
  "POST /api/v1/shares/entity/{entityType}/{entityId}/invitations/by-email/{email}/resend": {
    id: "resendEntityInvitation",
    summary: "Resend a pending page or folder invitation",
  },
  "POST /api/v1/shares/invitations/{invitationId}/resend": {
    id: "resendInvitation",
    summary: "Resend an invitation by its id",
  },
  "DELETE /api/v1/shares/invitations/{invitationId}": {
    id: "cancelInvitation",
    summary: "Cancel a pending invitation",
  },
  "POST /api/v1/pages/{pageId}/share-links": {
    id: "createPageShareLink",
    summary: "Create a public share link of a page (its url, with the secret, appears only in this answer)",
    location: "The new link: `/api/v1/share-links/{linkId}` (changed with PATCH, revoked with DELETE)",
    example: { expiresAt: "2026-12-31T23:59:59Z", password: "correct horse battery staple", allowIndexing: false },
  },
  "POST /api/v1/folders/{folderId}/share-links": {
    id: "createFolderShareLink",
    summary:
      "Create a public share link of a folder: its pages and sub-folders as they are now (the url appears only in this answer)",
    location: "The new link: `/api/v1/share-links/{linkId}` (changed with PATCH, revoked with DELETE)",
    example: { expiresAt: null, password: null, allowIndexing: false },
  },
  "GET /api/v1/share-links": {
    id: "listShareLinks",
    summary: "The caller's share links, or with entityType and entityId those of a page or folder the caller may share",
  },
  "GET /api/v1/share-links/{linkId}": {
    id: "getShareLink",
    summary: "A share link's record: settings, views and last view (never its secret)",
  },
  "PATCH /api/v1/share-links/{linkId}": {
    id: "changeShareLink",
    summary: "Change a share link's expiry, password (null removes it) or indexing",
    example: { expiresAt: null, password: null },
  },
  "DELETE /api/v1/share-links/{linkId}": {
    id: "revokeShareLink",
    summary: "Revoke a share link: its public address answers 404 at once",
  },
  "GET /api/v1/notifications": {
    id: "listNotifications",
    summary:
      "The caller's notifications, newest change first (unread=true: unread only), with the unread count; those about what the caller can no longer view are left out",
  },
  "GET /api/v1/audit": {
    id: "listAuditEntries",
    summary:
      "A workspace's audit trail, newest first, filtered by actor, kind and instants (its owner and admins; 404 to anyone else)",
    errors: ["not_found"],
  },
  "POST /api/v1/notifications/read": {
    id: "markNotificationsRead",
    summary: "Mark the caller's notifications read, by id or all at once",
    example: { all: true },
  },
  "GET /api/v1/notifications/unsubscribe": {
    id: "showNotificationUnsubscribe",
    summary:
      "The page a notification email's unsubscribe link opens: a button that unsubscribes (no sign-in: the signed token is the authority)",
    // Like every read, it waits for the read models to reach an X-Consistency-Token it is sent.
    errors: ["validation_failed", "not_found", "consistency_timeout"],
    produces: ["text/html"],
  },
  "POST /api/v1/notifications/unsubscribe": {
    id: "unsubscribeFromNotificationEmails",
    summary:
      "One-click unsubscribe (RFC 8058) with the token of a notification email's link: that kind's emails (a digest's link: every kind's) go to the inbox only",
    errors: ["validation_failed", "not_found"],
    produces: ["text/html"],
    consumes: ["application/x-www-form-urlencoded"],
    example: "List-Unsubscribe=One-Click",
  },
  "GET /s/{secret}": {
    id: "viewSharedPage",
    summary:
      "The public page of a share link (HTML, or the markdown with Accept: text/markdown); 401 with a password form when protected",
    produces: ["text/html", "text/markdown"],
    errors: ["too_many_tasks"],
  },
  "POST /s/{secret}": {
    id: "unlockSharedPage",
    summary:
      "The password form of a protected share link (a form, or JSON): with the right password, a cookie that unlocks the link for 12 hours and a redirect (303) to its page",
    redirect: {
      location: "The link's page, `/s/{secret}`",
      cookie:
        "`share_unlock`, scoped to the link's path, HttpOnly, SameSite=Strict, for 12 hours: sent when the password matched, not for a link without one",
    },
  },
  "GET /auth/login": {
    id: "signIn",
    summary:
      "Start signing in through the organisation's OpenID provider (served where OIDC_ISSUER is set): a redirect to it, and back to returnTo once signed in",
    redirect: {
      location:
        "The OpenID provider's authorization endpoint (an absolute URL), asking for a code with PKCE (S256), state and nonce",
      cookie:
        "`app-auth.sign_in`: this sign-in's state, nonce and PKCE verifier, signed, sent to /auth/callback only, HttpOnly, SameSite=Lax, for 10 minutes",
    },
  },
  "GET /auth/callback": {
    id: "finishSignIn",
    summary:
      "Where the OpenID provider sends the browser back (the redirect URI registered there): the code is redeemed, the ID token verified, the person registered on first sight",
    redirect: {
      location:
        "The returnTo given to /auth/login (a path on this server; the API reference, `/docs`, when none was given)",
      cookie:
        "The session, `app-auth.session_token`, Path=/, HttpOnly, SameSite=Lax, for 7 days; and `app-auth.sign_in` cleared",
    },
  },
  "GET /auth/link": {
    id: "signInWithLink",
    summary:
      "A one-time sign-in link printed by `npm run session -- --email EMAIL --name NAME --link`: works once, for 15 minutes",
    redirect: {
      location: "returnTo (a path on this server), or the API reference, `/docs`",
      cookie: "The session, `app-auth.session_token`, Path=/, HttpOnly, SameSite=Lax, for 7 days",
    },
  },
  "POST /auth/logout": {
    id: "signOut",
    summary: "Sign this browser out: the session cookie is cleared (refused when another site sends it)",
  },
  "GET /s/{secret}/pages/{pageId}": {
    id: "viewSharedFolderPage",
    summary: "A page of a folder's share link",
    produces: ["text/html", "text/markdown"],
    errors: ["too_many_tasks"],
  },
  "GET /s/{secret}/images/{imageId}": {
    id: "getSharedImage",
    summary: "An image of a page a share link shows",
    produces: ["image/jpeg", "image/png", "image/gif", "image/webp"],
  },
  "GET /s/{secret}/attachments/{attachmentId}": {
    id: "getSharedAttachment",
    summary:
      "An attached file of a page a share link shows, served as GET /api/v1/attachments/{attachmentId} serves it (anything a browser could run as a download; nosniff and a sandboxing CSP; one Range answered 206, 416 past the end; ETag, If-None-Match), never cached (no-store); the same 404 as the link's for an attachment of a page it does not show",
    produces: ["*/*"],
    conditional: true,
    ranged: true,
  },
};
