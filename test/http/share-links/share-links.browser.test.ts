// Share links opened in a real headless Chromium, as a visitor without an account: the page with its image, the
// password form, a folder link's navigation, and a page full of script payloads that must not run. Without
// Debian's chromium the test skips, saying why; with CI=true a missing chromium is a failure.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumUnavailable, launchChromium } from "../../support/chromium.ts";
import { makeImage, upload } from "../../support/images.ts";
import { TestServer, type TestUser } from "../../support/server.ts";
import { createShareLink } from "../../support/share-links.ts";
import { createFolder, createPage } from "../../support/workspace-builders.ts";

const unavailable = chromiumUnavailable();
if (unavailable) console.warn(`share-link browser test skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)("a share link in a browser", () => {
  let server: TestServer;
  let browser: Browser;
  let owner: TestUser;
  /** A receiver that records every request: a payload that runs would call it. */
  let probe: Server;
  const probed: string[] = [];
  let probeUrl = "";

  beforeAll(async () => {
    server = await TestServer.start();
    owner = await server.registered("owner");
    probe = createServer((request, response) => {
      probed.push(request.url ?? "");
      response.end("ok");
    });
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    probeUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => probe?.close(resolve));
    await server?.stop();
  });

  it("shows the page's title, text and image, the image served through the link", async () => {
    const pageId = await createPage(owner, { title: "Field guide", markdown: "Birds of the **coast**." });
    const uploaded = await upload(owner, pageId, {
      file: { bytes: await makeImage("png", 40, 30), name: "gull.png", type: "image/png" },
      alt: "a gull",
    });
    expect(uploaded.status).toBe(201);
    const imageId = String(uploaded.body.id);
    const appended = await owner.call("PATCH", `/pages/${pageId}/content`, {
      json: { append: `\n\n![a gull](/api/v1/images/${imageId})` },
    });
    expect(appended.status).toBe(200);
    const link = await createShareLink(owner, "page", pageId);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const images: string[] = [];
      page.on("response", (response) => {
        if (response.request().resourceType() === "image")
          images.push(`${response.status()} ${new URL(response.url()).pathname}`);
      });
      await page.goto(`${server.url}${link.path}`);
      expect(await page.title()).toBe("Field guide");
      expect(await page.locator("h1").textContent()).toBe("Field guide");
      expect(await page.locator("main").textContent()).toContain("Birds of the coast.");
      const image = page.locator('img[alt="a gull"]');
      await expect
        .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
        .toBe(40);
      expect(images).toEqual([`200 ${link.path}/images/${imageId}`]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("asks for the password: a wrong one fails, the right one shows the page", async () => {
    const pageId = await createPage(owner, { title: "Vault", markdown: "The combination is 1234." });
    const link = await createShareLink(owner, "page", pageId, { password: "letmein" });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const first = await page.goto(`${server.url}${link.path}`);
      expect(first?.status()).toBe(401);
      expect(await page.locator("body").textContent()).not.toContain("combination");
      await page.fill('input[name="password"]', "guess");
      await page.click('button[type="submit"]');
      await page.waitForLoadState();
      expect(await page.locator('[role="alert"]').textContent()).toContain("not right");
      await page.fill('input[name="password"]', "letmein");
      await page.click('button[type="submit"]');
      await page.waitForURL(`${server.url}${link.path}`);
      expect(await page.locator("main").textContent()).toContain("The combination is 1234.");
      const cookies = await context.cookies();
      expect(cookies).toEqual([
        expect.objectContaining({ name: "share_unlock", path: link.path, httpOnly: true, sameSite: "Strict" }),
      ]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("a folder link navigates from one page to another", async () => {
    const folderId = await createFolder(owner, { name: "Recipes" });
    const first = await createPage(owner, {
      title: "Bread",
      parentId: folderId,
      markdown: "Flour, water, salt. Then [[Butter]].",
    });
    await createPage(owner, { title: "Butter", parentId: folderId, markdown: "Churn the cream." });
    const link = await createShareLink(owner, "folder", folderId);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}${link.path}`);
      expect(await page.locator("h1").textContent()).toBe("Recipes");
      await page.click("nav >> text=Bread");
      await page.waitForURL(`${server.url}${link.path}/pages/${first}`);
      expect(await page.locator("main").textContent()).toContain("Flour, water, salt.");
      await page.click("main >> text=Butter");
      await page.waitForURL(/\/pages\//);
      expect(await page.locator("h1").textContent()).toBe("Butter");
      expect(await page.locator("main").textContent()).toContain("Churn the cream.");
    } finally {
      await context.close();
    }
  }, 60_000);

  it("runs no script from the page: no dialog, no request to the probe, and none of the payloads in its HTML", async () => {
    const payloads = [
      `<script>fetch("${probeUrl}/script"); alert("script")</script>`,
      `<img src=x onerror="fetch('${probeUrl}/onerror'); alert('img')">`,
      `[click me](javascript:fetch('${probeUrl}/javascript'))`,
      `[data](data:text/html,<script>alert('data')</script>)`,
      `<svg xmlns="http://www.w3.org/2000/svg" onload="fetch('${probeUrl}/svg-onload')"><script>fetch("${probeUrl}/svg-script")</script></svg>`,
      `<style>body { background: url("${probeUrl}/style") } main { display: none }</style>`,
      `![remote](${probeUrl}/remote-image.png)`,
      "Plain text survives.",
    ];
    const pageId = await createPage(owner, { title: "Payloads", markdown: payloads.join("\n\n") });
    const link = await createShareLink(owner, "page", pageId);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto(`${server.url}${link.path}`);
      await page.waitForLoadState("networkidle");
      const link_ = page.locator("main a", { hasText: "click me" });
      if ((await link_.count()) > 0) await link_.click();
      await page.waitForTimeout(300);
      expect(dialogs).toEqual([]);
      expect(probed).toEqual([]);
      const main = await page.locator("main").innerHTML();
      for (const forbidden of [
        "<script",
        "onerror",
        "onload",
        "javascript:",
        "data:",
        "<svg",
        "<style",
        `src="${probeUrl}`,
      ])
        expect(main.toLowerCase()).not.toContain(forbidden.toLowerCase());
      expect(await page.locator("main").isVisible()).toBe(true);
      expect(await page.locator("main").textContent()).toContain("Plain text survives.");
      const source = await (await context.request.get(`${server.url}${link.path}`)).text();
      expect(source.match(/<script/gi)).toBeNull();
      expect(source.match(/<style/gi)).toHaveLength(1);
    } finally {
      await context.close();
    }
  }, 60_000);
});
