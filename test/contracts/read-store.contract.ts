// The read-store contract: every adapter (SQLite, MongoDB, ...) must pass these. A projection store applies
// batches through its writers (as the projector does); a read store on the same storage reads (as the APIs do).
// This file holds the store-wide cases (batches, checkpoint, access contexts, rebuild); the cases of each group
// of read models are in read-store/.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { FolderRecord } from "../../shared/folders/folders.view.ts";
import type { PageRecord } from "../../shared/pages/page-record.ts";
import { projectInvitation } from "../../services/projector/projections/invitations.projection.ts";
import { invitationIdSchema } from "../../shared/kernel/ids.ts";
import {
  at,
  everyone,
  folder,
  page,
  position,
  contractStores,
  storedStream,
  type ReadStoreFactory,
} from "./read-store/stores.ts";
import { historyCases } from "./read-store/history.contract.ts";
import { layoutCases } from "./read-store/layout.contract.ts";
import { pageListCases } from "./read-store/page-lists.contract.ts";
import { searchCases } from "./read-store/search.contract.ts";
import { trashCases } from "./read-store/trash.contract.ts";
import { shareLinkCases } from "./read-store/share-links.contract.ts";
import { notificationCases } from "./read-store/notifications.contract.ts";
import { auditCases } from "./read-store/audit.contract.ts";
import { attachmentCases } from "./read-store/attachments.contract.ts";
import { storedBytesCases } from "./read-store/stored-bytes.contract.ts";
import { groupCases } from "./read-store/groups.contract.ts";
import { parkedEventsCases } from "./read-store/parked-events.contract.ts";
import { teamCases } from "./read-store/team.contract.ts";
import { listingCases } from "./read-store/listings.contract.ts";
import { recordFoldCases } from "./read-store/record-folds.contract.ts";

export type { ReadStoreFactory } from "./read-store/stores.ts";

