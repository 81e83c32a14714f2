import { createHash, randomUUID } from "node:crypto";
import { utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  attach,
  attachmentBlobs,
  attachmentForm,
  authHeaders,
  generatedBlock,
  PDF,
  streamedAttachment,
} from "../../support/attachments.ts";
import { TestServer, type Client } from "../../support/server.ts";
import { createPage, registeredWithPage, share } from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const MP3 = Buffer.concat([Buffer.from("ID3"), Buffer.from([4, 0, 0, 0, 0, 0, 0]), Buffer.alloc(2000, 0x55)]);

async function download(
  client: Client,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(`${client.baseUrl.replace(/\/api\/v1$/, "")}${url}`, {
    headers: { ...authHeaders(client), ...headers },
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe("POST /pages/{pageId}/attachments", () => {
  it("attaches a PDF and answers its record with the markdown link to insert; the bytes come back inline as a PDF", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const reply = await attach(owner, pageId, { bytes: PDF, name: "Q3 report.pdf", type: "text/html" });
    expect(reply.status, reply.text).toBe(201);
    const id = String(reply.body.id);
    expect(reply.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      pageId,
      url: `/api/v1/attachments/${id}`,
      markdown: `[Q3 report.pdf](/api/v1/attachments/${id})`,
      filename: "Q3 report.pdf",
      originalName: "Q3 report.pdf",
      mimeType: "application/pdf",
      size: PDF.length,
      sha256: sha256(PDF),
      createdBy: owner.id,
      createdAt: expect.any(String),
    });
    expect(reply.headers.get("location")).toBe(`/api/v1/attachments/${id}`);

    const served = await download(owner, `/api/v1/attachments/${id}`);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(PDF)).toBe(true);
    expect(served.headers.get("content-type")).toBe("application/pdf");
    expect(served.headers.get("content-disposition")).toBe(
      `inline; filename="Q3 report.pdf"; filename*=UTF-8''Q3%20report.pdf`,
    );
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(served.headers.get("etag")).toBe(`"${sha256(PDF)}"`);
    expect(served.headers.get("accept-ranges")).toBe("bytes");

    const listed = await owner.get(`/pages/${pageId}/attachments`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ data: [reply.body], nextCursor: null });
  });

  it("takes the type from the bytes where the format has a signature, from the name only where it has none", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const cases: Array<[Buffer, string, string]> = [
      [MP3, "song.bin", "audio/mpeg"],
      [Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypmp42"), Buffer.alloc(100)]), "clip", "video/mp4"],
      [
        Buffer.concat([Buffer.from("PK"), Buffer.from([3, 4]), Buffer.alloc(100)]),
        "sheet.xlsx",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      ],
      [Buffer.from("a,b\n1,2\n"), "table.csv", "text/csv"],
      // A name claiming a format with a signature is not believed when the bytes do not carry it.
      [Buffer.from("<html><script>alert(1)</script></html>"), "fake.pdf", "application/octet-stream"],
    ];
    for (const [bytes, name, mimeType] of cases) {
      const reply = await attach(owner, pageId, { bytes, name });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body.mimeType, name).toBe(mimeType);
    }
  });

  it("shows it under the `name` field when sent, keeping the file's own name as originalName", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const reply = await attach(
      owner,
      pageId,
      { bytes: PDF, name: "C:\\Users\\me\\scan_0001.pdf" },
      { name: "Signed contract [final].pdf" },
    );
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ filename: "Signed contract [final].pdf", originalName: "scan_0001.pdf" });
    expect(reply.body.markdown).toBe(`[Signed contract \\[final\\].pdf](/api/v1/attachments/${String(reply.body.id)})`);
  });

  it("needs a file, as multipart/form-data", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const noFile = await owner.call("POST", `/pages/${pageId}/attachments`, { body: attachmentForm(null, "x") });
    expect(noFile.status).toBe(400);
    expect(noFile.body.error?.message).toMatch(/body\.file/);
    const json = await owner.post(`/pages/${pageId}/attachments`, { file: "abc" });
    expect(json.status).toBe(415);
  });

  it("streams a 40 MB file in and out whole, with its SHA-256", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const blocks = 40;
    const answer = await streamedAttachment(server.url, owner, pageId, { blocks, name: "recording.bin" });
    expect(answer.status, answer.body).toBe(201);
    const expected = createHash("sha256");
    for (let index = 0; index < blocks; index += 1) expected.update(generatedBlock(index));
    const record = JSON.parse(answer.body) as { id: string; size: number; sha256: string };
    expect(record.size).toBe(40 * 1024 * 1024);
    expect(record.sha256).toBe(expected.digest("hex"));

    const response = await fetch(`${server.url}/api/v1/attachments/${record.id}`, { headers: authHeaders(owner) });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe(String(40 * 1024 * 1024));
    const served = createHash("sha256");
    let size = 0;
    for await (const chunk of response.body ?? []) {
      served.update(chunk);
      size += chunk.length;
    }
    expect(size).toBe(40 * 1024 * 1024);
    expect(served.digest("hex")).toBe(record.sha256);
  }, 120_000);

  it("replays an upload retried with its Idempotency-Key, keeping one attachment and one copy of the bytes", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const key = randomUUID();
    const before = (await attachmentBlobs(server.dataDir)).length;
    const first = await attach(owner, pageId, { bytes: PDF, name: "a.pdf" }, { headers: { "idempotency-key": key } });
    expect(first.status).toBe(201);
    const again = await attach(owner, pageId, { bytes: PDF, name: "a.pdf" }, { headers: { "idempotency-key": key } });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.id).toBe(first.body.id);
    const other = await attach(owner, pageId, { bytes: MP3, name: "a.pdf" }, { headers: { "idempotency-key": key } });
    expect(other.status).toBe(422);
    expect((await owner.get(`/pages/${pageId}/attachments`)).body.data).toHaveLength(1);
    expect((await attachmentBlobs(server.dataDir)).length).toBe(before + 1);
  });
});

