import { createHash, randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { readdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { imageStream } from "../../../shared/images/image.decider.ts";
import {
  gifWithCorruptLastFrame,
  makeImage,
  pngOfExactly,
  upload,
  worstCasePng,
  type ImageKind,
} from "../../support/images.ts";
import { TestServer, type Client } from "../../support/server.ts";
import { createPage, registeredWithPage, share } from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

const TEN_MB = 10 * 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function imageBytes(
  client: Client,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const credentials = client.credentials;
  const auth: Record<string, string> =
    credentials && "bearer" in credentials
      ? { authorization: `Bearer ${credentials.bearer}` }
      : credentials
        ? { cookie: `app-auth.session_token=${credentials.cookie}` }
        : {};
  const response = await fetch(`${server.url}${url}`, { headers: { ...auth, ...headers } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function blobFiles(): Promise<string[]> {
  return (await readdir(join(server.dataDir, "blobs"), { withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

describe("POST /pages/{pageId}/images", () => {
  const kinds: Array<[ImageKind, string, string]> = [
    ["jpeg", "image/jpeg", "jpg"],
    ["png", "image/png", "png"],
    ["gif", "image/gif", "gif"],
    ["webp", "image/webp", "webp"],
  ];
  it.each(kinds)(
    "accepts a %s image and answers its record, typed from the bytes",
    async (kind, mimeType, extension) => {
      const { owner, pageId } = await registeredWithPage(server);
      const bytes = await makeImage(kind, 64, 48);
      // The declared type and the name say otherwise: neither is believed.
      const reply = await upload(owner, pageId, {
        file: { bytes, name: "holiday photo.bin", type: "text/plain" },
        alt: "A photo",
      });
      expect(reply.status, reply.text).toBe(201);
      const id = String(reply.body.id);
      expect(reply.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        url: `/api/v1/images/${id}`,
        markdown: `![A photo](/api/v1/images/${id})`,
        filename: `${id}.${extension}`,
        originalName: "holiday photo.bin",
        mimeType,
        size: bytes.length,
        width: 64,
        height: 48,
      });
      expect(reply.headers.get("x-consistency-token")).toMatch(/^\d+$/);

      const served = await imageBytes(owner, `/api/v1/images/${id}`);
      expect(served.status).toBe(200);
      expect(served.bytes.equals(bytes)).toBe(true);
      expect(served.headers.get("content-type")).toBe(mimeType);
      expect(served.headers.get("etag")).toBe(`"${sha256(bytes)}"`);
      expect(served.headers.get("x-content-type-options")).toBe("nosniff");
      expect(served.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    },
  );

  it("refuses what is not an accepted image, whatever its name says: 415", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const text = Buffer.from("just some text, not a picture\n");
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    );
    const tiff = await sharp({ create: { width: 8, height: 8, channels: 3, background: "red" } })
      .tiff()
      .toBuffer();
    for (const [bytes, name] of [
      [text, "photo.png"],
      [svg, "drawing.svg"],
      [tiff, "scan.tiff"],
      [Buffer.alloc(0), "empty.png"],
    ] as const) {
      const reply = await upload(owner, pageId, { file: { bytes, name, type: "image/png" }, alt: "x" });
      expect(reply.status, name).toBe(415);
      expect(reply.body.error?.code).toBe("unsupported_media_type");
    }
  });

  it("refuses a truncated image or one with damaged data: 415", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    for (const kind of ["jpeg", "png", "gif", "webp"] as const) {
      const whole = await makeImage(kind, 200, 150);
      const cut = whole.subarray(0, Math.floor(whole.length * 0.6));
      const reply = await upload(owner, pageId, { file: { bytes: cut, name: `cut.${kind}` }, alt: "x" });
      expect(reply.status, kind).toBe(415);
      expect(reply.body.error?.message).toMatch(/truncated or corrupt|not an image/);
    }
  });

  it("decodes every frame of an animated GIF: a damaged last frame is refused with 415", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const reply = await upload(owner, pageId, {
      file: { bytes: await gifWithCorruptLastFrame(), name: "anim.gif" },
      alt: "x",
    });
    expect(reply.status, reply.text).toBe(415);
    expect(reply.body.error).toEqual({
      code: "unsupported_media_type",
      message: expect.stringMatching(/truncated or corrupt/),
    });
  });

  it("accepts an intact animated GIF and records the size of one frame", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const frames = await Promise.all(
      [20, 200].map((red) =>
        sharp({ create: { width: 40, height: 30, channels: 3, background: { r: red, g: 0, b: 0 } } })
          .png()
          .toBuffer(),
      ),
    );
    const gif = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    const reply = await upload(owner, pageId, { file: { bytes: gif, name: "anim.gif" }, alt: "x" });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ mimeType: "image/gif", width: 40, height: 30 });
  });

  it("answers each of 8 concurrent uploads of 100 megapixels (10000×9999 RGBA, about 400 KB)", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const png = await worstCasePng();
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        upload(owner, pageId, { file: { bytes: png, name: `big-${index}.png` }, alt: "big" }),
      ),
    );
    for (const reply of replies) {
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toMatchObject({ mimeType: "image/png", width: 10_000, height: 9_999, size: png.length });
    }
  }, 180_000);

  it("accepts exactly 10 MB and refuses one byte more with 413", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const exactly = await pngOfExactly(TEN_MB);
    const accepted = await upload(owner, pageId, { file: { bytes: exactly, name: "big.png" }, alt: "big" });
    expect(accepted.status, accepted.text).toBe(201);
    expect(accepted.body.size).toBe(TEN_MB);

    const over = await pngOfExactly(TEN_MB + 1);
    const refused = await upload(owner, pageId, { file: { bytes: over, name: "too-big.png" }, alt: "big" });
    expect(refused.status).toBe(413);
    expect(refused.body.error?.code).toBe("payload_too_large");
  });

  it("answers 413 to a declared size over the limit before any of the body is sent", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const credentials = owner.credentials;
    const cookie = credentials && "cookie" in credentials ? credentials.cookie : "";
    const { port } = new URL(server.url);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const sent = httpRequest({
        port,
        host: "127.0.0.1",
        method: "POST",
        path: `/api/v1/pages/${pageId}/images`,
        headers: {
          cookie: `app-auth.session_token=${cookie}`,
          "content-type": "multipart/form-data; boundary=x",
          "content-length": String(200 * 1024 * 1024),
        },
      });
      sent.on("response", (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => {
          // The 200 MB were never going to come: hang up, as such a client would.
          sent.destroy();
          resolve({ status: response.statusCode ?? 0, body });
        });
      });
      sent.on("error", reject);
      // Headers only: the 200 MB never come.
      sent.flushHeaders();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: "payload_too_large", message: expect.stringContaining("10 MB") },
    });
  });

  it("needs both fields, as multipart/form-data: 400 for a missing one, 415 for JSON", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const bytes = await makeImage("png");
    const noFile = await upload(owner, pageId, { alt: "alt only" });
    expect(noFile.status).toBe(400);
    expect(noFile.body.error?.message).toMatch(/body\.file/);
    const noAlt = await upload(owner, pageId, { file: { bytes, name: "a.png" } });
    expect(noAlt.status).toBe(400);
    expect(noAlt.body.error?.message).toMatch(/body\.alt/);
    const json = await owner.post(`/pages/${pageId}/images`, { file: bytes.toString("base64"), alt: "x" });
    expect(json.status).toBe(415);
    expect(json.body.error?.code).toBe("unsupported_media_type");
    const badAlt = await upload(owner, pageId, { file: { bytes, name: "a.png" }, alt: "bell \u0007" });
    expect(badAlt.status).toBe(400);
    expect(badAlt.body.error?.message).toMatch(/body\.alt/);
    // An empty alt is allowed: a decorative image says nothing.
    const decorative = await upload(owner, pageId, { file: { bytes, name: "a.png" }, alt: "" });
    expect(decorative.status).toBe(201);
    expect(decorative.body.markdown).toBe(`![](/api/v1/images/${String(decorative.body.id)})`);
  });

  it("escapes the alt text so it cannot break out of the markdown's brackets", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const alt = "x](javascript:alert(1)) ![y";
    const reply = await upload(owner, pageId, { file: { bytes: await makeImage("png"), name: "a.png" }, alt });
    expect(reply.status).toBe(201);
    const url = `/api/v1/images/${String(reply.body.id)}`;
    expect(reply.body.markdown).toBe(`![x\\](javascript:alert(1)) \\!\\[y](${url})`);
    // Only the final `](` opens the link: every bracket before it is escaped.
    expect(String(reply.body.markdown).replaceAll("\\]", "").indexOf("](")).toBe(
      String(reply.body.markdown).replaceAll("\\]", "").length - url.length - 3,
    );
  });

  it("keeps only the last part of a sent file name and generates a safe one", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const reply = await upload(owner, pageId, {
      file: { bytes: await makeImage("png"), name: "..\\..\\etc/passwd.png" },
      alt: "x",
    });
    expect(reply.status).toBe(201);
    expect(reply.body.originalName).toBe("passwd.png");
    expect(reply.body.filename).toBe(`${String(reply.body.id)}.png`);
  });

  it("needs the pages:write scope and edit permission: 403 for a viewer, 404 for a stranger or an unknown page", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const bytes = await makeImage("png");
    const form = { file: { bytes, name: "a.png" }, alt: "x" };
    const reader = await server.tokenClient(owner, ["pages:read"]);
    const scoped = await upload(reader, pageId, form);
    expect(scoped.status).toBe(403);
    expect(scoped.body.error?.code).toBe("insufficient_scope");
    const writer = await server.tokenClient(owner, ["pages:write"]);
    expect((await upload(writer, pageId, form)).status).toBe(201);

    const viewer = await server.registered("viewer");
    await share(owner, "page", pageId, viewer.email, "view");
    const viewing = await upload(viewer, pageId, form);
    expect(viewing.status).toBe(403);
    expect(viewing.body.error?.code).toBe("forbidden");
    const editor = await server.registered("editor");
    await share(owner, "page", pageId, editor.email, "edit");
    expect((await upload(editor, pageId, form)).status).toBe(201);

    const stranger = await server.registered("stranger");
    expect((await upload(stranger, pageId, form)).status).toBe(404);
    expect((await upload(owner, randomUUID(), form)).status).toBe(404);
    expect((await upload(server.anonymous(), pageId, form)).status).toBe(401);
  });
});

