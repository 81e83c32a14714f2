import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type Reply, type TestUser } from "../../support/server.ts";
import { addMember, createFolder, createPage, share, unknownAddress } from "../../support/workspace-builders.ts";

const DAY = 24 * 60 * 60 * 1000;
let offsetMs = 0;
let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start({ clock: () => new Date(Date.now() + offsetMs) });
});
afterAll(async () => {
  await server.stop();
});

const registered = (label: string, email?: string): Promise<TestUser> =>
  server.registered(label, email ? { email } : {});

type Invitation = {
  id: string;
  targetType: string;
  targetId: string;
  email: string;
  permission: string;
  canManage: boolean;
  deliveryStatus: string;
  expiresAt: string;
  createdAt: string;
};
const invitationOf = (reply: Reply): Invitation => {
  expect(reply.status, reply.text).toBe(202);
  return reply.body.invitation as Invitation;
};
const pendingOn = async (owner: TestUser, type: "page" | "folder", id: string) =>
  (await owner.get(`/shares/entity/${type}/${id}`)).body.pendingInvitations as Invitation[];
const resendById = (client: TestUser, id: string) => client.post(`/shares/invitations/${id}/resend`);

describe("inviting an address without an account", () => {
  it("answers 202 with a pending invitation that expires in 7 days", async () => {
    const owner = await registered("owner");
    const pageId = await createPage(owner);
    const email = unknownAddress();
    const reply = await share(owner, "page", pageId, email, "comment");
    expect(reply.body).toMatchObject({ ok: true, message: expect.any(String) });
    const invitation = invitationOf(reply);
    expect(invitation).toMatchObject({
      targetType: "page",
      targetId: pageId,
      email,
      permission: "comment",
      canManage: true,
      deliveryStatus: expect.stringMatching(/^(pending|sent)$/),
    });
    expect(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)).toBe(7 * DAY);
  });

  it("inviting the same address again changes the permission of the one pending invitation", async () => {
    const owner = await registered("owner");
    const folderId = await createFolder(owner);
    const email = unknownAddress();
    const first = invitationOf(await share(owner, "folder", folderId, email, "view"));
    const second = invitationOf(await share(owner, "folder", folderId, email.toUpperCase(), "edit"));
    expect(second.id).toBe(first.id);
    expect(second.permission).toBe("edit");
    expect(await pendingOn(owner, "folder", folderId)).toEqual([
      expect.objectContaining({ id: first.id, permission: "edit" }),
    ]);
  });

  it("only the owner invites as admin", async () => {
    const owner = await registered("owner");
    const admin = await registered("admin");
    const pageId = await createPage(owner);
    await share(owner, "page", pageId, admin.email, "admin");
    expect((await share(admin, "page", pageId, unknownAddress(), "admin")).status).toBe(403);
    expect((await share(admin, "page", pageId, unknownAddress(), "edit")).status).toBe(202);
    expect((await share(owner, "page", pageId, unknownAddress(), "admin")).status).toBe(202);
  });
});