describe("GET /attachments/{attachmentId}", () => {
  it("serves HTML, SVG, XML and JavaScript as application/octet-stream to download", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const files: Array<[string, string]> = [
      ["page.html", "<!doctype html><script>document.title='ran'</script>"],
      ["drawing.svg", '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
      ["feed.xml", '<?xml version="1.0"?><x/>'],
      ["tool.js", "alert(1)"],
      ["mystery", "who knows"],
    ];
    for (const [name, text] of files) {
      const reply = await attach(owner, pageId, { bytes: Buffer.from(text), name, type: "text/html" });
      expect(reply.status).toBe(201);
      const served = await download(owner, String(reply.body.url));
      expect(served.headers.get("content-type"), name).toBe("application/octet-stream");
      expect(served.headers.get("content-disposition"), name).toMatch(/^attachment; filename="/);
      expect(served.headers.get("x-content-type-options")).toBe("nosniff");
      expect(served.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    }
  });

  it("answers one byte range with 206, a range past the end with 416, and If-None-Match with 304", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const bytes = Buffer.concat([MP3, Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 256))]);
    const reply = await attach(owner, pageId, { bytes, name: "track.mp3" });
    const url = String(reply.body.url);
    const etag = `"${sha256(bytes)}"`;

    const middle = await download(owner, url, { range: "bytes=100-199" });
    expect(middle.status).toBe(206);
    expect(middle.headers.get("content-range")).toBe(`bytes 100-199/${bytes.length}`);
    expect(middle.headers.get("content-length")).toBe("100");
    expect(middle.headers.get("content-type")).toBe("audio/mpeg");
    expect(middle.bytes.equals(bytes.subarray(100, 200))).toBe(true);

    const open = await download(owner, url, { range: `bytes=${bytes.length - 10}-` });
    expect(open.status).toBe(206);
    expect(open.bytes.equals(bytes.subarray(bytes.length - 10))).toBe(true);
    const suffix = await download(owner, url, { range: "bytes=-5" });
    expect(suffix.bytes.equals(bytes.subarray(bytes.length - 5))).toBe(true);
    const beyondEnd = await download(owner, url, { range: `bytes=0-${bytes.length + 500}` });
    expect(beyondEnd.status).toBe(206);
    expect(beyondEnd.bytes.equals(bytes)).toBe(true);

    const past = await download(owner, url, { range: `bytes=${bytes.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${bytes.length}`);
    expect(JSON.parse(past.bytes.toString())).toMatchObject({ error: { code: "range_not_satisfiable" } });

    // If-Range naming another version: the whole file.
    const stale = await download(owner, url, { range: "bytes=0-9", "if-range": '"0000"' });
    expect(stale.status).toBe(200);
    expect(stale.bytes.length).toBe(bytes.length);

    const cached = await download(owner, url, { "if-none-match": `W/${etag}` });
    expect(cached.status).toBe(304);
    expect(cached.bytes.length).toBe(0);
  });
});