export function readStoreContract<Tx>(name: string, factory: ReadStoreFactory<Tx>): void {
  describe(`ReadStore contract: ${name}`, () => {
    const s = contractStores(factory);
    const { batch, w } = s;

    it("moves the checkpoint with each batch and keeps neither effects nor checkpoint of a failed one", async () => {
      const user = {
        id: randomUUID(),
        email: `${randomUUID()}@example.com`,
        name: "A",
        image: null,
        createdAt: at().updatedAt,
      };
      await s.projection.applyBatch(10, async (tx) => w().users.put(tx, user));
      expect(await s.reader.checkpoint()).toBe(10);
      const lost = { ...user, id: randomUUID(), email: `${randomUUID()}@example.com` };
      await expect(
        s.projection.applyBatch(11, async (tx) => {
          await w().users.put(tx, lost);
          throw new Error("projection failed");
        }),
      ).rejects.toThrow("projection failed");
      expect(await s.reader.checkpoint()).toBe(10);
      expect(await s.reader.users.get(lost.id)).toBeNull();
      expect(await s.reader.users.getByEmail(user.email)).toEqual(user);
    });

    it("erases a user: the record goes, its address is answered once, and invitations sent to it no longer name it", async () => {
      const email = `${randomUUID()}@example.com`;
      const user = { id: randomUUID(), email, name: "Erasable", image: null, createdAt: at().updatedAt };
      const invitation = {
        id: randomUUID(),
        email,
        access: { targetType: "page" as const, targetId: randomUUID(), permission: "view" as const },
        invitedBy: randomUUID(),
        status: "accepted" as const,
        deliveryStatus: "sent" as const,
        expiresAt: at().updatedAt,
        createdAt: at().updatedAt,
        createdPosition: position,
        lastResentAt: null,
      };
      await batch(async (tx) => {
        await w().users.put(tx, user);
        await w().invitations.put(tx, invitation);
      });
      let erased: string | null = null;
      await batch(async (tx) => {
        erased = await w().users.erase(tx, user.id);
        await w().invitations.forgetAddress(tx, email);
      });
      expect(erased).toBe(email);
      expect(await s.reader.users.get(user.id)).toBeNull();
      expect(await s.reader.users.getByEmail(email)).toBeNull();
      expect(await s.reader.invitations.get(invitation.id)).toMatchObject({ id: invitation.id, email: "" });
      expect(await s.reader.invitations.pendingForEmail(email)).toEqual([]);
      await batch(async (tx) => {
        expect(await w().users.erase(tx, user.id)).toBeNull();
      });
    });

    it("lists every invitation naming an address, whatever its status, and forgets the address of one", async () => {
      const email = `${randomUUID()}@example.com`;
      const invitation = (status: "pending" | "cancelled", createdPosition: number) => ({
        id: randomUUID(),
        email,
        access: { targetType: "page" as const, targetId: randomUUID(), permission: "view" as const },
        invitedBy: randomUUID(),
        status,
        deliveryStatus: "sent" as const,
        expiresAt: at().updatedAt,
        createdAt: at().updatedAt,
        createdPosition,
        lastResentAt: null,
      });
      const [first, second] = [invitation("cancelled", 1), invitation("pending", 2)];
      await batch(async (tx) => {
        await w().invitations.put(tx, second);
        await w().invitations.put(tx, first);
      });
      expect((await s.reader.invitations.toAddress(email)).map((found) => found.id)).toEqual([first.id, second.id]);
      const [erased] = storedStream(`invitation-${first.id}`, [
        { type: "InvitationAddressErased" as const, data: { invitationId: invitationIdSchema.parse(first.id) } },
      ]);
      if (!erased) throw new Error("no event");
      await batch(async (tx) => projectInvitation(erased, w(), tx));
      expect(await s.reader.invitations.get(first.id)).toMatchObject({ email: "", status: "cancelled" });
      expect((await s.reader.invitations.toAddress(email)).map((found) => found.id)).toEqual([second.id]);
    });

    it("takes an erased user's tokens, revoked ones too, and webhooks out, and leaves another user's", async () => {
      const [erased, other] = [randomUUID(), randomUUID()];
      const when = at().updatedAt;
      const token = (userId: string) => ({
        id: randomUUID(),
        userId,
        name: "laptop",
        scopes: ["pages:read" as const],
        expiresAt: null,
        lastUsedAt: null,
        createdAt: when,
        revokedAt: null,
        secretHash: randomUUID().replaceAll("-", "").repeat(2),
      });
      const webhook = (ownerId: string) => ({
        id: randomUUID(),
        ownerId,
        url: "https://hooks.example.com/a",
        events: ["*" as const],
        description: "alerts",
        folderId: null,
        active: true,
        disabledReason: null,
        createdAt: when,
        updatedAt: when,
        position,
        sealedSecret: "v1.x",
      });
      const [revoked, live, kept] = [token(erased), token(erased), token(other)];
      const [hook, keptHook] = [webhook(erased), webhook(other)];
      await batch(async (tx) => {
        for (const t of [revoked, live, kept]) await w().tokens.put(tx, t);
        await w().tokens.markRevoked(tx, revoked.id, when);
        await w().webhooks.put(tx, hook);
        await w().webhooks.put(tx, keptHook);
      });
      await batch(async (tx) => {
        await w().tokens.removeForUser(tx, erased);
        await w().webhooks.removeForOwner(tx, erased);
      });
      expect(await s.reader.tokens.get(revoked.id)).toBeNull();
      expect(await s.reader.tokens.get(live.id)).toBeNull();
      expect(await s.reader.tokens.get(kept.id)).toMatchObject({ id: kept.id });
      expect(await s.reader.webhooks.get(hook.id)).toBeNull();
      expect(await s.reader.webhooks.listForOwner(other, null, 10)).toMatchObject([{ id: keptHook.id }]);
    });

    it("answers an access context from grants and memberships, and forgets revoked ones", async () => {
      const user = randomUUID();
      const owner = randomUUID();
      const when = at().updatedAt;
      await batch(async (tx) => {
        await w().access.putGrant(
          tx,
          {
            entityType: "folder",
            entityId: "f1",
            userId: user,
            permission: "edit",
            grantedBy: owner,
            createdAt: when,
            updatedAt: when,
          },
          position,
        );
        await w().access.putGrant(
          tx,
          {
            entityType: "page",
            entityId: "p1",
            userId: user,
            permission: "view",
            grantedBy: owner,
            createdAt: when,
            updatedAt: when,
          },
          position,
        );
        await w().access.putMember(
          tx,
          { id: randomUUID(), ownerId: owner, memberId: user, role: "commenter", createdAt: when },
          position,
        );
      });
      const context = await s.reader.access.contextFor(user);
      expect([...context.folderGrants]).toEqual([["f1", "edit"]]);
      expect([...context.pageGrants]).toEqual([["p1", "view"]]);
      expect([...context.workspaceRoles]).toEqual([[owner, "commenter"]]);
      await batch(async (tx) => {
        await w().access.removeGrant(tx, "folder", "f1", user, at().updatedPosition);
        await w().access.removeMember(tx, owner, user, position);
      });
      const after = await s.reader.access.contextFor(user);
      expect(after.folderGrants.size + after.workspaceRoles.size).toBe(0);
    });

    it("shows every access change to the user it concerns at once, however often that user was read before", async () => {
      const user = randomUUID();
      const bystander = randomUUID();
      const owner = randomUUID();
      const when = at().updatedAt;
      await batch(async (tx) =>
        w().access.putMember(
          tx,
          { id: randomUUID(), ownerId: owner, memberId: user, role: "viewer", createdAt: when },
          position,
        ),
      );
      expect([...(await s.reader.access.contextFor(user)).workspaceRoles]).toEqual([[owner, "viewer"]]);
      expect((await s.reader.access.contextFor(bystander)).pageGrants.size).toBe(0);
      await batch(async (tx) => w().access.changeRole(tx, owner, user, "editor", at().updatedPosition));
      expect([...(await s.reader.access.contextFor(user)).workspaceRoles]).toEqual([[owner, "editor"]]);
      await batch(async (tx) =>
        w().access.putGrant(
          tx,
          {
            entityType: "page",
            entityId: "p9",
            userId: bystander,
            permission: "comment",
            grantedBy: owner,
            createdAt: when,
            updatedAt: when,
          },
          at().updatedPosition,
        ),
      );
      expect([...(await s.reader.access.contextFor(bystander)).pageGrants]).toEqual([["p9", "comment"]]);
      expect([...(await s.reader.access.contextFor(user)).workspaceRoles]).toEqual([[owner, "editor"]]);
      expect((await s.reader.access.membershipsOf(user)).map((m) => m.role)).toEqual(["editor"]);
    });

    it("lets a projection read, inside its batch, what the same batch wrote before", async () => {
      const owner = randomUUID();
      const parent = folder(owner);
      const record = page(owner, parent, "Before");
      const renamed = at();
      let seen: FolderRecord | null = null;
      let seenPage: PageRecord | null = null;
      await batch(async (tx) => {
        await w().folders.put(tx, parent);
        seen = await w().folders.get(tx, parent.id);
        await w().pages.put(tx, record, "x");
        await w().pages.put(tx, { ...record, title: "After", revision: 1, ...renamed });
        seenPage = await w().pages.get(tx, record.id);
      });
      expect(seen).toEqual(parent);
      expect(seenPage).toEqual({ ...record, title: "After", revision: 1, ...renamed });
      await batch(async (tx) => {
        await w().pages.remove(tx, record.id);
        expect(await w().pages.get(tx, record.id)).toBeNull();
      });
    });

    it("gives back an uploaded image's record as stored, and nothing for an unknown id", async () => {
      const image = {
        id: randomUUID(),
        pageId: randomUUID(),
        uploaderId: randomUUID(),
        filename: "f.png",
        originalName: "Scan – été.PNG",
        mimeType: "image/png" as const,
        size: 1234,
        width: 40,
        height: 30,
        alt: "a [bracketed] alt",
        sha256: "a".repeat(64),
        createdAt: at().updatedAt,
      };
      await batch(async (tx) => w().images.put(tx, image));
      expect(await s.reader.images.get(image.id)).toEqual(image);
      expect(await s.reader.images.get(randomUUID())).toBeNull();
    });

    it("empties every read model for a rebuild and answers queries again after it", async () => {
      const owner = randomUUID();
      const record = page(owner, null, "Rebuilt");
      await batch(async (tx) => w().pages.put(tx, record, ""));
      await s.projection.beginRebuild();
      expect(await s.reader.checkpoint()).toBe(0);
      expect(await s.reader.pages.get(record.id)).toBeNull();
      await s.projection.applyBatch(1, async (tx) => w().pages.put(tx, record, ""));
      await s.projection.endRebuild();
      expect((await s.reader.pages.findByTitleKey("rebuilt", everyone(owner), 10)).map((p) => p.id)).toEqual([
        record.id,
      ]);
    });

    pageListCases(s);
    listingCases(s);
    searchCases(s);
    historyCases(s);
    trashCases(s);
    shareLinkCases(s);
    notificationCases(s);
    auditCases(s);
    attachmentCases(s);
    storedBytesCases(s);
    groupCases(s);
    parkedEventsCases(s);
    teamCases(s);
    recordFoldCases(s);
    layoutCases(s);
  });
}