describe("registration accepts the address's pending invitations", () => {
  it("the access applies on the registering request itself, whatever the case of the address", async () => {
    const owner = await registered("owner");
    const folderId = await createFolder(owner);
    const pageId = await createPage(owner, { parentId: folderId });
    const otherPage = await createPage(owner);
    const email = unknownAddress("Newcomer");
    const folderInvitation = invitationOf(await share(owner, "folder", folderId, email, "edit"));
    invitationOf(await share(owner, "page", otherPage, email.toLowerCase(), "view"));

    const newcomer = await server.signIn("newcomer", { email: email.toUpperCase() });
    const pages = await newcomer.get("/pages");
    expect(pages.status).toBe(200);
    const listed = pages.body.data as { id: string; permission: string }[];
    expect(listed.map((page) => [page.id, page.permission]).sort()).toEqual(
      [
        [otherPage, "view"],
        [pageId, "edit"],
      ].sort(),
    );

    expect(await pendingOn(owner, "folder", folderId)).toEqual([]);
    expect((await owner.get(`/shares/entity/folder/${folderId}`)).body.grants).toEqual([
      expect.objectContaining({ userId: newcomer.id, permission: "edit" }),
    ]);
    const again = await resendById(owner, folderInvitation.id);
    expect(again.status).toBe(409);
    expect(again.body.error?.code).toBe("conflict");
  });

  it("a workspace invitation makes the newcomer a member", async () => {
    const owner = await registered("owner");
    const pageId = await createPage(owner);
    const email = unknownAddress();
    invitationOf(await addMember(owner, email, "commenter"));
    const newcomer = await server.signIn("newcomer", { email });
    expect((await newcomer.get(`/pages/${pageId}`)).body.permission).toBe("comment");
    const workspace = await owner.get("/shares/workspace");
    expect(workspace.body.pendingInvitations).toEqual([]);
    expect(workspace.body.members).toEqual([
      expect.objectContaining({ memberId: newcomer.id, memberEmail: email, role: "commenter" }),
    ]);
  });

  it("an expired invitation gives nothing", async () => {
    const owner = await registered("owner");
    const pageId = await createPage(owner);
    const email = unknownAddress();
    const invitation = invitationOf(await share(owner, "page", pageId, email, "edit"));
    offsetMs = 8 * DAY;
    try {
      const late = await server.signIn("late", { email });
      expect((await late.get(`/pages/${pageId}`)).status).toBe(404);
      const history = (await server.internals.eventStore.read(`invitation-${invitation.id}`)).events;
      // The notifier's records of its delivery attempt race with the sign-in; the invitation's fate is the point.
      const fate = history
        .map((event) => event.type)
        .filter((type) => type !== "InvitationDeliveryStarted" && type !== "InvitationDelivered");
      expect(fate).toEqual(["InvitationQueued", "InvitationExpired"]);
    } finally {
      offsetMs = 0;
    }
  });
});