describe("who may see attachments", () => {
  it("answers 404 to an outsider for the bytes, the list, an upload and a deletion, as for ids never used", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const outsider = await server.registered("outsider");
    const reply = await attach(owner, pageId, { bytes: PDF, name: "secret.pdf" });
    const id = String(reply.body.id);
    const never = randomUUID();
    for (const answer of [
      await download(outsider, `/api/v1/attachments/${id}`),
      await download(outsider, `/api/v1/attachments/${never}`),
      await download(outsider, `/api/v1/attachments/${id}`, { range: "bytes=0-1" }),
    ]) {
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.bytes.toString())).toEqual({
        error: { code: "not_found", message: "attachment not found" },
      });
    }
    expect((await outsider.get(`/pages/${pageId}/attachments`)).status).toBe(404);
    expect((await attach(outsider, pageId, { bytes: PDF, name: "mine.pdf" })).status).toBe(404);
    expect((await outsider.delete(`/pages/${pageId}/attachments/${id}`)).status).toBe(404);
    expect((await owner.get(`/pages/${pageId}/attachments`)).body.data).toHaveLength(1);
  });

  it("lets a viewer read but not attach or delete (403), and an editor do both", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const viewer = await server.registered("viewer");
    const editor = await server.registered("editor");
    await share(owner, "page", pageId, viewer.email, "view");
    await share(owner, "page", pageId, editor.email, "edit");
    const reply = await attach(owner, pageId, { bytes: PDF, name: "a.pdf" });
    const id = String(reply.body.id);
    expect((await download(viewer, `/api/v1/attachments/${id}`)).status).toBe(200);
    expect((await attach(viewer, pageId, { bytes: PDF, name: "b.pdf" })).status).toBe(403);
    expect((await viewer.delete(`/pages/${pageId}/attachments/${id}`)).status).toBe(403);
    expect((await attach(editor, pageId, { bytes: PDF, name: "c.pdf" })).status).toBe(201);
    expect((await editor.delete(`/pages/${pageId}/attachments/${id}`)).status).toBe(204);
  });

  it("records uploads and deletions in the page's history; a deleted attachment is gone for everyone", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const reply = await attach(owner, pageId, { bytes: PDF, name: "minutes.pdf" });
    const id = String(reply.body.id);
    expect((await owner.delete(`/pages/${pageId}/attachments/${id}`)).status).toBe(204);
    expect((await owner.delete(`/pages/${pageId}/attachments/${id}`)).status).toBe(404);
    expect((await download(owner, `/api/v1/attachments/${id}`)).status).toBe(404);
    expect((await owner.get(`/pages/${pageId}/attachments`)).body.data).toEqual([]);
    const history = await owner.get(`/pages/${pageId}/history`);
    const changes = (history.body.data as Array<{ changes: { kind: string } }>)
      .map((entry) => entry.changes)
      .filter((change) => change.kind === "attachment");
    expect(changes).toEqual([
      { kind: "attachment", attachmentId: id, action: "deleted", filename: "minutes.pdf" },
      { kind: "attachment", attachmentId: id, action: "uploaded", filename: "minutes.pdf" },
    ]);
  });

  it("keeps attachments through the trash: hidden while the page is deleted, back when it is restored", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const reply = await attach(owner, pageId, { bytes: PDF, name: "kept.pdf" });
    const url = String(reply.body.url);
    expect((await owner.delete(`/pages/${pageId}`)).status).toBe(204);
    expect((await download(owner, url)).status).toBe(404);
    expect((await owner.post(`/trash/page/${pageId}/restore`)).status).toBeLessThan(300);
    const back = await download(owner, url);
    expect(back.status).toBe(200);
    expect(back.bytes.equals(PDF)).toBe(true);
  });

  it("pages the list newest first", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1)
      ids.push(String((await attach(owner, pageId, { bytes: PDF, name: `${index}.pdf` })).body.id));
    const first = await owner.get(`/pages/${pageId}/attachments?limit=2`);
    expect((first.body.data as Array<{ id: string }>).map((item) => item.id)).toEqual([ids[2], ids[1]]);
    const second = await owner.get(`/pages/${pageId}/attachments?limit=2&cursor=${String(first.body.nextCursor)}`);
    expect((second.body.data as Array<{ id: string }>).map((item) => item.id)).toEqual([ids[0]]);
    expect(second.body.nextCursor).toBeNull();
  });
});

