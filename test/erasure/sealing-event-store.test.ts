// The sealing event store over the real SQLite event store and key store: personal data (a user's profile,
// what they typed into their tokens and webhooks) leaves the process only sealed, addresses never name a stream, old plaintext events stay readable, and a destroyed key reads as
// erased, never as garbage.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toNewEvents } from "../../shared/commands/new-events.ts";
import { KeyEncryptionKey } from "../../shared/erasure/key-encryption-key.ts";
import { subjects } from "../../shared/erasure/key-store.port.ts";
import { SealedFieldError } from "../../shared/erasure/sealing-event-store.ts";
import { parseRecorded, type DomainEvent } from "../../shared/events.ts";
import {
  groupIdSchema,
  invitationIdSchema,
  pageIdSchema,
  tokenIdSchema,
  userIdSchema,
} from "../../shared/kernel/ids.ts";
import { ERASED_PAGE_TITLE } from "../../shared/erasure/sealed-content.ts";
import { groupStream } from "../../shared/groups/group.decider.ts";
import { ERASED_GROUP_NAME } from "../../shared/erasure/erased-values.ts";
import { webhookIdSchema } from "../../shared/webhooks/webhook.decider.ts";
import { invitationSlotStream } from "../../shared/sharing/invitation-slot.decider.ts";
import { emailReservationStream, userStream } from "../../shared/users/user.decider.ts";
import { sealingStoresPerTest } from "../support/sealing-stores.ts";

const kek = new KeyEncryptionKey("k".repeat(40));
const stores = sealingStoresPerTest(kek);

const userId = userIdSchema.parse(randomUUID());
const context = { actorId: userId, correlationId: "test", now: new Date("2026-11-01T10:00:00Z") };
const registration = (email: string, name: string) =>
  toNewEvents(
    [{ type: "UserRegistered", data: { userId, email, name, image: "https://pictures.example.com/me.png" } }],
    context,
  );

