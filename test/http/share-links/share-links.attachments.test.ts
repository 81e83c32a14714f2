// A page's attachments through its share link, as a browser without an account reaches them: the rendered page
// links to them through the link, the bytes are served as safely as under /api/v1, and every answer that shows
// nothing is the link's one 404 (the image route's, byte for byte) or its password form.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attach } from "../../support/attachments.ts";
import { makeImage, upload } from "../../support/images.ts";
import { TestServer, type Client } from "../../support/server.ts";
import { createShareLink, publicRequest, unlock } from "../../support/share-links.ts";
import { createFolder, createPage } from "../../support/workspace-builders.ts";

let server: TestServer;
let offsetMs = 0;
beforeAll(async () => {
  server = await TestServer.start({ clock: () => new Date(Date.now() + offsetMs) });
});
afterAll(async () => {
  await server.stop();
});

const PDF = Buffer.from("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
const HTML = Buffer.from("<!doctype html><script>document.title = 'ran'</script><p>hello</p>");

async function fetchPublic(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(`${server.url}${path}`, { headers, redirect: "manual" });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function attached(client: Client, pageId: string, bytes: Buffer, name: string): Promise<string> {
  const reply = await attach(client, pageId, { bytes, name });
  expect(reply.status, reply.text).toBe(201);
  return String(reply.body.id);
}

/** What two answers share, leaving out what names the request itself (its id, its time, the rate budget left). */
const comparable = (answer: { status: number; headers: Headers; bytes: Buffer }) => ({
  status: answer.status,
  body: answer.bytes.toString("utf8"),
  headers: [...answer.headers].filter(([name]) => !["date", "x-request-id", "ratelimit"].includes(name)),
});

describe("a page's attachments through its share link", () => {
  it("are linked through the link on the rendered page and served with the API's safe headers, never cached", async () => {
    const owner = await server.registered("owner");
    const pageId = await createPage(owner, { title: "Report" });
    const pdf = await attach(owner, pageId, { bytes: PDF, name: "report.pdf" });
    const html = await attach(owner, pageId, { bytes: HTML, name: "page.html" });
    expect(
      (
        await owner.call("PATCH", `/pages/${pageId}/content`, {
          json: { append: `\n\n${String(pdf.body.markdown)} and ${String(html.body.markdown)}` },
        })
      ).status,
    ).toBe(200);
    const link = await createShareLink(owner, "page", pageId);
    const [pdfPath, htmlPath] = [
      `${link.path}/attachments/${String(pdf.body.id)}`,
      `${link.path}/attachments/${String(html.body.id)}`,
    ];

    const page = await publicRequest(server.url, link.path);
    expect(page.text).toContain(`<a href="${pdfPath}">report.pdf</a>`);
    expect(page.text).toContain(`<a href="${htmlPath}">page.html</a>`);
    expect(page.text).not.toContain("/api/v1/attachments/");

    const inline = await fetchPublic(pdfPath);
    expect(inline.status).toBe(200);
    expect(inline.bytes.equals(PDF)).toBe(true);
    expect(inline.headers.get("content-type")).toBe("application/pdf");
    expect(inline.headers.get("content-disposition")).toMatch(/^inline; filename="report.pdf"/);
    expect(inline.headers.get("x-content-type-options")).toBe("nosniff");
    expect(inline.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(inline.headers.get("cache-control")).toBe("no-store");
    expect(inline.headers.get("referrer-policy")).toBe("no-referrer");
    expect(inline.headers.get("x-robots-tag")).toBe("noindex, nofollow");

    const download = await fetchPublic(htmlPath);
    expect(download.status).toBe(200);
    expect(download.bytes.equals(HTML)).toBe(true);
    expect(download.headers.get("content-type")).toBe("application/octet-stream");
    expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename="page.html"/);
  });

  it("answers a byte range with 206, a range past the end with 416, and If-None-Match with 304", async () => {
    const owner = await server.registered("owner");
    const pageId = await createPage(owner);
    const id = await attached(owner, pageId, PDF, "report.pdf");
    const path = `${(await createShareLink(owner, "page", pageId)).path}/attachments/${id}`;
    const part = await fetchPublic(path, { range: "bytes=0-7" });
    expect(part.status).toBe(206);
    expect(part.bytes.toString("latin1")).toBe("%PDF-1.7");
    expect(part.headers.get("content-range")).toBe(`bytes 0-7/${PDF.length}`);
    const past = await fetchPublic(path, { range: `bytes=${PDF.length + 10}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${PDF.length}`);
    const etag = (await fetchPublic(path)).headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const unchanged = await fetchPublic(path, { "if-none-match": etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.bytes.length).toBe(0);
  });

  it("answers the image route's 404, byte for byte: another page's file, a deleted one, an unknown or malformed id, a random, revoked or expired link", async () => {
    const owner = await server.registered("owner");
    const [pageId, otherPage] = [await createPage(owner), await createPage(owner)];
    const [own, elsewhere, deleted] = [
      await attached(owner, pageId, PDF, "a.pdf"),
      await attached(owner, otherPage, PDF, "b.pdf"),
      await attached(owner, pageId, PDF, "c.pdf"),
    ];
    expect((await owner.delete(`/pages/${pageId}/attachments/${deleted}`)).status).toBe(204);
    const link = await createShareLink(owner, "page", pageId);
    const revoked = await createShareLink(owner, "page", pageId);
    const expiring = await createShareLink(owner, "page", pageId, {
      expiresAt: new Date(Date.now() + offsetMs + 60_000).toISOString(),
    });
    expect((await fetchPublic(`${link.path}/attachments/${own}`)).status).toBe(200);
    expect((await fetchPublic(`${revoked.path}/attachments/${own}`)).status).toBe(200);
    expect((await fetchPublic(`${expiring.path}/attachments/${own}`)).status).toBe(200);
    expect((await owner.delete(`/share-links/${revoked.id}`)).status).toBe(204);
    const randomSecret = `/s/sl_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")}`;
    offsetMs += 120_000;
    try {
      const answers = await Promise.all(
        [
          `${link.path}/attachments/${elsewhere}`,
          `${link.path}/attachments/${deleted}`,
          `${link.path}/attachments/${crypto.randomUUID()}`,
          `${link.path}/attachments/not-an-id`,
          `${randomSecret}/attachments/${own}`,
          `${revoked.path}/attachments/${own}`,
          `${expiring.path}/attachments/${own}`,
          `${link.path}/images/${crypto.randomUUID()}`,
        ].map((path) => fetchPublic(path)),
      );
      for (const answer of answers) expect(answer.status).toBe(404);
      expect(new Set(answers.map((answer) => JSON.stringify(comparable(answer)))).size).toBe(1);
    } finally {
      offsetMs -= 120_000;
    }
  });

  it("behind a password: the image route's password form without the link's cookie or with a wrong password, the file once unlocked", async () => {
    const owner = await server.registered("owner");
    const pageId = await createPage(owner);
    const id = await attached(owner, pageId, PDF, "secret.pdf");
    const png = await upload(owner, pageId, {
      file: { bytes: await makeImage("png", 4, 4), name: "pic.png", type: "image/png" },
      alt: "",
    });
    expect(png.status, png.text).toBe(201);
    const link = await createShareLink(owner, "page", pageId, { password: "open sesame" });
    const locked = await fetchPublic(`${link.path}/attachments/${id}`);
    expect(locked.status).toBe(401);
    expect(locked.bytes.toString("utf8")).not.toContain("%PDF");
    expect(comparable(locked)).toEqual(comparable(await fetchPublic(`${link.path}/images/${String(png.body.id)}`)));
    expect((await unlock(server.url, link.path, "wrong")).status).toBe(401);
    expect((await fetchPublic(`${link.path}/attachments/${id}`)).status).toBe(401);
    const right = await unlock(server.url, link.path, "open sesame");
    const cookie = (right.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const opened = await fetchPublic(`${link.path}/attachments/${id}`, { cookie });
    expect(opened.status).toBe(200);
    expect(opened.bytes.equals(PDF)).toBe(true);
  });

  it("through a folder link: files of pages below the folder, not of a page outside it or moved out of it", async () => {
    const owner = await server.registered("owner");
    const folderId = await createFolder(owner, { name: "Shared" });
    const [inside, outside] = [await createPage(owner, { parentId: folderId }), await createPage(owner)];
    const [kept, foreign] = [
      await attached(owner, inside, PDF, "in.pdf"),
      await attached(owner, outside, PDF, "out.pdf"),
    ];
    const link = await createShareLink(owner, "folder", folderId);
    const notFound = await fetchPublic(`${link.path}/attachments/${crypto.randomUUID()}`);
    expect((await fetchPublic(`${link.path}/attachments/${kept}`)).status).toBe(200);
    expect(comparable(await fetchPublic(`${link.path}/attachments/${foreign}`))).toEqual(comparable(notFound));
    expect((await owner.post(`/pages/${inside}/move`, { parentId: null })).status).toBe(200);
    expect(comparable(await fetchPublic(`${link.path}/attachments/${kept}`))).toEqual(comparable(notFound));
  });
});