describe("purging a page", () => {
  it("removes its attachments' records and bytes, deleted ones included", async () => {
    let ahead = 0;
    const purging = await TestServer.start({ clock: () => new Date(Date.now() + ahead) });
    try {
      const owner = await purging.registered("owner");
      const pageId = await createPage(owner);
      const keptId = String((await attach(owner, pageId, { bytes: PDF, name: "kept.pdf" })).body.id);
      const removedId = String((await attach(owner, pageId, { bytes: MP3, name: "removed.mp3" })).body.id);
      expect((await owner.delete(`/pages/${pageId}/attachments/${removedId}`)).status).toBe(204);
      // Another page's attachment stays.
      const otherPage = await createPage(owner);
      const otherId = String((await attach(owner, otherPage, { bytes: PDF, name: "other.pdf" })).body.id);
      // A deletion keeps the bytes: the page may still be restored to a state that links them.
      expect((await attachmentBlobs(purging.dataDir)).sort()).toEqual(
        [`${keptId}.attachment`, `${otherId}.attachment`, `${removedId}.attachment`].sort(),
      );
      expect((await owner.delete(`/pages/${pageId}`)).status).toBe(204);
      ahead = 31 * 24 * 60 * 60 * 1000;
      await purging.restart();
      const deadline = Date.now() + 10_000;
      while ((await attachmentBlobs(purging.dataDir)).length > 1) {
        if (Date.now() > deadline) throw new Error("the attachments' bytes were not removed");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await attachmentBlobs(purging.dataDir)).toEqual([`${otherId}.attachment`]);
      expect((await download(owner, `/api/v1/attachments/${keptId}`)).status).toBe(404);
      expect((await download(owner, `/api/v1/attachments/${otherId}`)).status).toBe(200);
    } finally {
      await purging.stop();
    }
  });
});

describe("duplicating a page", () => {
  it("copies its live attachments to the copy, with links in its markdown pointing at the copies", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const kept = await attach(owner, pageId, { bytes: PDF, name: "plan.pdf" });
    const removed = await attach(owner, pageId, { bytes: MP3, name: "old.mp3" });
    await owner.delete(`/pages/${pageId}/attachments/${String(removed.body.id)}`);
    const content = await owner.get(`/pages/${pageId}/content`);
    const markdown = `See ${String(kept.body.markdown)}.`;
    expect(
      (
        await owner.call("PUT", `/pages/${pageId}/content`, {
          json: { markdown },
          headers: { "if-match": String(content.headers.get("etag")) },
        })
      ).status,
    ).toBe(200);

    const copy = await owner.post(`/pages/${pageId}/duplicate`, {});
    expect(copy.status, copy.text).toBe(201);
    const copyId = String(copy.body.id);
    const listed = (await owner.get(`/pages/${copyId}/attachments`)).body.data as Array<{
      id: string;
      url: string;
      filename: string;
      sha256: string;
    }>;
    expect(listed.map((item) => item.filename)).toEqual(["plan.pdf"]);
    const [copied] = listed;
    expect(copied?.id).not.toBe(kept.body.id);
    expect(copied?.sha256).toBe(kept.body.sha256);
    const copiedContent = await owner.get(`/pages/${copyId}/content`);
    expect(copiedContent.text).toContain(`See [plan.pdf](${String(copied?.url)}).`);
    const bytes = await download(owner, String(copied?.url));
    expect(bytes.bytes.equals(PDF)).toBe(true);
    // The copy's history starts with its creation, then the attachment.
    const history = (await owner.get(`/pages/${copyId}/history`)).body.data as Array<{ changes: { kind: string } }>;
    expect(history.map((entry) => entry.changes.kind)).toEqual(["attachment", "created"]);
  });
});

describe("bytes without a record", () => {
  it("are removed when the server starts once they are an hour old; recorded attachments keep theirs", async () => {
    const { owner, pageId } = await registeredWithPage(server);
    const created = await attach(owner, pageId, { bytes: PDF, name: "kept.pdf" });
    const kept = `${String(created.body.id)}.attachment`;
    const orphan = `${randomUUID()}.attachment`;
    const recentOrphan = `${randomUUID()}.attachment`;
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await server.restart(async () => {
      const directory = join(server.dataDir, "blobs");
      // What a crash between storing the bytes and recording the upload leaves behind.
      await writeFile(join(directory, orphan), PDF);
      await writeFile(join(directory, recentOrphan), PDF);
      await utimes(join(directory, orphan), twoHoursAgo, twoHoursAgo);
      await utimes(join(directory, kept), twoHoursAgo, twoHoursAgo);
    });
    await expect.poll(() => attachmentBlobs(server.dataDir), { timeout: 5_000 }).not.toContain(orphan);
    const files = await attachmentBlobs(server.dataDir);
    expect(files).toContain(kept);
    expect(files).toContain(recentOrphan);
    expect((await download(owner, String(created.body.url))).status).toBe(200);
  });
});
