// Per-user quotas, as a client meets them: active API tokens per user and stored image and attachment bytes per
// workspace owner (uploads, duplicates' copies, imports), each refused with 409 quota_exceeded past its limit, and held
// under concurrent requests. Small limits here; the defaults are in docs/guide/errors-and-limits.md.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../shared/config/config.ts";
import { ATTACHMENT_BOUNDARY, attach, streamedAttachment } from "../../support/attachments.ts";
import { storedBlobBytes } from "../../support/blob-files.ts";
import { pngOfExactly, upload } from "../../support/images.ts";
import { TestServer, type TestUser } from "../../support/server.ts";
import { importVault, type ImportResult } from "../../support/vault-import.ts";
import { createPage } from "../../support/workspace-builders.ts";

const MiB = 1024 * 1024;
const IMAGE = 300 * 1024;

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start({
    settings: { QUOTA_TOKENS_PER_USER: "3", QUOTA_BLOB_BYTES_PER_OWNER: String(MiB) },
  });
});
afterAll(async () => {
  await server.stop();
});

const createToken = (user: TestUser) => user.post("/tokens", { name: "t", scopes: ["pages:read"] });

/** Bytes in the blob store: what the quota protects. */
const storedBytes = (): Promise<number> => storedBlobBytes(server.dataDir);

function expectQuotaExceeded(
  reply: { status: number; body: { error?: { code: string; message: string } } },
  what: RegExp,
): void {
  expect(reply.status).toBe(409);
  expect(reply.body.error?.code).toBe("quota_exceeded");
  expect(reply.body.error?.message).toMatch(what);
}

describe("API tokens per user", () => {
  it("are at most 100 active by default", () => {
    expect(loadConfig({}).QUOTA_TOKENS_PER_USER).toBe(100);
  });

  it("refuses one more active token with 409 quota_exceeded, and takes one again once a token is revoked", async () => {
    const ann = await server.registered("ann");
    const made = [await createToken(ann), await createToken(ann), await createToken(ann)];
    expect(made.map((reply) => reply.status)).toEqual([201, 201, 201]);
    expectQuotaExceeded(await createToken(ann), /3 active API tokens/);
    expect(((await ann.get("/tokens")).body.data as unknown[]).length).toBe(3);
    expect((await ann.delete(`/tokens/${String(made[0]?.body.id)}`)).status).toBe(204);
    expect((await createToken(ann)).status).toBe(201);
    // Another user's quota is their own.
    expect((await createToken(await server.registered("bea"))).status).toBe(201);
  });

  it("holds under concurrent creations: no more than the quota is made", async () => {
    const cal = await server.registered("cal");
    const replies = await Promise.all(Array.from({ length: 8 }, () => createToken(cal)));
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(3);
    for (const reply of replies.filter((answer) => answer.status !== 201)) expectQuotaExceeded(reply, /API tokens/);
    expect(((await cal.get("/tokens")).body.data as unknown[]).length).toBe(3);
  });
});

describe("stored image bytes per workspace owner", () => {
  it("refuses an upload, a duplicate or an import that would pass the quota, storing nothing", async () => {
    const dan = await server.registered("dan");
    const pageId = String((await dan.post("/pages", { title: "Pictures", markdown: "" })).body.id);
    const ids: string[] = [];
    for (let index = 0; index < 2; index++) {
      const uploaded = await upload(dan, pageId, {
        file: { bytes: await pngOfExactly(IMAGE), name: "a.png" },
        alt: "a",
      });
      expect(uploaded.status, uploaded.text).toBe(201);
      ids.push(String(uploaded.body.id));
    }
    const markdown = ids.map((id) => `![a](/api/v1/images/${id})`).join("\n");
    expect(
      (await dan.call("PUT", `/pages/${pageId}/content`, { json: { markdown }, headers: { "if-match": "*" } })).status,
    ).toBe(200);
    const before = await storedBytes();

    // 600 KB stored: a copy of both images would make 1,200 KB.
    expectQuotaExceeded(await dan.post(`/pages/${pageId}/duplicate`, {}), /more than 1 MB/);
    // A third image fits (900 KB); a fourth does not.
    expect(
      (await upload(dan, pageId, { file: { bytes: await pngOfExactly(IMAGE), name: "c.png" }, alt: "c" })).status,
    ).toBe(201);
    expectQuotaExceeded(
      await upload(dan, pageId, { file: { bytes: await pngOfExactly(IMAGE), name: "d.png" }, alt: "d" }),
      /more than 1 MB/,
    );
    const png = (await pngOfExactly(IMAGE)).toString("base64");
    expectQuotaExceeded(
      await importVault(dan, [
        { path: "note.md", content: "![[e.png]]" },
        { path: "e.png", content: png },
      ]),
      /more than 1 MB/,
    );
    expect(await storedBytes()).toBe(before + IMAGE);
    expect(((await dan.get("/pages?limit=100")).body.data as unknown[]).length).toBe(1);
  });

  it("holds under concurrent duplicates: the copies that fit are made, the rest refused", async () => {
    const eve = await server.registered("eve");
    const pageId = String((await eve.post("/pages", { title: "One picture", markdown: "" })).body.id);
    const uploaded = await upload(eve, pageId, { file: { bytes: await pngOfExactly(IMAGE), name: "a.png" }, alt: "a" });
    expect(uploaded.status).toBe(201);
    await eve.call("PUT", `/pages/${pageId}/content`, {
      json: { markdown: `![a](/api/v1/images/${String(uploaded.body.id)})` },
      headers: { "if-match": "*" },
    });
    const before = await storedBytes();
    const replies = await Promise.all(Array.from({ length: 4 }, () => eve.post(`/pages/${pageId}/duplicate`, {})));
    const made = replies.filter((reply) => reply.status === 201).length;
    // 300 KB stored, 300 KB a copy, 1 MiB allowed: two copies fit, never three.
    expect(made).toBe(2);
    for (const reply of replies.filter((answer) => answer.status !== 201)) expectQuotaExceeded(reply, /more than 1 MB/);
    expect(await storedBytes()).toBe(before + made * IMAGE);
  });
});

