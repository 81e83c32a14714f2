// Share links in the page's history, its webhooks and the change feed: seen by those who may share the page,
// never with the link's secret or password.
import { beforeAll, describe, expect, it } from "vitest";
import { serverForFile } from "../../support/server-for-file.ts";
import { SseStream } from "../../support/sse.ts";
import { receiversForFile, type WebhookReceiver } from "../../support/webhook-receiver.ts";
import { createPage, share } from "../../support/workspace-builders.ts";

const file = serverForFile({ settings: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true", WEBHOOK_FIRST_RETRY_MS: "20" } });
const receiver = receiversForFile();
let endpoint: WebhookReceiver;
beforeAll(async () => {
  endpoint = await receiver();
});

describe("share-link events for webhooks and history", () => {
  it("tells the page's admins of a link's creation, change and revocation by ids only; a viewer hears and sees none of it", async () => {
    const owner = await file.server.registered("owner");
    const viewer = await file.server.registered("viewer");
    const pageId = await createPage(owner);
    await share(owner, "page", pageId, viewer.email, "view");
    const hooked = await owner.post("/webhooks", {
      url: endpoint.url,
      events: ["share.link_created", "share.link_updated", "share.link_revoked"],
    });
    expect(hooked.status).toBe(201);
    const viewerHook = await viewer.post("/webhooks", { url: endpoint.url, events: ["*"] });
    expect(viewerHook.status).toBe(201);

    const created = await owner.post(`/pages/${pageId}/share-links`, { password: "swordfish" });
    const linkId = String(created.body.id);
    const secret = String(created.body.url).split("/s/")[1] ?? "";
    expect((await owner.patch(`/share-links/${linkId}`, { allowIndexing: true })).status).toBe(200);
    expect((await owner.delete(`/share-links/${linkId}`)).status).toBe(204);

    const received = await endpoint.waitFor(3);
    expect(received.map((delivery) => delivery.json.type)).toEqual([
      "share.link_created",
      "share.link_updated",
      "share.link_revoked",
    ]);
    for (const delivery of received) {
      expect(delivery.json.data).toMatchObject({
        linkId,
        entityType: "page",
        entityId: pageId,
        scope: { type: "page", id: pageId },
      });
      for (const hidden of [secret, "swordfish", "scrypt", "secretHash", "passwordHash"])
        expect(delivery.body).not.toContain(hidden);
    }
    const viewerDeliveries = (await viewer.get(`/webhooks/${String(viewerHook.body.id)}/deliveries`)).body.data as {
      type: string;
    }[];
    expect(viewerDeliveries.filter((delivery) => delivery.type.startsWith("share."))).toEqual([]);

    const viewerHistory = await viewer.get(`/pages/${pageId}/history`);
    expect(viewerHistory.status).toBe(200);
    expect(viewerHistory.text).not.toContain(linkId);
    const ownerHistory = await owner.get(`/pages/${pageId}/history`);
    expect(ownerHistory.text).toContain(linkId);
    const stream = await file.server.internals.eventStore.read(`share-link-${linkId}`);
    expect(JSON.stringify(stream.events)).not.toContain(secret);
    expect(JSON.stringify(stream.events)).not.toContain("swordfish");
  });

  it("streams a link's creation to the page's admins on the change feed, and not to its viewers", async () => {
    const owner = await file.server.registered("owner");
    const viewer = await file.server.registered("viewer");
    const pageId = await createPage(owner);
    await share(owner, "page", pageId, viewer.email, "view");
    const ownerFeed = await SseStream.open(`${file.server.url}/api/v1/changes`, owner.credentials);
    const viewerFeed = await SseStream.open(`${file.server.url}/api/v1/changes`, viewer.credentials);
    try {
      const created = await owner.post(`/pages/${pageId}/share-links`, { password: "swordfish" });
      const linkId = String(created.body.id);
      // A rename after it: once the viewer sees the rename, they would have seen the link before it.
      expect((await owner.patch(`/pages/${pageId}`, { title: "Renamed" })).status).toBe(200);
      await ownerFeed.until(() => ownerFeed.changes().some((change) => change.type === "PageRenamed"));
      await viewerFeed.until(() => viewerFeed.changes().some((change) => change.type === "PageRenamed"));
      expect(ownerFeed.changes()).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            type: "ShareLinkCreated",
            changes: expect.objectContaining({ kind: "share_link", action: "created", linkId }),
          }),
        ]),
      );
      expect(viewerFeed.changes().map((change) => change.type)).not.toContain("ShareLinkCreated");
      const secret = String(created.body.url).split("/s/")[1] ?? "";
      for (const event of ownerFeed.events)
        for (const hidden of [secret, "swordfish", "scrypt"]) expect(event.data).not.toContain(hidden);
    } finally {
      ownerFeed.close();
      viewerFeed.close();
    }
  });
});
