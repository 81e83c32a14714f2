// One limit on the size of a change, the same on every event store (the smallest store's: EventStoreDB's 1 MiB
// append), measured on the events as stored (sealed fields at their sealed size) and checked before anything is
// appended: here on SQLite, which alone would take far more.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_APPEND_BYTES } from "../../../shared/event-store/append-size.ts";
import { IMPORT_MAX_NOTE_BYTES, sortVault } from "../../../shared/imports/vault-files.ts";
import { TestServer } from "../../support/server.ts";

// Three UTF-8 bytes each: 400,000 of them stay under the 500,000-character markdown limit yet weigh 1.2 MB.
const cjk = (characters: number) => "漢".repeat(characters);
// Two UTF-8 bytes each.
const cyrillic = (characters: number) => "ж".repeat(characters);

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

  it("refuses a page of 420,000 Cyrillic characters, whose sealed event EventStoreDB would refuse, naming the 1,048,576-byte limit", async () => {
    const cyd = await server.registered("cyd");
    // 840,000 bytes of UTF-8, about 1,120,000 once the content is sealed.
    const refused = await cyd.post("/pages", { title: "Кириллица", markdown: cyrillic(420_000) });
    expect(refused.status).toBe(413);
    expect(refused.body.error?.code).toBe("payload_too_large");
    expect(MAX_APPEND_BYTES).toBe(1_048_576);
    expect(refused.body.error?.message).toContain("at most 1048576 bytes");
    expect((await cyd.get("/pages")).body.data).toEqual([]);
  });

  it("refuses a page of 270,000 CJK characters, whose sealed event EventStoreDB would refuse, and records nothing", async () => {
    const dan = await server.registered("dan");
    const refused = await dan.post("/pages", { title: "漢字", markdown: cjk(270_000) });
    expect(refused.status).toBe(413);
    expect(refused.body.error?.code).toBe("payload_too_large");
    expect(refused.body.error?.message).toContain(`at most ${MAX_APPEND_BYTES} bytes`);
    expect((await dan.get("/pages")).body.data).toEqual([]);
  });

  it("takes a large page whose sealed event fits, and refuses replacing its content with one over the limit", async () => {
    const bea = await server.registered("bea");
    const created = await bea.post("/pages", { title: "Large", markdown: cjk(250_000) });
    expect(created.status).toBe(201);
    const etag = (await bea.get(`/pages/${String(created.body.id)}/content`)).headers.get("etag") ?? "";
    const replaced = await bea.call("PUT", `/pages/${String(created.body.id)}/content`, {
      json: { markdown: cjk(400_000) },
      headers: { "if-match": etag },
    });
    expect(replaced.status).toBe(413);
    expect(replaced.body.error?.code).toBe("payload_too_large");
    const content = await bea.get(`/pages/${String(created.body.id)}/content`);
    expect(content.text).toContain(cjk(250_000));
  });

  it("skips an imported note whose sealed event would be over the limit with a reason, though it is under the character limit", () => {
    // 270,000 CJK characters (810,000 bytes) were taken before, and sealed to about 1,080,000 bytes.
    expect(IMPORT_MAX_NOTE_BYTES).toBeLessThan(810_000);
    const sorted = sortVault([
      { path: "small.md", content: "hello" },
      { path: "large.md", content: cjk(270_000) },
    ]);
    expect(sorted.notes.map((note) => note.path)).toEqual(["small.md"]);
    expect(sorted.errors).toEqual([
      `"large.md": skipped: a note is at most ${IMPORT_MAX_NOTE_BYTES} bytes in UTF-8 (what one event may hold)`,
    ]);
  });
});
