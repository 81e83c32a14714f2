// What a share link's anonymous reader gets, seen from their side: the markdown form shows what the HTML form
// shows and nothing more, images through the link; the title once; every refusal under /s/ the same page; the
// right password never locked out by strangers' guesses; an icon. And an attachment's name cannot spoof its type.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachmentForm } from "../../support/attachments.ts";
import { TestServer } from "../../support/server.ts";
import { createShareLink, publicRequest, unlock } from "../../support/share-links.ts";
import { createPage } from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  // Behind a proxy on loopback: each reader's address is what X-Forwarded-For says.
  server = await TestServer.start({ settings: { TRUST_PROXY: "loopback" } });
});
afterAll(async () => {
  await server.stop();
});

describe("a share link's markdown form", () => {
  it("shows no other page's id nor wikilink, and serves images and files through the link as the HTML does", async () => {
    const owner = await server.registered("sharer");
    const secretId = await createPage(owner, { title: "Other secret page", markdown: "not for readers" });
    const imageId = randomUUID();
    const attachmentId = randomUUID();
    const markdown = [
      `See [the plan](/api/v1/pages/${secretId}) and [[Other secret page]] and [ref][r].`,
      "",
      `![logo](/api/v1/images/${imageId})`,
      "",
      `[report](/api/v1/attachments/${attachmentId}) and [out](https://example.com/x)`,
      "",
      `[r]: http://localhost/api/v1/pages/${secretId}`,
    ].join("\n");
    const link = await createShareLink(owner, "page", await createPage(owner, { title: "Public", markdown }));
    const answer = await publicRequest(server.url, link.path, { headers: { accept: "text/markdown" } });
    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain(secretId);
    expect(answer.text).not.toContain("[[Other secret page]]");
    expect(answer.text).not.toContain("/api/v1/");
    expect(answer.text).toContain(`${link.path}/images/${imageId}`);
    expect(answer.text).toContain(`${link.path}/attachments/${attachmentId}`);
    expect(answer.text).toContain("https://example.com/x");
    expect(answer.text).toContain("the plan");
  });
});

describe("a share link's HTML", () => {
  it("shows the title once when the markdown opens with the same heading", async () => {
    const owner = await server.registered("titled");
    const link = await createShareLink(
      owner,
      "page",
      await createPage(owner, { title: "Launch plan", markdown: "# Launch plan\n\nWe launch on Monday." }),
    );
    const answer = await publicRequest(server.url, link.path);
    expect(answer.status).toBe(200);
    expect(answer.text.match(/Launch plan<\/h1>/g)).toHaveLength(1);
    expect(answer.text).toContain("We launch on Monday.");
  });

  it("answers a trailing slash, or another method, with the same 404 page and headers as every refusal under /s/", async () => {
    const owner = await server.registered("slashed");
    const link = await createShareLink(owner, "page", await createPage(owner));
    const unknown = await publicRequest(server.url, "/s/sl_unknown");
    for (const [method, path] of [
      ["GET", `${link.path}/`],
      ["DELETE", link.path],
      ["GET", `${link.path}/nothing/here`],
    ] as const) {
      const answer = await publicRequest(server.url, path, { method });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.headers.get("content-type")).toMatch(/^text\/html/);
      expect(answer.headers.get("content-security-policy")).toBe(unknown.headers.get("content-security-policy"));
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(answer.text).toBe(unknown.text);
    }
  });

  it("has an icon: /favicon.ico answers, not 404", async () => {
    const answer = await publicRequest(server.url, "/favicon.ico");
    expect(answer.status).toBe(204);
  });
});

describe("a password-protected link under guessing", () => {
  it("lets a reader with the right password in however many wrong guesses others made", async () => {
    const owner = await server.registered("guarded");
    const link = await createShareLink(owner, "page", await createPage(owner, { markdown: "behind the door" }), {
      password: "open sesame",
    });
    const guesser = { "x-forwarded-for": "203.0.113.66" };
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 22; attempt += 1)
      statuses.push((await unlock(server.url, link.path, `guess ${attempt}`, guesser)).status);
    expect(statuses.at(-1)).toBe(429);
    const reader = await unlock(server.url, link.path, "open sesame", { "x-forwarded-for": "198.51.100.7" });
    expect(reader.status).toBe(303);
    expect(reader.headers.get("retry-after")).toBeNull();
  });
});

describe("an attachment's name", () => {
  it("refuses bidirectional and control characters, in the name field and in the file's own name", async () => {
    const owner = await server.registered("attacher");
    const pageId = await createPage(owner);
    const bytes = new TextEncoder().encode("MZ not really");
    const named = await owner.call("POST", `/pages/${pageId}/attachments`, {
      body: attachmentForm({ bytes, name: "fine.bin" }, "a\u202egnp.exe"),
    });
    expect(named.status).toBe(400);
    expect(named.body.error?.code).toBe("validation_failed");
    const fileNamed = await owner.call("POST", `/pages/${pageId}/attachments`, {
      body: attachmentForm({ bytes, name: "a\u202egnp.exe" }),
    });
    expect(fileNamed.status).toBe(400);
    expect(fileNamed.body.error?.code).toBe("validation_failed");
  });
});
