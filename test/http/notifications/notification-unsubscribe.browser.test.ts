// A notification email's unsubscribe link opened in a real headless Chromium, by someone not signed in: the page
// shows a button, and clicking it turns that kind's emails off. Without Debian's chromium the test skips, saying
// why; with CI=true a missing chromium is a failure.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumUnavailable, launchChromium } from "../../support/chromium.ts";
import { parseMimeMessage } from "../../support/mime-message.ts";
import { TestServer, type TestUser } from "../../support/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../../support/smtp-server.ts";

const PUBLIC = "https://workspace.example.com";
const unavailable = chromiumUnavailable();
if (unavailable) console.warn(`unsubscribe browser test skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)("an unsubscribe link in a browser", () => {
  let smtp: TestSmtpServer;
  let server: TestServer;
  let browser: Browser;
  let ann: TestUser;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await TestServer.start({ settings: { SMTP_URL: smtp.url, PUBLIC_BASE_URL: PUBLIC } });
    ann = await server.registered("ann");
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it("shows a button whose click stops that kind's emails", async () => {
    const bob = await server.registered("bob");
    const page = await ann.post("/pages", { title: "Shared" });
    await ann.post(`/shares/entity/page/${String(page.body.id)}/grants`, { email: bob.email, permission: "view" });
    const deadline = Date.now() + 10_000;
    let link = "";
    while (link === "") {
      const message = smtp.received().find((received) => received.rcptTo.includes(bob.email));
      const header = message
        ? parseMimeMessage(message.raw).headers.find(([name]) => name === "list-unsubscribe")?.[1]
        : undefined;
      if (header) link = header.replace(/^<|>$/g, "");
      else if (Date.now() > deadline) throw new Error("no mail reached bob");
      else await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(link.startsWith(`${PUBLIC}/api/v1/notifications/unsubscribe?token=`)).toBe(true);

    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      const opened = await tab.goto(`${server.url}${link.slice(PUBLIC.length)}`);
      expect(opened?.status()).toBe(200);
      expect((await bob.get("/me/notification-settings")).body).toMatchObject({ delivery: { shared: "email" } });
      await Promise.all([tab.waitForURL(/unsubscribe/), tab.getByRole("button", { name: "Unsubscribe" }).click()]);
      await tab.getByRole("status").waitFor();
      expect(await tab.getByRole("heading").textContent()).toBe("Unsubscribed");
    } finally {
      await context.close();
    }
    expect((await bob.get("/me/notification-settings")).body).toMatchObject({
      delivery: { shared: "inbox", replied: "email" },
    });
  }, 30_000);
});