describe("Idempotency-Key on image upload", () => {
  it("replays the first record to a retry, and refuses the key for another file or page with 422", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const bytes = await makeImage("jpeg");
    const key = randomUUID();
    const first = await upload(owner, pageId, { file: { bytes, name: "a.jpg" }, alt: "x" }, { "idempotency-key": key });
    expect(first.status).toBe(201);
    const again = await upload(owner, pageId, { file: { bytes, name: "a.jpg" }, alt: "x" }, { "idempotency-key": key });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");

    const otherFile = await upload(
      owner,
      pageId,
      { file: { bytes: await makeImage("jpeg"), name: "a.jpg" }, alt: "x" },
      { "idempotency-key": key },
    );
    expect(otherFile.status).toBe(422);
    expect(otherFile.body.error?.code).toBe("idempotency_key_mismatch");
    const otherPage = await upload(
      owner,
      await createPage(owner),
      { file: { bytes, name: "a.jpg" }, alt: "x" },
      { "idempotency-key": key },
    );
    expect(otherPage.status).toBe(422);
    // Keys belong to their caller: another user's same key is a new request.
    const editor = await server.registered("editor");
    await share(owner, "page", pageId, editor.email, "edit");
    const theirs = await upload(
      editor,
      pageId,
      { file: { bytes, name: "a.jpg" }, alt: "x" },
      { "idempotency-key": key },
    );
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(first.body.id);
  });

  it("stores once when the same key arrives concurrently: the others replay it or get 409", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const bytes = await makeImage("webp", 400, 300);
    const key = randomUUID();
    const before = (await blobFiles()).length;
    const replies = await Promise.all(
      Array.from({ length: 6 }, () =>
        upload(owner, pageId, { file: { bytes, name: "w.webp" }, alt: "w" }, { "idempotency-key": key }),
      ),
    );
    const statuses = replies.map((reply) => reply.status);
    expect(
      statuses.every((status) => status === 201 || status === 409),
      statuses.join(","),
    ).toBe(true);
    const created = replies.filter((reply) => reply.status === 201);
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((reply) => reply.body.id)).size).toBe(1);
    expect((await blobFiles()).length).toBe(before + 1);
    const id = String(created[0]?.body.id);
    const { events } = await server.internals.eventStore.read(imageStream(id));
    expect(events.map((event) => event.type)).toEqual(["ImageUploaded"]);
  });
});

