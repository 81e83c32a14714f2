// ATTACHMENT_MAX_BYTES as a client meets it, on a server of its own with a small limit: a file of exactly the
// limit is taken, one byte more is refused before the body is all read, and a vault's file over it is left out
// of an import.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attach, attachmentBlobs, PDF, streamedAttachment } from "../../support/attachments.ts";
import { TestServer } from "../../support/server.ts";
import { createPage } from "../../support/workspace-builders.ts";

describe("the size limit", () => {
  let small: TestServer;
  const LIMIT = 64 * 1024;
  beforeAll(async () => {
    small = await TestServer.start({ settings: { ATTACHMENT_MAX_BYTES: String(LIMIT) } });
  });
  afterAll(async () => {
    await small.stop();
  });

  it("accepts a file of exactly the limit", async () => {
    const owner = await small.registered("owner");
    const pageId = await createPage(owner);
    const reply = await attach(owner, pageId, { bytes: Buffer.alloc(LIMIT, 1), name: "exact.bin" });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.size).toBe(LIMIT);
  });

  it("refuses one byte over the limit with 413 before the body is all read, and keeps none of it", async () => {
    const owner = await small.registered("owner");
    const pageId = await createPage(owner);
    const over = await attach(owner, pageId, { bytes: Buffer.alloc(LIMIT + 1, 1), name: "over.bin" });
    expect(over.status).toBe(413);
    expect(over.body.error?.code).toBe("payload_too_large");
    // A body of 100 blocks of 16 KiB, sent without a length; the client stops after 8 (128 KiB) and waits.
    const answer = await streamedAttachment(small.url, owner, pageId, {
      blocks: 100,
      blockSize: 16 * 1024,
      stopAfter: 8,
      name: "huge.bin",
    });
    expect(answer.status).toBe(413);
    expect(answer.bodyEnded).toBe(false);
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: "payload_too_large", message: expect.stringContaining("ATTACHMENT_MAX_BYTES") },
    });
    expect(await attachmentBlobs(small.dataDir)).toHaveLength(1);
    expect((await owner.get(`/pages/${pageId}/attachments`)).body.data).toEqual([]);
  });

  it("leaves a vault's file over the limit out of an import, reported, and keeps the note and the files that fit", async () => {
    const owner = await small.registered("owner");
    const files = [
      { path: "Notes.md", content: "[[fits.pdf]] and [[huge.pdf]]" },
      { path: "fits.pdf", content: Buffer.concat([PDF, Buffer.alloc(LIMIT - PDF.length, 32)]).toString("base64") },
      { path: "huge.pdf", content: Buffer.concat([PDF, Buffer.alloc(LIMIT + 1 - PDF.length, 32)]).toString("base64") },
    ];
    const reply = await owner.call("POST", "/imports/obsidian", { json: { files } });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({
      pagesCreated: 1,
      attachmentsUploaded: 1,
      errors: [
        `"huge.pdf": skipped: larger than ${LIMIT} bytes (ATTACHMENT_MAX_BYTES)`,
        '"Notes.md": link [[huge.pdf]] names no imported file',
      ],
    });
    const [page] = (await owner.get("/pages")).body.data as Array<{ id: string }>;
    const listed = (await owner.get(`/pages/${String(page?.id)}/attachments`)).body.data as Array<{
      filename: string;
      size: number;
    }>;
    expect(listed.map(({ filename, size }) => ({ filename, size }))).toEqual([{ filename: "fits.pdf", size: LIMIT }]);
  });
});
