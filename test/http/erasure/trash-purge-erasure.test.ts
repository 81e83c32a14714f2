// Purging from the trash erases the item's content: afterwards no file under DATA_DIR holds a word of its title,
// markdown, comments or folder name (event log, read models and their search index, WAL files, key store,
// webhook log), before and after the read models are rebuilt from the log; the API answers 404 as for an id
// never seen, a webhook replay and the vault export carry none of it, and other people's pages keep theirs.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { attach } from "../../support/attachments.ts";
import { makeImage, upload } from "../../support/images.ts";
import { exportVault } from "../../support/vault-zip.ts";
import { anchor, openThread } from "../../support/threads.ts";
import { filesHolding } from "../../support/raw-scan.ts";
import { runToExit } from "../../support/processes.ts";
import { productionStack, TEST_SESSION_SECRET, type TestUser } from "../../support/server.ts";
import { serverForFile } from "../../support/server-for-file.ts";
import { SseStream } from "../../support/sse.ts";
import { receiversForFile, type WebhookReceiver } from "../../support/webhook-receiver.ts";
import { addMember, createFolder, createPage, share } from "../../support/workspace-builders.ts";
import { until } from "../../support/poll.ts";

const file = serverForFile({ settings: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true", WEBHOOK_FIRST_RETRY_MS: "20" } });
const receiver = receiversForFile();
let endpoint: WebhookReceiver;
beforeAll(async () => {
  endpoint = await receiver();
});

async function toTrash(owner: TestUser, type: "page" | "folder", id: string): Promise<void> {
  const deleted = await owner.delete(type === "page" ? `/pages/${id}` : `/folders/${id}?recursive=true`);
  expect(deleted.status, deleted.text).toBe(204);
}

/** The vault export as one text: every file's path and content, lower-cased. */
async function exportedText(owner: TestUser): Promise<string> {
  const vault = await exportVault(owner);
  expect(vault.status, vault.text).toBe(200);
  return [...vault.files]
    .map(([path, bytes]) => `${path}\n${Buffer.from(bytes).toString("utf8")}`)
    .join("\n")
    .toLowerCase();
}

/** Raw bytes with the server stopped (WAL files checkpointed), then again after a rebuild of the read models from the log. */
async function expectNowhere(words: readonly string[]): Promise<void> {
  await file.server.restart(async () => {
    expect(filesHolding(file.server.dataDir, words)).toEqual([]);
  });
  await file.server.rebuildReadModels();
  await file.server.restart(async () => {
    expect(filesHolding(file.server.dataDir, words)).toEqual([]);
  });
}

describe("DELETE /trash/{type}/{id}", () => {
  it("erases a purged page's title, markdown, comments and recorded answers everywhere, replay included, and leaves another's page as it was", async () => {
    const words = ["Quorblefinch", "Zanthoxyloid", "Mirthquench", "Plumbaginous", "Frumentaceous", "Wyvernspire"];
    const ann = await file.server.registered("ann");
    const bob = await file.server.registered("bob");
    const hook = await ann.post("/webhooks", { url: endpoint.url, events: ["*"] });
    expect(hook.status, hook.text).toBe(201);

    // Ann's page: created with an Idempotency-Key (its answer holds the title), renamed, rewritten; Bob comments on it.
    const created = await ann.call("POST", "/pages", {
      json: { title: "Quorblefinch notes", markdown: "before the quoted words after, Zanthoxyloid" },
      headers: { "idempotency-key": "ann-creates-her-page" },
    });
    expect(created.status, created.text).toBe(201);
    const pageId = String(created.body.id);
    expect((await ann.patch(`/pages/${pageId}`, { title: "Mirthquench notes" })).status).toBe(200);
    expect((await share(ann, "page", pageId, bob.email, "comment")).status).toBe(200);
    const quote = { quote: "Zanthoxyloid", prefix: "after, ", suffix: "" };
    await openThread(bob, pageId, "Bob's Plumbaginous remark", quote);
    const annsReply = await ann.call("POST", `/pages/${pageId}/comments`, {
      json: { body: "Ann's Frumentaceous answer", anchor },
      headers: { "idempotency-key": "ann-comments" },
    });
    expect(annsReply.status, annsReply.text).toBe(201);
    // Ann's other page and Bob's own page, which stay.
    const annsOtherPage = await createPage(ann, { title: "Another page of Ann's" });
    const bobsPage = await createPage(bob, { title: "Bob's Wyvernless page", markdown: "Bob keeps these words" });
    await ann.patch(`/pages/${pageId}`, { icon: "🐉" });
    await endpoint.waitFor(4);
    expect(filesHolding(file.server.dataDir, words).length).toBeGreaterThan(0);
    expect((await ann.get(`/search?q=Zanthoxyloid`)).body.data).toHaveLength(1);

    expect(await exportedText(ann)).toContain("mirthquench");
    await toTrash(ann, "page", pageId);
    const purged = await ann.delete(`/trash/page/${pageId}`);
    expect(purged.status, purged.text).toBe(204);
    // At once: the search index's segments were merged as soon as the purge was projected.
    await file.server.restart(async () => {
      expect(filesHolding(file.server.dataDir, words)).toEqual([]);
    });

    // The log itself reads the page as erased, through the server's own key store.
    const { events } = await file.server.internals.eventStore.read(`page-${pageId}`);
    expect(events[0]?.data).toMatchObject({ pageId, title: "Erased page", markdown: "", icon: null });
    // The API, for the owner and for Bob: as an id never seen.
    for (const reader of [ann, bob]) {
      for (const path of [
        `/pages/${pageId}`,
        `/pages/${pageId}/content`,
        `/pages/${pageId}/history`,
        `/pages/${pageId}/comments`,
        `/pages/${pageId}?at=${new Date().toISOString()}`,
      ]) {
        expect((await reader.get(path)).status, path).toBe(404);
      }
    }
    expect((await ann.get("/search?q=Zanthoxyloid")).body.data).toEqual([]);
    const exported = await exportedText(ann);
    for (const word of words) expect(exported).not.toContain(word.toLowerCase());
    expect((await ann.get("/trash")).text).not.toContain(pageId);
    const retried = await ann.call("POST", "/pages", {
      json: { title: "Quorblefinch notes", markdown: "before the quoted words after, Zanthoxyloid" },
      headers: { "idempotency-key": "ann-creates-her-page" },
    });
    expect(retried.text.toLowerCase()).not.toContain("quorblefinch");
    expect((await bob.get(`/pages/${bobsPage}/content`)).text).toContain("Bob keeps these words");

    // A webhook replay from the start of the log, and the change feed from its start, carry none of it.
    const before = endpoint.received.length;
    const replay = await ann.post(`/webhooks/${String(hook.body.id)}/replay`, { after: "0" });
    expect(replay.status, replay.text).toBe(202);
    const feed = await SseStream.open(`${file.server.url}/api/v1/changes?after=0`, ann.credentials);
    try {
      await feed.until(() => feed.changes().length > 0);
      for (const event of feed.events)
        for (const word of words) expect(event.data.toLowerCase()).not.toContain(word.toLowerCase());
    } finally {
      feed.close();
    }
    // The replay reaches Ann's other page's creation, after which the purged page's events would have come.
    await until(
      async () =>
        endpoint.received
          .slice(before)
          .map((delivery) => delivery.body)
          .join("\n"),
      (bodies) => bodies.includes(annsOtherPage),
    );
    expect(endpoint.received.length).toBeGreaterThan(before);
    for (const delivery of endpoint.received.slice(before))
      for (const word of words) expect(delivery.body.toLowerCase()).not.toContain(word.toLowerCase());

    await expectNowhere(words);
    expect((await ann.get(`/pages/${pageId}`)).status).toBe(404);
    expect((await bob.get(`/pages/${bobsPage}`)).body).toMatchObject({ title: "Bob's Wyvernless page" });
  });

  it("removes the bytes of the page's images and attachments, deleted ones too, and leaves another page's files", async () => {
    const word = "Blobquintessence";
    // Names the uploader gave, recorded also in the answer kept for the upload's Idempotency-Key.
    const named = ["Xylophagous", "Quixoticmarrow"];
    const ann = await file.server.registered("ann");
    const pageId = await createPage(ann, { title: "Files" });
    const otherPage = await createPage(ann, { title: "Other files" });
    const image = await upload(
      ann,
      pageId,
      { file: { bytes: await makeImage("png"), name: "Xylophagous-chart.png" }, alt: "Quixoticmarrow chart" },
      { "idempotency-key": "ann-uploads-chart" },
    );
    expect(image.status, image.text).toBe(201);
    const kept = await upload(ann, otherPage, {
      file: { bytes: await makeImage("png"), name: "kept.png" },
      alt: "kept",
    });
    expect(kept.status, kept.text).toBe(201);
    const note = await attach(ann, pageId, {
      bytes: Buffer.from(`a ${word} of a file`),
      name: "note.txt",
      type: "text/plain",
    });
    expect(note.status, note.text).toBe(201);
    const removed = await attach(ann, pageId, {
      bytes: Buffer.from(`another ${word}`),
      name: "old.txt",
      type: "text/plain",
    });
    expect((await ann.delete(`/pages/${pageId}/attachments/${String(removed.body.id)}`)).status).toBe(204);
    const blobFiles = async () =>
      (await readdir(join(file.server.dataDir, "blobs"), { withFileTypes: true }))
        .filter((entry) => entry.isFile())
        .map((entry) => entry.name);
    const keptFiles = (await blobFiles()).filter((name) => name.startsWith(String(kept.body.id)));
    expect(keptFiles).toHaveLength(1);
    expect((await blobFiles()).filter((name) => name.startsWith(String(image.body.id)))).toHaveLength(1);

    await toTrash(ann, "page", pageId);
    expect((await ann.delete(`/trash/page/${pageId}`)).status).toBe(204);
    const left = await blobFiles();
    for (const id of [image.body.id, note.body.id, removed.body.id])
      expect(left.filter((name) => name.startsWith(String(id)))).toEqual([]);
    expect(left).toEqual(expect.arrayContaining(keptFiles));
    expect((await ann.get(String(kept.body.url))).status).toBe(200);
    // The log read through the server's own key store: no event, the upload's recorded answer included, names them.
    const logged = JSON.stringify(
      (await file.server.internals.eventStore.readAll(0, 100_000)).map((event) => event.data),
    ).toLowerCase();
    for (const name of named) expect(logged).not.toContain(name.toLowerCase());
    await expectNowhere([word, ...named]);
  });

  it("purging a folder erases its name and every page its deletion took along", async () => {
    const words = ["Galumphright", "Snozzcumber", "Tintinnabulous"];
    const ann = await file.server.registered("ann");
    const folderId = await createFolder(ann, { name: "Galumphright archive" });
    const inner = await createFolder(ann, { name: "Snozzcumber drawer", parentId: folderId });
    const pageId = await createPage(ann, { title: "Deep page", markdown: "Tintinnabulous content", parentId: inner });
    // An audit copy of the read models as they are now holds the folder's words.
    const env = {
      DATA_DIR: file.server.dataDir,
      AUTH_SESSION_SECRET: TEST_SESSION_SECRET,
      LOG_LEVEL: "silent",
      ...productionStack(file.server.dataDir),
    };
    const audit = await runToExit("services/projector/replay.cli.ts", env, ["--until", new Date().toISOString()]);
    expect(audit.code, audit.stderr).toBe(0);
    expect(filesHolding(join(file.server.dataDir, "audit"), words)).toHaveLength(1);
    await toTrash(ann, "folder", folderId);
    // What went with the folder is purged with it, not on its own.
    expect((await ann.delete(`/trash/page/${pageId}`)).status).toBe(404);
    expect((await ann.delete(`/trash/folder/${folderId}`)).status).toBe(204);
    for (const path of [`/folders/${folderId}`, `/folders/${inner}`, `/pages/${pageId}`])
      expect((await ann.get(path)).status, path).toBe(404);
    expect((await ann.post(`/trash/folder/${folderId}/restore`)).status).toBe(404);
    // The purge deleted the audit copy that mentioned what it erased.
    expect(filesHolding(join(file.server.dataDir, "audit"), words)).toEqual([]);
    await expectNowhere(words);
  });

  it("is its owner's alone: an editor of the workspace is refused, an outsider and a live page are not found", async () => {
    const ann = await file.server.registered("ann");
    const editor = await file.server.registered("editor");
    const outsider = await file.server.registered("outsider");
    expect((await addMember(ann, editor.email, "editor")).status).toBeLessThan(300);
    const pageId = await createPage(ann, { title: "Kept page" });
    expect((await ann.delete(`/trash/page/${pageId}`)).status).toBe(404);
    await toTrash(ann, "page", pageId);
    const refused = await editor.delete(`/trash/page/${pageId}`);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.error?.code).toBe("forbidden");
    const hidden = await outsider.delete(`/trash/page/${pageId}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error?.code).toBe("not_found");
    const token = await file.server.tokenClient(ann, ["pages:read"]);
    expect((await token.delete(`/trash/page/${pageId}`)).status).toBe(403);
    // Still in the trash, whole: its owner brings it back.
    const back = await ann.post(`/trash/page/${pageId}/restore`);
    expect(back.status, back.text).toBe(200);
    expect(back.body).toMatchObject({ title: "Kept page" });
  });
});