describe("the sealing event store", () => {
  it("stores a user's email, name and picture sealed, and reads them back in the clear", async () => {
    const { sealed, raw, rawBytes } = await stores();
    await sealed.append(userStream(userId), registration("quill@example.com", "Quillon Marsh"), "no_stream");
    const [stored] = (await raw.read(userStream(userId))).events;
    expect(JSON.stringify(stored?.data)).not.toMatch(/quill|marsh|pictures/i);
    expect(rawBytes()).not.toMatch(/quill|marsh|pictures\.example/);
    const [read] = (await sealed.read(userStream(userId))).events;
    expect(read?.data).toEqual({
      userId,
      email: "quill@example.com",
      name: "Quillon Marsh",
      image: "https://pictures.example.com/me.png",
    });
    const [fromLog] = await sealed.readAll(0, 10);
    expect(fromLog?.data).toEqual(read?.data);
  });

  it("stores a group's name sealed under its workspace owner's key, and reads it as erased once that key is destroyed", async () => {
    const { sealed, raw, rawBytes, keys } = await stores();
    const groupId = groupIdSchema.parse(randomUUID());
    const events = toNewEvents(
      [
        { type: "GroupCreated", data: { groupId, ownerId: userId, name: "Zanzibar Guild", createdBy: userId } },
        { type: "GroupRenamed", data: { groupId, ownerId: userId, name: "Quokka Circle" } },
      ],
      context,
    );
    await sealed.append(groupStream(groupId), events, "no_stream");
    expect(JSON.stringify((await raw.read(groupStream(groupId))).events.map((event) => event.data))).not.toMatch(
      /zanzibar|quokka/i,
    );
    expect(rawBytes()).not.toMatch(/Zanzibar|Quokka/);
    const names = async () =>
      (await sealed.read(groupStream(groupId))).events
        .map((event) => parseRecorded(event).event.data)
        .map((data) => ("name" in data ? data.name : null));
    expect(await names()).toEqual(["Zanzibar Guild", "Quokka Circle"]);
    await keys.destroy(subjects.user(userId));
    expect(await names()).toEqual([ERASED_GROUP_NAME, ERASED_GROUP_NAME]);
  });

  it("names address streams by the address's keyed hash, finding them by the address", async () => {
    const { sealed, raw } = await stores();
    const address = "slot.holder@example.com";
    const invitationId = invitationIdSchema.parse(randomUUID());
    const reservation = toNewEvents([{ type: "EmailReserved", data: { email: address, userId } }], context);
    await sealed.append(emailReservationStream(address), reservation, "no_stream");
    const slot = toNewEvents([{ type: "InvitationSlotTaken", data: { invitationId, previous: null } }], context);
    await sealed.append(invitationSlotStream("page", randomUUID(), address), slot, "no_stream");
    const streams = (await raw.readAll(0, 10)).map((event) => event.stream);
    expect(streams).toHaveLength(2);
    for (const stream of streams) expect(stream).not.toContain("@");
    expect(streams[0]).toBe(`email-${kek.addressHash(address)}`);
    expect((await sealed.read(emailReservationStream(address))).revision).toBe(0);
  });

  it("reads what a destroyed key sealed as erased: no email, the erased name, no picture", async () => {
    const { sealed, keys } = await stores();
    await sealed.append(userStream(userId), registration("quill@example.com", "Quillon Marsh"), "no_stream");
    await keys.destroy(subjects.user(userId));
    const [read] = (await sealed.read(userStream(userId))).events;
    expect(read?.data).toEqual({ userId, email: "", name: "Erased user", image: null });
    expect(read && parseRecorded(read).event.type).toBe("UserRegistered");
  });

  it("opens a batch of many pages' events at once, each under its own key, a destroyed one's as erased", async () => {
    const { sealed, keys } = await stores();
    const pageIds = Array.from({ length: 5 }, () => pageIdSchema.parse(randomUUID()));
    for (const [i, pageId] of pageIds.entries()) {
      const events: DomainEvent[] = [
        {
          type: "PageCreated",
          data: { pageId, ownerId: userId, parentId: null, title: `Plan ${i}`, icon: null, markdown: `Body ${i}` },
        },
        { type: "PageRenamed", data: { pageId, title: `Plan ${i}, renamed`, previousTitle: `Plan ${i}` } },
      ];
      await sealed.append(`page-${pageId}`, toNewEvents(events, context), "no_stream");
    }
    await keys.destroy(subjects.page(pageIds[2] ?? ""));
    const titles = (await sealed.readAll(0, 100)).map((event) => {
      const data = parseRecorded(event).event.data;
      return "title" in data ? data.title : null;
    });
    expect(titles).toEqual(
      pageIds.flatMap((_, i) =>
        i === 2 ? [ERASED_PAGE_TITLE, ERASED_PAGE_TITLE] : [`Plan ${i}`, `Plan ${i}, renamed`],
      ),
    );
  });

  it("seals what a user typed into their tokens and webhooks under their key; erased, each event still holds to its schema", async () => {
    const { sealed, raw, keys, rawBytes } = await stores();
    const tokenId = tokenIdSchema.parse(randomUUID());
    const webhookId = webhookIdSchema.parse(randomUUID());
    const settings = {
      url: "https://hooks.example.com/Marshwhistle",
      events: ["*" as const],
      description: "Marshwhistle alerts",
    };
    await sealed.append(
      `token-${tokenId}`,
      toNewEvents(
        [
          {
            type: "TokenCreated",
            data: {
              tokenId,
              userId,
              name: "Marshwhistle laptop",
              scopes: ["pages:read"],
              expiresAt: null,
              secretHash: "b".repeat(64),
            },
          },
        ],
        context,
      ),
      "no_stream",
    );
    const webhook: DomainEvent[] = [
      {
        type: "WebhookCreated",
        data: { webhookId, ownerId: userId, folderId: null, ...settings, sealedSecret: "v1.secret" },
      },
      { type: "WebhookUpdated", data: { webhookId, ...settings, description: "Marshwhistle again", active: true } },
      { type: "WebhookDisabled", data: { webhookId, reason: "getaddrinfo ENOTFOUND marshwhistle.example.com" } },
    ];
    await sealed.append(`webhook-${webhookId}`, toNewEvents(webhook, context), "no_stream");
    expect(rawBytes()).not.toContain("marshwhistle");
    expect(
      (await raw.read(`webhook-${webhookId}`)).events.map((event) => JSON.stringify(event.data)).join(),
    ).not.toMatch(/marshwhistle/i);
    expect((await sealed.read(`webhook-${webhookId}`)).events.map((recorded) => parseRecorded(recorded).event)).toEqual(
      webhook,
    );

    await keys.destroy(subjects.user(userId));
    const [token] = (await sealed.read(`token-${tokenId}`)).events.map(
      (recorded) => parseRecorded(recorded).event.data,
    );
    expect(token).toMatchObject({ tokenId, name: "Erased token" });
    const erased = (await sealed.read(`webhook-${webhookId}`)).events.map(
      (recorded) => parseRecorded(recorded).event.data,
    );
    expect(erased).toEqual([
      {
        webhookId,
        ownerId: userId,
        folderId: null,
        url: "https://erased.invalid/",
        events: ["*"],
        description: null,
        sealedSecret: "v1.secret",
      },
      { webhookId, url: "https://erased.invalid/", events: ["*"], description: null, active: true },
      { webhookId, reason: "" },
    ]);
  });

  it("seals the answer recorded for an Idempotency-Key under its caller's key, as JSON, erased to null", async () => {
    const { sealed, raw, keys } = await stores();
    const keyHash = "a".repeat(64);
    const body = { ok: true, memberId: null, message: "invitee@example.com has no account yet" };
    const completed = toNewEvents(
      [
        {
          type: "IdempotentRequestCompleted",
          data: {
            keyHash,
            fingerprint: "f",
            completedAt: "2026-11-01T10:00:00.000Z",
            status: 202,
            body,
            consistencyToken: "7",
          },
        },
      ],
      context,
    );
    await sealed.append(`idempotency-${keyHash}`, completed, "any");
    expect(JSON.stringify((await raw.read(`idempotency-${keyHash}`)).events[0]?.data)).not.toContain("invitee");
    expect((await sealed.read(`idempotency-${keyHash}`)).events[0]?.data).toMatchObject({ status: 202, body });
    await keys.destroy(subjects.user(userId));
    expect((await sealed.read(`idempotency-${keyHash}`)).events[0]?.data).toMatchObject({ status: 202, body: null });
  });

  it("reads events written before sealing existed as they were, and keeps using a stream named by a plain address", async () => {
    const { sealed, raw } = await stores();
    const address = "legacy@example.com";
    await raw.append(userStream(userId), registration(address, "Legacy Lee"), "no_stream");
    await raw.append(
      `email-${address}`,
      toNewEvents([{ type: "EmailReserved", data: { email: address, userId } }], context),
      "no_stream",
    );
    const [read] = (await sealed.read(userStream(userId))).events;
    expect(read?.data).toMatchObject({ email: address, name: "Legacy Lee" });
    const reservation = await sealed.read(emailReservationStream(address));
    expect(reservation.revision).toBe(0);
    expect(reservation.events[0]?.stream).toBe(`email-${address}`);
    await sealed.append(
      emailReservationStream(address),
      toNewEvents([{ type: "EmailReleased", data: { userId } }], context),
      0,
    );
    expect((await raw.read(`email-${address}`)).revision).toBe(1);
  });

  it("refuses to read a sealed field that was altered, rather than show anything", async () => {
    const { sealed, raw, keys } = await stores();
    await sealed.append(userStream(userId), registration("quill@example.com", "Quillon Marsh"), "no_stream");
    const [stored] = (await raw.read(userStream(userId))).events;
    if (!stored) throw new Error("nothing stored");
    const data = z.record(z.string(), z.string().nullable()).parse(stored.data);
    const name = data.name ?? "";
    const tampered = { ...data, name: name.slice(0, -3) + (name.endsWith("AAA") ? "BBB" : "AAA") };
    const other = userIdSchema.parse(randomUUID());
    // The same sealed value, altered, under a stream the reader takes as the user's.
    await raw.append(
      userStream(other),
      [{ id: randomUUID(), type: "UserRegistered", data: tampered, metadata: stored.metadata }],
      "no_stream",
    );
    await expect(sealed.read(userStream(other))).rejects.toThrow(SealedFieldError);
    expect(await keys.activeKey(subjects.user(userId))).toBeDefined();
  });
});
