// A group's changes from the outside: the change feed names each one to those who may see the group (its
// workspace's owner and admins, its members) and to nobody else; webhooks on the workspace receive them.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type TestUser } from "../../support/server.ts";
import { SseStream } from "../../support/sse.ts";
import { receiversForFile } from "../../support/webhook-receiver.ts";
import { addToGroup, createGroup, createPage } from "../../support/workspace-builders.ts";
import { until } from "../../support/poll.ts";

let server: TestServer;
const streams: SseStream[] = [];
beforeAll(async () => {
  server = await TestServer.start({
    settings: { CHANGE_FEED_HEARTBEAT_MS: "200", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" },
  });
});
afterEach(() => {
  for (const stream of streams.splice(0)) stream.close();
});
afterAll(async () => {
  await server.stop();
});

const receiver = receiversForFile();

async function feed(user: TestUser): Promise<SseStream> {
  const stream = await SseStream.open(`${server.url}/api/v1/changes`, user.credentials);
  streams.push(stream);
  return stream;
}

describe("a group's changes", () => {
  it("reach the owner's and the members' change feeds, and no one else's", async () => {
    const owner = await server.registered("owner");
    const member = await server.registered("member");
    const other = await server.registered("other");
    const outsider = await server.registered("outsider");
    const ownerFeed = await feed(owner);
    const outsiderFeed = await feed(outsider);
    const groupId = await createGroup(owner);
    await addToGroup(owner, groupId, member);
    const memberFeed = await feed(member);
    expect((await owner.patch(`/groups/${groupId}`, { name: "Writers" })).status).toBe(200);
    await addToGroup(owner, groupId, other);
    expect((await owner.delete(`/groups/${groupId}/members/${other.id}`)).status).toBeLessThan(300);
    expect((await owner.delete(`/groups/${groupId}`)).status).toBeLessThan(300);
    // A marker the outsider may see: once it arrives, every earlier change has been dealt with for their feed.
    const marker = await createPage(outsider, { title: "marker" });

    await ownerFeed.until(() => ownerFeed.changes().some((change) => change.type === "GroupDeleted"));
    expect(ownerFeed.changes().map((change) => [change.type, change.entity, change.changes])).toEqual([
      [
        "GroupCreated",
        { kind: "group", id: groupId },
        { kind: "group", groupId, action: "created", memberId: null, role: null },
      ],
      [
        "GroupMemberAdded",
        { kind: "group", id: groupId },
        { kind: "group", groupId, action: "member_added", memberId: member.id, role: null },
      ],
      [
        "GroupRenamed",
        { kind: "group", id: groupId },
        { kind: "group", groupId, action: "renamed", memberId: null, role: null },
      ],
      [
        "GroupMemberAdded",
        { kind: "group", id: groupId },
        { kind: "group", groupId, action: "member_added", memberId: other.id, role: null },
      ],
      [
        "GroupMemberRemoved",
        { kind: "group", id: groupId },
        { kind: "group", groupId, action: "member_removed", memberId: other.id, role: null },
      ],
      [
        "GroupDeleted",
        { kind: "group", id: groupId },
        { kind: "group", groupId, action: "deleted", memberId: null, role: null },
      ],
    ]);
    expect(JSON.parse(ownerFeed.events[0]?.data ?? "{}")).toMatchObject({ actor: { id: owner.id } });
    // Neither the group's name nor a member's address is in any entry.
    expect(ownerFeed.events.map((event) => event.data).join("")).not.toContain("Writers");
    expect(ownerFeed.events.map((event) => event.data).join("")).not.toContain(other.email);

    // The member sees the changes made while they were in the group (the deletion took them out of it).
    await memberFeed.until(() => memberFeed.changes().some((change) => change.type === "GroupMemberRemoved"));
    expect(memberFeed.changes().map((change) => change.type)).toEqual([
      "GroupRenamed",
      "GroupMemberAdded",
      "GroupMemberRemoved",
    ]);

    await outsiderFeed.until(() => outsiderFeed.changes().some((change) => change.entity.id === marker));
    expect(outsiderFeed.changes().map((change) => change.entity.id)).toEqual([marker]);
  });

  it("are the group's history, read by its owner and members and missing to anyone else", async () => {
    const owner = await server.registered("owner");
    const member = await server.registered("member");
    const outsider = await server.registered("outsider");
    const groupId = await createGroup(owner);
    await addToGroup(owner, groupId, member);
    expect((await owner.patch(`/groups/${groupId}`, { name: "Writers" })).status).toBe(200);
    const expected = [
      ["GroupRenamed", { kind: "group", groupId, action: "renamed", memberId: null, role: null }],
      ["GroupMemberAdded", { kind: "group", groupId, action: "member_added", memberId: member.id, role: null }],
      ["GroupCreated", { kind: "group", groupId, action: "created", memberId: null, role: null }],
    ];
    for (const reader of [owner, member]) {
      const history = await reader.get(`/groups/${groupId}/history`);
      expect(history.status).toBe(200);
      const entries = history.body.data as { type: string; changes: unknown }[];
      expect(entries.map((entry) => [entry.type, entry.changes])).toEqual(expected);
    }
    const refused = await outsider.get(`/groups/${groupId}/history`);
    const missing = await outsider.get(`/groups/${randomUUID()}/history`);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual(missing.body);
  });

  it("reach a webhook of the group's owner subscribed to them, and not a stranger's", async () => {
    const owner = await server.registered("owner");
    const member = await server.registered("member");
    const stranger = await server.registered("stranger");
    const ownerEndpoint = await receiver();
    const strangerEndpoint = await receiver();
    const groupEvents = [
      "group.created",
      "group.updated",
      "group.deleted",
      "group.member_added",
      "group.member_removed",
    ];
    const subscribed = await owner.post("/webhooks", { url: ownerEndpoint.url, events: groupEvents });
    expect(subscribed.status).toBe(201);
    const strangers = await stranger.post("/webhooks", {
      url: strangerEndpoint.url,
      events: [...groupEvents, "page.created"],
    });
    expect(strangers.status).toBe(201);

    const groupId = await createGroup(owner);
    await addToGroup(owner, groupId, member);
    expect((await owner.patch(`/groups/${groupId}`, { name: "Writers" })).status).toBe(200);
    expect((await owner.delete(`/groups/${groupId}/members/${member.id}`)).status).toBeLessThan(300);
    expect((await owner.delete(`/groups/${groupId}`)).status).toBeLessThan(300);
    await createPage(stranger, { title: "marker" });

    const received = await ownerEndpoint.waitFor(5);
    expect(received.map((delivery) => delivery.json.type).sort()).toEqual(
      ["group.created", "group.member_added", "group.updated", "group.member_removed", "group.deleted"].sort(),
    );
    const added = received.find((delivery) => delivery.json.type === "group.member_added");
    expect(added?.json.data).toMatchObject({
      groupId,
      memberId: member.id,
      actorId: owner.id,
      scope: { type: "workspace", id: owner.id },
    });
    expect(received.map((delivery) => delivery.body).join("")).not.toContain("Writers");

    // The stranger's webhook is matched against the marker after every group change before it.
    const log = await until(
      () => stranger.get(`/webhooks/${String(strangers.body.id)}/deliveries`),
      (reply) => (reply.body.data as unknown[]).length > 0,
    );
    expect((log.body.data as { type: string }[]).map((delivery) => delivery.type)).toEqual(["page.created"]);
  });
});
