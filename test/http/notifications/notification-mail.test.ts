// Notifications by email through a real SMTP server: a kind set to `email` mails at once (once, even when the bus
// brings the message again), with RFC 8058's one-click unsubscribe headers whose POST turns that kind's emails off;
// a kind set to `digest` waits for the daily digest, sent once a day and only when there is something unread, once
// even when two notifiers run it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotificationDelivery } from "../../../services/notifier/notification-delivery.ts";
import { mailerFor } from "../../../services/wiring/notifier.ts";
import { InProcessBus } from "../../../shared/adapters/in-process/in-process.bus.ts";
import { NOTIFICATION_CREATED } from "../../../shared/notifications/notification-messages.ts";
import { notificationMailStream } from "../../../shared/notifications/notification-mail.decider.ts";
import { parseMimeMessage } from "../../support/mime-message.ts";
import { TestServer, type TestUser } from "../../support/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../../support/smtp-server.ts";

const PUBLIC = "https://workspace.example.com";

let smtp: TestSmtpServer;
let server: TestServer;
let ann: TestUser;
beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await TestServer.start({ settings: { SMTP_URL: smtp.url, PUBLIC_BASE_URL: PUBLIC } });
  ann = await server.registered("ann", { name: "Ann <Author>" });
});
afterAll(async () => {
  await server.stop();
  await smtp.close();
});

interface ReceivedMail {
  readonly subject: string;
  readonly text: string;
  readonly header: (name: string) => string;
}

function mailsTo(address: string): ReceivedMail[] {
  return smtp
    .received()
    .filter((message) => message.rcptTo.includes(address))
    .map((message) => {
      const parsed = parseMimeMessage(message.raw);
      const header = (name: string) => parsed.headers.find(([key]) => key === name.toLowerCase())?.[1] ?? "";
      return { subject: header("subject"), text: parsed.text, header };
    });
}