describe("stored attachment bytes per workspace owner", () => {
  const KiB = 1024;
  const file = (kib: number) => Buffer.alloc(kib * KiB, kib);
  const filesPage = { title: "Files", markdown: "" };

  it("count with images: once attachments fill the quota, the next attachment or image upload, a duplicate and an import are refused, storing nothing", async () => {
    const fay = await server.registered("fay");
    const pageId = await createPage(fay, filesPage);
    for (const kib of [400, 400])
      expect((await attach(fay, pageId, { bytes: file(kib), name: `${kib}.bin` })).status).toBe(201);
    const before = await storedBytes();
    // 800 KiB stored of 1 MiB.
    expectQuotaExceeded(
      await attach(fay, pageId, { bytes: file(300), name: "more.bin" }),
      /more than 1 MB of images and files/,
    );
    expectQuotaExceeded(
      await upload(fay, pageId, { file: { bytes: await pngOfExactly(IMAGE), name: "a.png" }, alt: "a" }),
      /more than 1 MB/,
    );
    expectQuotaExceeded(await fay.post(`/pages/${pageId}/duplicate`, {}), /more than 1 MB/);
    expectQuotaExceeded(
      await importVault(fay, [
        { path: "note.md", content: "[[paper.pdf]]" },
        { path: "paper.pdf", content: file(300).toString("base64") },
      ]),
      /more than 1 MB/,
    );
    expect(await storedBytes()).toBe(before);
    expect(((await fay.get(`/pages/${pageId}/attachments`)).body.data as unknown[]).length).toBe(2);
    // What is left still fits.
    expect((await attach(fay, pageId, { bytes: file(200), name: "fits.bin" })).status).toBe(201);
  });

  it("keeps counting a deleted attachment and a trashed page's files until the page is purged from the trash", async () => {
    const gus = await server.registered("gus");
    const [full, other] = [await createPage(gus, filesPage), await createPage(gus, filesPage)];
    const big = await attach(gus, full, { bytes: file(900), name: "big.bin" });
    expect(big.status).toBe(201);
    expectQuotaExceeded(await attach(gus, other, { bytes: file(300), name: "a.bin" }), /more than 1 MB/);
    expect((await gus.delete(`/pages/${full}/attachments/${String(big.body.id)}`)).status).toBe(204);
    expectQuotaExceeded(await attach(gus, other, { bytes: file(300), name: "a.bin" }), /more than 1 MB/);
    // In the trash its bytes are still stored: trashing and uploading again cannot store without bound.
    expect((await gus.delete(`/pages/${full}`)).status).toBeLessThan(300);
    expectQuotaExceeded(await attach(gus, other, { bytes: file(300), name: "a.bin" }), /more than 1 MB/);
    const before = await storedBytes();
    expect((await gus.delete(`/trash/page/${full}`)).status).toBe(204);
    await expect.poll(storedBytes).toBe(before - 900 * KiB);
    expect((await attach(gus, other, { bytes: file(300), name: "a.bin" })).status).toBe(201);
  });

  it("counts images and files together through the trash and a restore, frees them on a purge, and counts the same after a replay of the history", async () => {
    const kim = await server.registered("kim");
    const [pictures, files] = [await createPage(kim, filesPage), await createPage(kim, filesPage)];
    expect(
      (await upload(kim, pictures, { file: { bytes: await pngOfExactly(IMAGE), name: "a.png" }, alt: "a" })).status,
    ).toBe(201);
    expect((await attach(kim, files, { bytes: file(600), name: "b.bin" })).status).toBe(201);
    // 900 KiB stored of 1 MiB, in the trash or not.
    expectQuotaExceeded(await attach(kim, pictures, { bytes: file(200), name: "c.bin" }), /more than 1 MB/);
    expect((await kim.delete(`/pages/${files}`)).status).toBeLessThan(300);
    expect((await kim.post(`/trash/page/${files}/restore`, {})).status).toBeLessThan(300);
    expectQuotaExceeded(await attach(kim, pictures, { bytes: file(200), name: "c.bin" }), /more than 1 MB/);
    // The running total is rebuilt from the log like every read model: the same quota holds after a replay.
    await server.rebuildReadModels();
    expectQuotaExceeded(await attach(kim, pictures, { bytes: file(200), name: "c.bin" }), /more than 1 MB/);
    expect((await kim.delete(`/pages/${files}`)).status).toBeLessThan(300);
    expect((await kim.delete(`/trash/page/${files}`)).status).toBe(204);
    expect((await attach(kim, pictures, { bytes: file(600), name: "c.bin" })).status).toBe(201);
    expectQuotaExceeded(await attach(kim, pictures, { bytes: file(200), name: "d.bin" }), /more than 1 MB/);
  });

  it("refuses an upload whose declared size cannot fit with 409 before its bytes are read", async () => {
    const ivy = await server.registered("ivy");
    const pageId = await createPage(ivy, filesPage);
    expect((await attach(ivy, pageId, { bytes: file(800), name: "most.bin" })).status).toBe(201);
    const before = await storedBytes();
    // 800 KiB stored of 1 MiB: 9 blocks of 100 KiB declared, one sent, the rest never.
    const blocks = 9;
    const blockSize = 100 * KiB;
    const head = `--${ATTACHMENT_BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="big.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`;
    const length =
      Buffer.byteLength(head) + blocks * blockSize + Buffer.byteLength(`\r\n--${ATTACHMENT_BOUNDARY}--\r\n`);
    const answer = await streamedAttachment(server.url, ivy, pageId, {
      blocks,
      blockSize,
      name: "big.bin",
      stopAfter: 1,
      headers: { "content-length": String(length) },
    });
    expect(answer.status, answer.body).toBe(409);
    expect(answer.bodyEnded).toBe(false);
    expect((JSON.parse(answer.body) as { error: { code: string } }).error.code).toBe("quota_exceeded");
    expect(await storedBytes()).toBe(before);
    // Room for what is left is still there.
    expect((await attach(ivy, pageId, { bytes: file(200), name: "fits.bin" })).status).toBe(201);
  });

  it("counts a file linked by several imported notes once, as it is stored once: every note imports", async () => {
    const jon = await server.registered("jon");
    const before = await storedBytes();
    const pdf = Buffer.concat([Buffer.from("%PDF-1.7\n"), file(400)]);
    const notes = Array.from({ length: 5 }, (_, index) => ({
      path: `note ${index + 1}.md`,
      content: `See [[paper.pdf]] (${index + 1}).`,
    }));
    const reply = await importVault(jon, [...notes, { path: "paper.pdf", content: pdf.toString("base64") }]);
    expect(reply.status, reply.text).toBe(201);
    const result = reply.body as unknown as ImportResult;
    expect(result).toMatchObject({ attachmentsUploaded: 1, pagesCreated: 5, errors: [] });
    expect(await storedBytes()).toBe(before + pdf.length);
    // 1 MiB allowed, 400 KiB held: another 400 KiB fits, and then no more.
    const pageId = await createPage(jon, filesPage);
    expect((await attach(jon, pageId, { bytes: file(400), name: "b.bin" })).status).toBe(201);
    expectQuotaExceeded(await attach(jon, pageId, { bytes: file(400), name: "c.bin" }), /more than 1 MB/);
  });

  it("holds under concurrent uploads: the files that fit are kept, the rest refused", async () => {
    const hal = await server.registered("hal");
    const pageId = await createPage(hal, filesPage);
    const before = await storedBytes();
    const replies = await Promise.all(
      Array.from({ length: 4 }, (_, index) => attach(hal, pageId, { bytes: file(400), name: `${index}.bin` })),
    );
    // 400 KiB a file, 1 MiB allowed: two fit, never three.
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(2);
    for (const reply of replies.filter((answer) => answer.status !== 201)) expectQuotaExceeded(reply, /more than 1 MB/);
    expect(await storedBytes()).toBe(before + 2 * 400 * KiB);
  });
});