describe("GET /images/{imageId}", () => {
  it("serves the bytes to whoever may view the page, answers 304 to a matching If-None-Match, and 404 to others", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const bytes = await makeImage("png", 30, 20);
    const created = await upload(owner, pageId, { file: { bytes, name: "p.png" }, alt: "p" });
    const url = String(created.body.url);
    const etag = `"${sha256(bytes)}"`;

    const notModified = await imageBytes(owner, url, { "if-none-match": `"other", ${etag}` });
    expect(notModified.status).toBe(304);
    expect(notModified.bytes.length).toBe(0);
    expect((await imageBytes(owner, url, { "if-none-match": '"other"' })).status).toBe(200);

    const viewer = await server.registered("viewer");
    const stranger = await server.registered("stranger");
    expect((await imageBytes(viewer, url)).status).toBe(404);
    await share(owner, "page", pageId, viewer.email, "view");
    const seen = await imageBytes(viewer, url);
    expect(seen.status).toBe(200);
    expect(seen.bytes.equals(bytes)).toBe(true);
    expect((await imageBytes(await server.tokenClient(viewer, ["pages:read"]), url)).status).toBe(200);
    expect((await imageBytes(await server.tokenClient(viewer, ["pages:comment"]), url)).status).toBe(403);
    expect((await imageBytes(stranger, url)).status).toBe(404);
    expect((await imageBytes(server.anonymous(), url)).status).toBe(401);
    expect((await imageBytes(owner, `/api/v1/images/${randomUUID()}`)).status).toBe(404);

    // Revoked, and then the page deleted: the image goes with the access.
    expect((await owner.delete(`/shares/entity/page/${pageId}/grants/${viewer.id}`)).status).toBe(204);
    expect((await imageBytes(viewer, url)).status).toBe(404);
    expect((await owner.delete(`/pages/${pageId}`)).status).toBe(204);
    expect((await imageBytes(owner, url)).status).toBe(404);
  });
});

describe("bytes without a record", () => {
  it("are removed when the server starts once they are an hour old; recorded bytes stay", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const created = await upload(owner, pageId, {
      file: { bytes: await makeImage("png"), name: "kept.png" },
      alt: "kept",
    });
    const kept = String(created.body.filename);
    const orphan = `${randomUUID()}.png`;
    const recentOrphan = `${randomUUID()}.png`;
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await server.restart(async () => {
      const directory = join(server.dataDir, "blobs");
      // What a crash between storing the bytes and recording the upload leaves behind.
      await writeFile(join(directory, orphan), await makeImage("png"));
      await writeFile(join(directory, recentOrphan), await makeImage("png"));
      await utimes(join(directory, orphan), twoHoursAgo, twoHoursAgo);
      await utimes(join(directory, kept), twoHoursAgo, twoHoursAgo);
    });
    await expect.poll(blobFiles, { timeout: 5_000 }).not.toContain(orphan);
    const files = await blobFiles();
    expect(files).toContain(kept);
    expect(files).toContain(recentOrphan);
    expect((await imageBytes(owner, String(created.body.url))).status).toBe(200);
  });
});
