// Attachments a browser could run (HTML, SVG), opened in a real headless Chromium by someone allowed to see
// them: Chromium downloads them and renders nothing, so no script they hold runs on the API's origin. A PDF is
// shown in place. Without Debian's chromium the test skips, saying why; with CI=true a missing chromium fails.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumUnavailable, launchChromium } from "../../support/chromium.ts";
import { SESSION_COOKIE } from "../../../shared/auth/session-verifier.ts";
import { attach } from "../../support/attachments.ts";
import { TestServer, type TestUser } from "../../support/server.ts";
import { createPage } from "../../support/workspace-builders.ts";

const unavailable = chromiumUnavailable();
if (unavailable) console.warn(`Attachment browser test skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)("attachments opened in a browser", () => {
  let server: TestServer;
  let browser: Browser;
  let owner: TestUser;
  let pageId: string;
  beforeAll(async () => {
    server = await TestServer.start();
    owner = await server.registered("owner");
    pageId = await createPage(owner);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function signedInPage() {
    const context = await browser.newContext({ acceptDownloads: true });
    const credentials = owner.credentials;
    await context.addCookies([
      {
        name: SESSION_COOKIE,
        value: credentials && "cookie" in credentials ? credentials.cookie : "",
        url: server.url,
      },
    ]);
    return { context, page: await context.newPage() };
  }

  it.each([
    [
      "page.html",
      "<!doctype html><title>ran</title><script>document.cookie = 'stolen=1'; alert('ran')</script><p>rendered</p>",
    ],
    [
      "drawing.svg",
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(\'ran\')"><script>document.title = "ran"</script><text y="20">rendered</text></svg>',
    ],
  ])(
    "downloads %s instead of rendering it, and runs none of its scripts",
    async (name, content) => {
      const reply = await attach(owner, pageId, { bytes: Buffer.from(content), name, type: "text/html" });
      expect(reply.status, reply.text).toBe(201);
      const { context, page } = await signedInPage();
      try {
        const dialogs: string[] = [];
        page.on("dialog", (dialog) => {
          dialogs.push(dialog.message());
          void dialog.dismiss();
        });
        const [download] = await Promise.all([
          page.waitForEvent("download", { timeout: 20_000 }),
          page.goto(`${server.url}${String(reply.body.url)}`).catch(() => null),
        ]);
        expect(download.suggestedFilename()).toBe(name);
        const saved = await download.path();
        expect(saved).not.toBeNull();
        expect(dialogs).toEqual([]);
        expect((await context.cookies(server.url)).map((cookie) => cookie.name)).not.toContain("stolen");
      } finally {
        await context.close();
      }
    },
    60_000,
  );

  it("serves a PDF to be shown in place rather than downloaded", async () => {
    const pdf = Buffer.from(
      "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
    );
    const reply = await attach(owner, pageId, { bytes: pdf, name: "report.pdf" });
    const { context, page } = await signedInPage();
    try {
      const response = await page.request.get(`${server.url}${String(reply.body.url)}`);
      expect(response.status()).toBe(200);
      expect(response.headers()["content-type"]).toBe("application/pdf");
      expect(response.headers()["content-disposition"]).toMatch(/^inline;/);
    } finally {
      await context.close();
    }
  }, 60_000);
});