describe("resending an invitation", () => {
  it("by id re-queues delivery and answers {invitation, message}; a second resend within a minute is 429 with Retry-After", async () => {
    const owner = await registered("owner");
    const pageId = await createPage(owner);
    const invitation = invitationOf(await share(owner, "page", pageId, unknownAddress(), "view"));
    const resent = await resendById(owner, invitation.id);
    expect(resent.status).toBe(200);
    expect(resent.body).toEqual({
      invitation: expect.objectContaining({
        id: invitation.id,
        deliveryStatus: expect.stringMatching(/^(pending|sent)$/),
        canManage: true,
      }),
      message: expect.any(String),
    });
    const limited = await resendById(owner, invitation.id);
    expect(limited.status).toBe(429);
    expect(limited.body.error?.code).toBe("rate_limited");
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    offsetMs = 61_000;
    try {
      expect((await resendById(owner, invitation.id)).status).toBe(200);
    } finally {
      offsetMs = 0;
    }
  });

  it("by entity and address, matching the address case-insensitively", async () => {
    const owner = await registered("owner");
    const folderId = await createFolder(owner);
    const email = unknownAddress();
    const invitation = invitationOf(await share(owner, "folder", folderId, email, "view"));
    const resent = await owner.post(
      `/shares/entity/folder/${folderId}/invitations/by-email/${encodeURIComponent(email.toUpperCase())}/resend`,
    );
    expect(resent.status).toBe(200);
    expect((resent.body.invitation as Invitation).id).toBe(invitation.id);
    expect(
      (await owner.post(`/shares/entity/folder/${folderId}/invitations/by-email/${unknownAddress()}/resend`)).status,
    ).toBe(404);
    expect(
      (await owner.post(`/shares/entity/folder/${folderId}/invitations/by-email/not-an-email/resend`)).status,
    ).toBe(400);
    expect((await owner.post(`/shares/entity/workspace/${folderId}/invitations/by-email/${email}/resend`)).status).toBe(
      400,
    );
  });

  it("by workspace address", async () => {
    const owner = await registered("owner");
    const email = unknownAddress();
    const invitation = invitationOf(await addMember(owner, email, "viewer"));
    const resent = await owner.post(`/shares/workspace/invitations/by-email/${email}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body.invitation).toMatchObject({
      id: invitation.id,
      targetType: "workspace",
      targetId: owner.id,
      permission: "viewer",
    });
    expect((await owner.post(`/shares/workspace/invitations/by-email/${unknownAddress()}/resend`)).status).toBe(404);
  });

  it("is 404 for an unknown invitation or one whose target the caller cannot see", async () => {
    const owner = await registered("owner");
    const stranger = await registered("stranger");
    const pageId = await createPage(owner);
    const invitation = invitationOf(await share(owner, "page", pageId, unknownAddress(), "view"));
    expect((await resendById(owner, crypto.randomUUID())).status).toBe(404);
    expect((await resendById(stranger, invitation.id)).status).toBe(404);
    expect(
      (await stranger.post(`/shares/entity/page/${pageId}/invitations/by-email/${invitation.email}/resend`)).status,
    ).toBe(404);
  });

  it("is 403 for those who can see the target but may not share it", async () => {
    const owner = await registered("owner");
    const editor = await registered("editor");
    const admin = await registered("admin");
    const member = await registered("member");
    const pageId = await createPage(owner);
    await share(owner, "page", pageId, editor.email, "edit");
    await share(owner, "page", pageId, admin.email, "admin");
    const invitation = invitationOf(await share(owner, "page", pageId, unknownAddress(), "view"));
    const adminInvitation = invitationOf(await share(owner, "page", pageId, unknownAddress(), "admin"));
    expect((await resendById(editor, invitation.id)).status).toBe(403);
    expect(
      (await editor.post(`/shares/entity/page/${pageId}/invitations/by-email/${invitation.email}/resend`)).status,
    ).toBe(403);
    expect((await resendById(admin, adminInvitation.id)).status).toBe(403);
    expect((await resendById(admin, invitation.id)).status).toBe(200);

    await addMember(owner, member.email, "admin");
    const workspaceInvitation = invitationOf(await addMember(owner, unknownAddress(), "viewer"));
    expect((await resendById(member, workspaceInvitation.id)).status).toBe(403);
  });

  it("is 409 once the invitation has expired", async () => {
    const owner = await registered("owner");
    const pageId = await createPage(owner);
    const invitation = invitationOf(await share(owner, "page", pageId, unknownAddress(), "view"));
    offsetMs = 7 * DAY;
    try {
      const reply = await resendById(owner, invitation.id);
      expect(reply.status).toBe(409);
      expect(reply.body.error?.message).toContain("expired");
      expect(await pendingOn(owner, "page", pageId)).toEqual([]);
    } finally {
      offsetMs = 0;
    }
  });

  it("an expired invitation is replaced by a new one when the address is invited again", async () => {
    const owner = await registered("owner");
    const pageId = await createPage(owner);
    const email = unknownAddress();
    const old = invitationOf(await share(owner, "page", pageId, email, "view"));
    offsetMs = 8 * DAY;
    try {
      const fresh = invitationOf(await share(owner, "page", pageId, email, "view"));
      expect(fresh.id).not.toBe(old.id);
      expect((await owner.post(`/shares/entity/page/${pageId}/invitations/by-email/${email}/resend`)).status).toBe(200);
    } finally {
      offsetMs = 0;
    }
  });
});

describe("cancelling an invitation", () => {
  it("removes it from the pending list; resending it then conflicts, and registering gives nothing", async () => {
    const owner = await registered("owner");
    const pageId = await createPage(owner);
    const email = unknownAddress();
    const invitation = invitationOf(await share(owner, "page", pageId, email, "edit"));
    expect((await owner.delete(`/shares/invitations/${invitation.id}`)).status).toBe(204);
    expect(await pendingOn(owner, "page", pageId)).toEqual([]);
    expect((await resendById(owner, invitation.id)).status).toBe(409);
    expect((await owner.delete(`/shares/invitations/${invitation.id}`)).status).toBe(409);
    const newcomer = await server.signIn("newcomer", { email });
    expect((await newcomer.get(`/pages/${pageId}`)).status).toBe(404);
  });
});

describe("concurrent invitations", () => {
  it("ten concurrent first invitations of one address to one page queue a single invitation", async () => {
    const owner = await registered("owner");
    const pageId = await createPage(owner);
    const email = unknownAddress();
    const replies = await Promise.all(Array.from({ length: 10 }, () => share(owner, "page", pageId, email, "view")));
    expect(replies.map((reply) => reply.status)).toEqual(Array.from({ length: 10 }, () => 202));
    const ids = new Set(replies.map((reply) => (reply.body.invitation as Invitation).id));
    expect(ids.size).toBe(1);
    expect((await pendingOn(owner, "page", pageId)).map((invitation) => invitation.id)).toEqual([...ids]);
  });
});
