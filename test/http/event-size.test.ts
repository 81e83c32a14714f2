// One limit on the size of a change, the same on every event store (the smallest store's: EventStoreDB's 1 MiB
// append), checked before anything is appended: here on SQLite, which alone would take far more.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_APPEND_BYTES } from "../../shared/event-store/append-size.ts";
import { IMPORT_MAX_NOTE_BYTES, sortVault } from "../../shared/imports/vault-files.ts";
import { TestServer } from "../support/server.ts";

// Three UTF-8 bytes each: 400,000 of them stay under the 500,000-character markdown limit yet weigh 1.2 MB.
const cjk = (characters: number) => "漢".repeat(characters);

describe("the size of one change", () => {
  let server: TestServer;
  beforeAll(async () => {
    // A body limit well above the event limit, as an operator may set it, so that the event limit is what answers.
    server = await TestServer.start({ settings: { BODY_LIMIT_BYTES: String(8 * 1024 * 1024) } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses a page whose markdown is over the limit in UTF-8 bytes with 413 payload_too_large, and records nothing", async () => {
    const ann = await server.registered("ann");
    const refused = await ann.post("/pages", { title: "Too large", markdown: cjk(400_000) });
    expect(refused.status).toBe(413);
    expect(refused.body.error?.code).toBe("payload_too_large");
    expect(refused.body.error?.message).toContain(`at most ${MAX_APPEND_BYTES} bytes`);
    expect((await ann.get("/pages")).body.data).toEqual([]);
  });

  it("takes a large page under the limit, and refuses replacing its content with one over it", async () => {
    const bea = await server.registered("bea");
    const created = await bea.post("/pages", { title: "Large", markdown: cjk(300_000) });
    expect(created.status).toBe(201);
    const etag = (await bea.get(`/pages/${String(created.body.id)}/content`)).headers.get("etag") ?? "";
    const replaced = await bea.call("PUT", `/pages/${String(created.body.id)}/content`, { json: { markdown: cjk(400_000) }, headers: { "if-match": etag } });
    expect(replaced.status).toBe(413);
    expect(replaced.body.error?.code).toBe("payload_too_large");
    const content = await bea.get(`/pages/${String(created.body.id)}/content`);
    expect(content.text).toContain(cjk(300_000));
  });

  it("skips an imported note over the limit in bytes with a reason, though it is under the character limit", () => {
    const sorted = sortVault([
      { path: "small.md", content: "hello" },
      { path: "large.md", content: cjk(400_000) },
    ]);
    expect(sorted.notes.map((note) => note.path)).toEqual(["small.md"]);
    expect(sorted.errors).toEqual([`"large.md": skipped: a note is at most ${IMPORT_MAX_NOTE_BYTES} bytes in UTF-8 (what one event may hold)`]);
  });
});
