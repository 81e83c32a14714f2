// The interactive reference at /docs, opened in a real headless Chromium: it loads the generated document and
// renders the operations. A screenshot is kept in test-artifacts/ for a human to look at. Without Debian's
// chromium the test skips, saying why; with CI=true a missing chromium is a failure.
import { mkdir } from "node:fs/promises";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumUnavailable, launchChromium } from "../../support/chromium.ts";
import { mintSession, SESSION_COOKIE } from "../../../shared/auth/session-verifier.ts";
import { TEST_SESSION_SECRET, TestServer } from "../../support/server.ts";

const unavailable = chromiumUnavailable();
if (unavailable) console.warn(`API docs browser test skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)("the API reference page in a browser", () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await TestServer.start();
    // Chromium's sandbox refuses to run as root, which is how CI runs.
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("lists the API's operations at /docs", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const failures: string[] = [];
    page.on("pageerror", (error) => failures.push(error.message));
    await page.goto(`${server.url}/docs`);
    const paths = page.locator(".opblock-summary-path");
    await expect.poll(() => paths.count(), { timeout: 20_000 }).toBeGreaterThan(30);
    const listed = await paths.allTextContents();
    const normalised = listed.map((text) => text.replace(/\u200b/g, "").trim());
    expect(normalised).toContain("/api/v1/pages/resolve");
    expect(normalised).toContain("/api/v1/shares/workspace/members");
    expect(normalised).toContain("/api/v1/tokens");
    expect(normalised.some((path) => path.startsWith("/internal/"))).toBe(false);
    expect(await page.locator(".information-container .title").textContent()).toContain("Workspace API");
    await mkdir("test-artifacts", { recursive: true });
    await page.screenshot({ path: "test-artifacts/api-docs.png", fullPage: true });
    expect(failures).toEqual([]);
  }, 60_000);

  it("explains how to get a token, and tries a call once the browser is signed in", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      // Signed in as the page's introduction says: the session cookie set in this browser.
      const session = await mintSession(TEST_SESSION_SECRET, {
        sub: crypto.randomUUID(),
        email: "reader@example.com",
        name: "Reader",
      });
      await context.addCookies([{ name: SESSION_COOKIE, value: session, url: server.url }]);
      const page = await context.newPage();
      await page.goto(`${server.url}/docs`);
      const intro = page.locator(".information-container .description");
      await expect.poll(() => intro.textContent(), { timeout: 20_000 }).toContain("npm run -s session");
      expect(await intro.textContent()).toContain("/api/v1/tokens");
      const operation = page.locator("#operations-me-getMe");
      await operation.locator(".opblock-summary").click();
      await operation.getByRole("button", { name: "Try it out" }).click();
      await operation.getByRole("button", { name: "Execute" }).click();
      const body = operation.locator(".responses-wrapper .live-responses-table .response-col_description pre").first();
      await expect.poll(() => body.textContent(), { timeout: 20_000 }).toContain("reader@example.com");
    } finally {
      await context.close();
    }
  }, 60_000);

  it("signs in with an API token entered once in the Authorize dialog, and lists pages with it", async () => {
    const owner = await server.registered("owner");
    await owner.post("/pages", { title: "Seen through the docs" });
    const created = await owner.post("/tokens", { name: "docs", scopes: ["pages:read"] });
    const secret = String(created.body.token);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      // No session cookie here: the token typed into the dialog is the only credential.
      const page = await context.newPage();
      await page.goto(`${server.url}/docs`);
      await page.getByRole("button", { name: "Authorize" }).first().click();
      const dialog = page.locator(".modal-ux");
      // The bearer scheme takes a token; the OAuth 2 scheme beside it is for apps.
      await expect.poll(() => dialog.locator("input").count(), { timeout: 20_000 }).toBeGreaterThan(0);
      expect(await dialog.locator(".auth-container").filter({ hasText: "oauth2" }).count()).toBeGreaterThan(0);
      const bearer = dialog.locator(".auth-container").filter({ hasText: "bearerToken" });
      await bearer.locator("input").fill(secret);
      await bearer.locator("button.authorize").click();
      await bearer.locator("button.btn-done").click();

      const operation = page.locator("#operations-pages-listPages");
      await operation.locator(".opblock-summary").click();
      await operation.getByRole("button", { name: "Try it out" }).click();
      await operation.getByRole("button", { name: "Execute" }).click();
      const body = operation.locator(".responses-wrapper .live-responses-table .response-col_description pre").first();
      await expect.poll(() => body.textContent(), { timeout: 20_000 }).toContain("Seen through the docs");
    } finally {
      await context.close();
    }
  }, 60_000);
});
