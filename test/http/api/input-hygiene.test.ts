// Text users send is stored as one well-formed NFC string the event and the read model agree on: control
// characters, text made only of invisible characters and lone surrogates are refused with 400.
import { beforeAll, describe, expect, it } from "vitest";
import type { TestUser } from "../../support/server.ts";
import { serverForFile } from "../../support/server-for-file.ts";

const file = serverForFile();
let ann: TestUser;
let pageId: string;
beforeAll(async () => {
  ann = await file.server.registered("ann");
  pageId = String((await ann.post("/pages", { title: "Hygiene", markdown: "quoted text" })).body.id);
});

// JSON.stringify writes a lone surrogate as the escape \udXXX, so it reaches the server as sent.
const refused = [
  "Bell\u0007",
  "Nul\u0000here",
  "Esc\u001b[31m",
  "C1\u0085",
  "\u200B\u200D\uFEFF",
  "   ",
  "Half \uD83D",
];

describe("text fields", () => {
  it("refuses control characters, invisible-only text and lone surrogates in titles, names, icons and token names", async () => {
    for (const text of refused) {
      for (const [path, body] of [
        ["/pages", { title: text }],
        ["/folders", { name: text }],
        ["/pages", { title: "ok", icon: text }],
        ["/tokens", { name: text }],
      ] as const) {
        const reply = await ann.post(path, body);
        expect(reply.status, `${path} ${JSON.stringify(body)}`).toBe(400);
        expect(reply.body.error?.code).toBe("validation_failed");
      }
    }
  });

  it("refuses them in comment bodies and anchors, where tabs and line breaks stay allowed", async () => {
    for (const text of refused) {
      const reply = await ann.post(`/pages/${pageId}/comments`, { body: text, anchor: { quote: "quoted" } });
      expect(reply.status, JSON.stringify(text)).toBe(400);
    }
    expect((await ann.post(`/pages/${pageId}/comments`, { body: "x", anchor: { quote: "Bell\u0007" } })).status).toBe(
      400,
    );
    const multiLine = await ann.post(`/pages/${pageId}/comments`, {
      body: "line one\n\tline two",
      anchor: { quote: "quoted\ttext" },
    });
    expect(multiLine.status).toBe(201);
  });

  it("stores a title sent decomposed (NFD) as NFC, so resolving by either form finds it", async () => {
    const decomposed = "Cafe\u0301 menu";
    const created = await ann.post("/pages", { title: decomposed });
    expect(created.status).toBe(201);
    expect(created.body.title).toBe("Caf\u00e9 menu");
    const byComposed = await ann.get(`/pages/resolve?title=${encodeURIComponent("caf\u00e9 menu")}`);
    expect((byComposed.body.data as Array<{ id: string }>).map((page) => page.id)).toEqual([created.body.id]);
    const byDecomposed = await ann.get(`/pages/resolve?title=${encodeURIComponent(decomposed)}`);
    expect((byDecomposed.body.data as Array<{ id: string }>).map((page) => page.id)).toEqual([created.body.id]);
  });

  it("finds a page by a folderPath sent decomposed (NFD) as by the stored NFC name", async () => {
    const folder = await ann.post("/folders", { name: "Re\u0301sume\u0301s", parentId: null });
    expect(folder.status).toBe(201);
    const created = await ann.post("/pages", { title: "Path lookup", parentId: folder.body.id });
    const found = async (folderPath: string) => {
      const reply = await ann.get(
        `/pages/resolve?title=${encodeURIComponent("Path lookup")}&folderPath=${encodeURIComponent(folderPath)}`,
      );
      return (reply.body.data as Array<{ id: string }>).map((page) => page.id);
    };
    expect(await found("R\u00e9sum\u00e9s")).toEqual([created.body.id]);
    expect(await found("Re\u0301sume\u0301s")).toEqual([created.body.id]);
  });
});

describe("page markdown", () => {
  it("refuses control characters and lone surrogates, naming body.markdown, and keeps tabs and line breaks", async () => {
    for (const markdown of ["Nul\u0000here", "Esc\u001b[31m red", "Half \uD83D"]) {
      const created = await ann.post("/pages", { title: "Markdown", markdown });
      expect(created.status, JSON.stringify(markdown)).toBe(400);
      expect(created.body.error?.message).toMatch(/body\.markdown/);
      const replaced = await ann.call("PUT", `/pages/${pageId}/content`, { json: { markdown } });
      expect(replaced.status).toBe(400);
      expect(replaced.body.error?.message).toMatch(/body\.markdown/);
      // A text body is UTF-8 on the wire, where a lone surrogate cannot travel (it arrives as U+FFFD).
      if (markdown.includes("\uD83D")) continue;
      const asText = await ann.call("PUT", `/pages/${pageId}/content`, {
        body: markdown,
        headers: { "content-type": "text/markdown" },
      });
      expect(asText.status).toBe(400);
      expect(asText.body.error?.message).toMatch(/body\.markdown/);
    }
    const etag = (await ann.get(`/pages/${pageId}/content`)).headers.get("etag") ?? "";
    const kept = await ann.call("PUT", `/pages/${pageId}/content`, {
      body: "# Title\r\n\n\tindented\n",
      headers: { "content-type": "text/markdown", "if-match": etag },
    });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.text).toContain("# Title\r\n\n\tindented\n");
  });

  it("stores markdown in NFC", async () => {
    const created = await ann.post("/pages", { title: "Composed", markdown: "Cafe\u0301" });
    const content = await ann.get(`/pages/${String(created.body.id)}/content`);
    expect(content.text).toContain("Caf\u00e9");
    expect(content.text).not.toContain("Cafe\u0301");
  });
});
