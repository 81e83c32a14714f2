// A client generated from the API reference (openapi-typescript) and driven with openapi-fetch, as a user of
// the API would: the README's walkthrough, reading markdown, a conditional replace with If-Match, an
// Idempotency-Key replay with the new page's Location and an image upload, all type-checked against the
// generated types with no casts.
import { readFile } from "node:fs/promises";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintSession, SESSION_COOKIE } from "../../shared/auth/session-verifier.ts";
import type { paths } from "../../client/index.ts";
import { API_TYPES_FILE, generateApiTypes } from "../support/api-types.ts";
import { makeImage } from "../support/images.ts";
import { TEST_SESSION_SECRET, TestServer } from "../support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

describe("a client generated from the API reference", () => {
  it("is generated from the document the server serves now (npm run api-types rewrites it)", async () => {
    const reply = await server.anonymous().get("/api/v1/openapi.json");
    expect(await generateApiTypes(reply.text)).toBe(await readFile(API_TYPES_FILE, "utf8"));
  }, 30_000);

  it("runs the README's walkthrough through openapi-fetch", async () => {
    const session = await mintSession(TEST_SESSION_SECRET, { sub: crypto.randomUUID(), email: "ann@example.com", name: "Ann" });
    const browser = createClient<paths>({ baseUrl: server.url, headers: { cookie: `${SESSION_COOKIE}=${session}` } });

    const me = await browser.GET("/api/v1/me");
    expect(me.data?.email).toBe("ann@example.com");

    const created = await browser.POST("/api/v1/tokens", { body: { name: "my script", scopes: ["pages:read", "pages:write"], expiresAt: null } });
    const token = created.data?.token;
    if (!token) throw new Error(`no token: ${JSON.stringify(created.error)}`);
    const api = createClient<paths>({ baseUrl: server.url, headers: { authorization: `Bearer ${token}` } });

    const folder = await api.POST("/api/v1/folders", { body: { name: "Projects", parentId: null } });
    const folderId = folder.data?.id;
    if (!folderId) throw new Error(`no folder: ${JSON.stringify(folder.error)}`);

    // The same Idempotency-Key and body: the first answer again, saying it is a replay, and one page only.
    const key = crypto.randomUUID();
    const newPage = { title: "Q4 plan", markdown: "# Goals\n\nShip it.", parentId: folderId };
    const first = await api.POST("/api/v1/pages", { params: { header: { "Idempotency-Key": key } }, body: newPage });
    const again = await api.POST("/api/v1/pages", { params: { header: { "Idempotency-Key": key } }, body: newPage });
    const pageId = first.data?.id;
    if (!pageId) throw new Error(`no page: ${JSON.stringify(first.error)}`);
    expect(again.response.status).toBe(201);
    expect(again.data?.id).toBe(pageId);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    // The 201's Location, a header the document declares (so the generated types name it), is the new page's
    // path, on the replay too; the page reads there.
    const location: paths["/api/v1/pages"]["post"]["responses"][201]["headers"]["Location"] = first.response.headers.get("location") ?? undefined;
    expect(location).toBe(`/api/v1/pages/${pageId}`);
    expect(again.response.headers.get("location")).toBe(location);
    const located = await fetch(new URL(location ?? "/", server.url), { headers: { authorization: `Bearer ${token}` } });
    expect(await located.json()).toMatchObject({ id: pageId, title: "Q4 plan" });

    const resolved = await api.GET("/api/v1/pages/resolve", { params: { query: { title: "q4 plan" } } });
    expect(resolved.data?.data.map((page) => page.id)).toEqual([pageId]);
    const listed = await api.GET("/api/v1/pages", { params: { query: { limit: 10 } } });
    expect(listed.data?.data.map((page) => page.id)).toEqual([pageId]);

    // The markdown is text/markdown, read as text; its ETag makes the replace conditional.
    const content = await api.GET("/api/v1/pages/{pageId}/content", { params: { path: { pageId } }, parseAs: "text" });
    expect(content.data).toContain("# Goals");
    const etag = content.response.headers.get("etag");
    if (!etag) throw new Error("no ETag");
    const replaced = await api.PUT("/api/v1/pages/{pageId}/content", {
      params: { path: { pageId }, header: { "If-Match": etag } },
      body: { markdown: "# Goals\n\nShip it twice." },
      parseAs: "text",
    });
    expect(replaced.response.status).toBe(200);
    expect(replaced.data).toContain("Ship it twice.");
    const stale = await api.PUT("/api/v1/pages/{pageId}/content", { params: { path: { pageId }, header: { "If-Match": etag } }, body: { markdown: "lost update" } });
    expect(stale.response.status).toBe(412);
    expect(stale.error?.error.code).toBe("precondition_failed");

    const png = await makeImage("png");
    const uploaded = await api.POST("/api/v1/pages/{pageId}/images", {
      params: { path: { pageId } },
      body: { file: new Blob([new Uint8Array(png)], { type: "image/png" }), alt: "a chart" },
      bodySerializer: (parts) => {
        const form = new FormData();
        form.append("alt", parts.alt);
        form.append("file", parts.file, "chart.png");
        return form;
      },
    });
    // 201 with the image's record, or 202 (recorded, not visible yet) with its id: either way the id is there.
    const imageId = uploaded.data?.id;
    if (!imageId) throw new Error(`no image: ${JSON.stringify(uploaded.error)}`);
    if (uploaded.data && "markdown" in uploaded.data) expect(uploaded.data.markdown).toContain(imageId);
    const image = await api.GET("/api/v1/images/{imageId}", { params: { path: { imageId } }, parseAs: "arrayBuffer" });
    expect(image.response.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(image.data ?? new ArrayBuffer(0)).equals(png)).toBe(true);
  }, 30_000);
});
