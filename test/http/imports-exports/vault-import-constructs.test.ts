// Importing the constructs real vaults hold: headings and blocks, pipes, embeds, attachments, frontmatter.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeImage } from "../../support/images.ts";
import { TestServer } from "../../support/server.ts";
import { contentOf, importVault, resolve, type ImportResult } from "../../support/vault-import.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

describe("constructs of real vaults", () => {
  it("links same-note headings, escaped pipes, empty parts, suffixed embeds, image links and note embeds; other files become attachments, files not in the vault are reported", async () => {
    const eve = await server.registered("eve");
    const png = (await makeImage("png")).toString("base64");
    const reply = await importVault(eve, [
      {
        path: "Guide.md",
        content: [
          "# Setup",
          "See [[#Usage]], [[#Usage|how to use]] and [[#^step-1]].",
          "",
          "| page | why |",
          "|---|---|",
          "| [[Other\\|the other]] | [[Other#Part two|]] [[Other#|plain]] |",
          "",
          "![[shot.png#anchor]] ![[shot.png|100x145]] [[shot.png|see screenshot]]",
          "![[Other]] ![[Other#Part two]]",
          "![[icon.svg]] ![[talk.mp3]] ![[clip.mp4]] ![[paper.pdf]]",
          "",
          "## Usage",
          "Do it. ^step-1",
        ].join("\n"),
      },
      { path: "Other.md", content: "## Part two\ntext" },
      { path: "img/shot.png", content: png },
      { path: "img/icon.svg", content: Buffer.from("<svg/>").toString("base64") },
    ]);
    expect(reply.status, reply.text).toBe(201);
    const result = reply.body as unknown as ImportResult;
    // The SVG is not an image an upload takes, so it becomes an attachment (served as a download); the other
    // files are not in the vault.
    expect(result).toMatchObject({ pagesCreated: 2, imagesUploaded: 1, attachmentsUploaded: 1, backlinksCreated: 5 });
    expect(result.errors).toEqual([
      '"Guide.md": embed ![[talk.mp3]] names no imported file',
      '"Guide.md": embed ![[clip.mp4]] names no imported file',
      '"Guide.md": embed ![[paper.pdf]] names no imported file',
    ]);
    const [other] = await resolve(eve, "Other");
    const page = `/api/v1/pages/${other?.id ?? ""}`;
    const guide = await contentOf(eve, "Guide");
    const image = /\/api\/v1\/images\/[0-9a-f-]{36}/.exec(guide)?.[0] ?? "no image";
    const svg = /\/api\/v1\/attachments\/[0-9a-f-]{36}/.exec(guide)?.[0] ?? "no attachment";
    expect(guide).toBe(
      [
        "# Setup",
        "See [Usage](#usage), [how to use](#usage) and [^step-1](#step-1).",
        "",
        "| page | why |",
        "|---|---|",
        `| [the other](${page}) | [Other > Part two](${page}#part-two) [plain](${page}) |`,
        "",
        `![shot](${image}) ![shot](${image}) [see screenshot](${image})`,
        `[Other](${page}) [Other > Part two](${page}#part-two)`,
        `[icon.svg](${svg}) ![[talk.mp3]] ![[clip.mp4]] ![[paper.pdf]]`,
        "",
        "## Usage",
        "Do it. ^step-1",
      ].join("\n"),
    );
    expect((await eve.get(image.replace("/api/v1", ""))).status).toBe(200);
  });

  it("shows a note's own frontmatter merged into the page's one block, the service's fields winning; PUT keeps the note's keys", async () => {
    const fay = await server.registered("fay");
    const reply = await importVault(fay, [
      { path: "Tagged.md", content: "---\ntags: [a, b]\nid: not-the-page-id\nstatus: draft\n---\nBody\n" },
    ]);
    expect(reply.status, reply.text).toBe(201);
    const [page] = await resolve(fay, "Tagged");
    const id = page?.id ?? "";
    const content = await fay.get(`/pages/${id}/content`);
    const document = content.text;
    expect(document.match(/^---$/gm)).toHaveLength(2);
    expect(document).toMatch(new RegExp(`^---\\nid: ${id}\\ntitle: "Tagged"\\n`));
    expect(document).toContain("\ntags: [ a, b ]\nstatus: draft\n---\nBody\n");
    expect(document).not.toContain("not-the-page-id");
    const put = await fay.call("PUT", `/pages/${id}/content`, {
      body: document.replace("Body", "Edited"),
      headers: { "content-type": "text/markdown", "if-match": content.headers.get("etag") ?? "" },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.text).toContain("\ntags: [ a, b ]\nstatus: draft\n---\nEdited\n");
    expect(put.text.match(/^---$/gm)).toHaveLength(2);
  });
});