async function eventually<T>(read: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function shareWith(user: TestUser, title: string): Promise<string> {
  const page = await ann.post("/pages", { title });
  const pageId = String(page.body.id);
  const shared = await ann.post(`/shares/entity/page/${pageId}/grants`, { email: user.email, permission: "view" });
  expect(shared.status).toBeLessThan(300);
  return pageId;
}

async function notificationAbout(user: TestUser, pageId: string): Promise<{ id: string; kind: string }> {
  return eventually(async () => {
    const list = await user.get("/notifications");
    const found = (list.body.data as Array<{ id: string; kind: string; pageId?: string }>).find(
      (n) => n.pageId === pageId,
    );
    return found ? { id: found.id, kind: found.kind } : undefined;
  }, "the notification");
}

/** The path and query of a link in a mail, on the test server (the mail names PUBLIC_BASE_URL). */
const onServer = (link: string): string => `${server.url}${link.slice(PUBLIC.length)}`;

describe("notification settings", () => {
  it("are one record: autoWatch and each kind's delivery, changed only where sent", async () => {
    const bob = await server.registered("bob");
    const initial = await bob.get("/me/notification-settings");
    expect(initial.body).toMatchObject({ autoWatch: true, delivery: { shared: "email", watched_changed: "digest" } });
    const changed = await bob.call("PUT", "/me/notification-settings", { json: { delivery: { replied: "digest" } } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ autoWatch: true, delivery: { replied: "digest", shared: "email" } });
    expect((await bob.get("/me/notification-settings")).body).toEqual(changed.body);
    const refused = await bob.call("PUT", "/me/notification-settings", { json: { delivery: { replied: "fax" } } });
    expect(refused.status).toBe(400);
  });

  it("are sealed under the user's key: once the account is erased, the log reads them as the defaults", async () => {
    const carl = await server.registered("carl");
    const put = await carl.call("PUT", "/me/notification-settings", {
      json: { autoWatch: false, delivery: { replied: "inbox" } },
    });
    expect(put.status).toBe(200);
    const stream = `notification-settings-${carl.id}`;
    const [before] = (await server.internals.eventStore.read(stream)).events;
    expect(before?.data).toMatchObject({ autoWatch: false, delivery: { replied: "inbox" } });
    expect((await carl.call("DELETE", "/me", { json: { confirm: carl.email } })).status).toBeLessThan(300);
    const after = await eventually(async () => {
      const [event] = (await server.internals.eventStore.read(stream)).events;
      return (event?.data as { autoWatch?: boolean } | undefined)?.autoWatch === true ? event : undefined;
    }, "the settings erased");
    expect(after.data).toMatchObject({ autoWatch: true, delivery: { replied: "email", watched_changed: "digest" } });
  });
});

describe("an email at once", () => {
  it("mails who did what on which page with a link, and the one-click unsubscribe headers", async () => {
    const bob = await server.registered("bob", { name: "Bob" });
    const pageId = await shareWith(bob, "Quarterly <plan>");
    const [mail] = await eventually(() => {
      const mails = mailsTo(bob.email);
      return mails.length > 0 ? mails : undefined;
    }, "bob's mail");
    expect(mail?.subject).toBe("Ann <Author> shared with you “Quarterly <plan>”");
    expect(mail?.text).toContain(`${PUBLIC}/api/v1/pages/${pageId}`);
    expect(mail?.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(mail?.header("list-unsubscribe")).toMatch(
      /^<https:\/\/workspace\.example\.com\/api\/v1\/notifications\/unsubscribe\?token=[^>]+>$/,
    );
  });

  it("names the group to the member a group_added mail tells", async () => {
    const bob = await server.registered("bob", { name: "Bob" });
    const created = await ann.post("/groups", { name: "Night <shift>" });
    expect(created.status).toBe(201);
    expect((await ann.post(`/groups/${String(created.body.id)}/members`, { email: bob.email })).status).toBe(200);
    const [mail] = await eventually(() => {
      const mails = mailsTo(bob.email);
      return mails.length > 0 ? mails : undefined;
    }, "bob's mail");
    expect(mail?.subject).toBe("Ann <Author> added you to a group “Night <shift>”");
  });

  it("records the mail, and a redelivered message or a coalesced update within the hour mails nothing more", async () => {
    const bob = await server.registered("bob");
    const pageId = await shareWith(bob, "Once");
    const notification = await notificationAbout(bob, pageId);
    const mails = await eventually(() => {
      const found = mailsTo(bob.email);
      return found.length > 0 ? found : undefined;
    }, "bob's mail");
    const recorded = await eventually(async () => {
      const { events } = await server.internals.eventStore.read(notificationMailStream(notification.id));
      return events.length > 0 ? events : undefined;
    }, "the mail's record");
    expect(recorded.map((event) => event.type)).toEqual(["NotificationMailed"]);
    const data = recorded[0]?.data as Record<string, unknown>;
    expect(data).toMatchObject({ notificationId: notification.id, userId: bob.id, kind: "shared" });
    // Ids only: neither the title nor the address is in the record.
    expect(JSON.stringify(recorded[0]?.data)).not.toContain("Once");
    expect(JSON.stringify(recorded[0]?.data)).not.toContain(bob.email);

    const message = {
      id: String(data.attemptId),
      subject: NOTIFICATION_CREATED,
      data: { notificationId: notification.id, userId: bob.id, kind: "shared" },
      metadata: {},
    };
    const delivery = server.internals.notificationDelivery;
    expect(await delivery.mailAtOnce(message)).toBe("not_owed");
    expect(await delivery.mailAtOnce({ ...message, id: crypto.randomUUID() })).toBe("not_owed");
    expect(mailsTo(bob.email)).toHaveLength(mails.length);
  });

  it("one-click: a POST of the link's form with no cookie turns that kind's emails off; a changed token is not found", async () => {
    const bob = await server.registered("bob");
    await shareWith(bob, "Unsubscribe me");
    const [mail] = await eventually(() => {
      const found = mailsTo(bob.email);
      return found.length > 0 ? found : undefined;
    }, "bob's mail");
    const link = (mail?.header("list-unsubscribe") ?? "").replace(/^<|>$/g, "");
    const post = (url: string) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
    // A significant character of the signature changed (the last one carries unused bits).
    const at = link.length - 2;
    const tampered = `${link.slice(0, at)}${link[at] === "A" ? "B" : "A"}${link.slice(at + 1)}`;
    expect((await post(onServer(tampered))).status).toBe(404);
    expect((await fetch(onServer(tampered))).status).toBe(404);
    expect((await bob.get("/me/notification-settings")).body).toMatchObject({ delivery: { shared: "email" } });

    const done = await post(onServer(link));
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("Unsubscribed");
    expect((await bob.get("/me/notification-settings")).body).toMatchObject({
      delivery: { shared: "inbox", mentioned: "email" },
    });

    const pageId = await shareWith(bob, "Quiet now");
    const notification = await notificationAbout(bob, pageId);
    const message = {
      id: crypto.randomUUID(),
      subject: NOTIFICATION_CREATED,
      data: { ...notification, notificationId: notification.id, userId: bob.id },
      metadata: {},
    };
    expect(await server.internals.notificationDelivery.mailAtOnce(message)).toBe("not_owed");
  });
});

describe("the daily digest", () => {
  it("collects the digest kinds' unread notifications into one mail a day, and sends nothing with nothing unread", async () => {
    const bob = await server.registered("bob");
    await bob.call("PUT", "/me/notification-settings", { json: { delivery: { shared: "digest" } } });
    const first = await shareWith(bob, "Digest one");
    const second = await shareWith(bob, "Digest two");
    await notificationAbout(bob, first);
    await notificationAbout(bob, second);
    expect(mailsTo(bob.email)).toEqual([]);

    const delivery = server.internals.notificationDelivery;
    const now = new Date();
    await delivery.sendDigests(now);
    const digests = mailsTo(bob.email);
    expect(digests).toHaveLength(1);
    expect(digests[0]?.subject).toContain("2 notifications");
    expect(digests[0]?.text).toContain("“Digest one”");
    expect(digests[0]?.text).toContain("“Digest two”");
    expect(digests[0]?.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");

    await delivery.sendDigests(now);
    expect(mailsTo(bob.email)).toHaveLength(1);

    expect((await bob.post("/notifications/read", { all: true })).status).toBe(204);
    await delivery.sendDigests(new Date(now.getTime() + 24 * 60 * 60 * 1000));
    expect(mailsTo(bob.email)).toHaveLength(1);
  });

  it("is sent once when two notifiers on the same stores run it at the same time", async () => {
    const cy = await server.registered("cy");
    await cy.call("PUT", "/me/notification-settings", { json: { delivery: { shared: "digest" } } });
    await notificationAbout(cy, await shareWith(cy, "Raced digest"));
    const running = server.internals;
    const second = new NotificationDelivery({
      bus: new InProcessBus(),
      eventStore: running.eventStore,
      readModels: running.readStore,
      mailer: mailerFor(running.config),
      logger: running.logger,
      clock: () => new Date(),
      publicBaseUrl: PUBLIC,
      unsubscribe: null,
      digestHour: 0,
      digestCheckMs: 0,
    });
    const now = new Date();
    const sent = await Promise.all([running.notificationDelivery.sendDigests(now), second.sendDigests(now)]);
    expect(mailsTo(cy.email)).toHaveLength(1);
    expect(sent[0] + sent[1]).toBeGreaterThanOrEqual(1);
    await second.sendDigests(now);
    expect(mailsTo(cy.email)).toHaveLength(1);
  });
});
