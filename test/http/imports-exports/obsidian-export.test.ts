import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { realisticVault } from "../../fixtures/realistic-vault.ts";
import { attach } from "../../support/attachments.ts";
import { makeImage } from "../../support/images.ts";
import { TestServer, type Client } from "../../support/server.ts";
import { asImportFiles, exportVault, fileDigest, importZip, workspaceSnapshot } from "../../support/vault-zip.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

const text = (files: Map<string, Uint8Array>, path: string): string => {
  const bytes = files.get(path);
  if (!bytes) throw new Error(`no ${path} in ${[...files.keys()].join(", ")}`);
  return Buffer.from(bytes).toString("utf8");
};

async function importVault(user: Client, files: Array<{ path: string; content: string }>) {
  const reply = await user.call("POST", "/imports/obsidian", { json: { files } });
  expect(reply.status, reply.text).toBe(201);
  return reply.body as unknown as {
    pagesCreated: number;
    imagesUploaded: number;
    attachmentsUploaded: number;
    errors: string[];
  };
}

describe("GET /exports/obsidian", () => {
  it("answers the caller's workspace as a zip: notes at their folder paths, frontmatter, wikilinks, attachments once", async () => {
    const ann = await server.registered("ann");
    const png = (await makeImage("png")).toString("base64");
    await importVault(ann, [
      {
        path: "Projects/Plan.md",
        content:
          "---\nemoji: 🗺️\ntags: [a]\n---\n# Plan\n\n## Next steps\nSee [[Notes|my notes]] and [[Notes#Part two]].\n![[pic.png]]\n",
      },
      { path: "Notes.md", content: "## Part two\n[[Plan]] ![[pic.png]] [[pic.png|the picture]]\n" },
      { path: "img/pic.png", content: png },
    ]);
    const exported = await exportVault(ann);
    expect(exported.status, exported.text).toBe(200);
    expect(exported.headers.get("content-type")).toBe("application/zip");
    expect([...exported.files.keys()].sort()).toEqual(["Notes.md", "Projects/Plan.md", "attachments/pic.png"]);
    expect(Buffer.from(exported.files.get("attachments/pic.png") ?? []).toString("base64")).toBe(png);
    expect(text(exported.files, "Projects/Plan.md")).toBe(
      '---\nicon: "🗺️"\ntags: [ a ]\n---\n# Plan\n\n## Next steps\nSee [[Notes|my notes]] and [[Notes#part-two|Notes > Part two]].\n![[pic.png]]\n',
    );
    expect(text(exported.files, "Notes.md")).toBe(
      "## Part two\n[[Projects/Plan|Plan]] ![[pic.png]] [[pic.png|the picture]]\n",
    );
  });

  it("holds every live attachment of an exported page, linked or not, and none deleted; an import of it reports the unlinked file", async () => {
    const dee = await server.registered("dee");
    const pageId = String((await dee.post("/pages", { title: "Files", markdown: "" })).body.id);
    const pdf = Buffer.from("%PDF-1.7\nlinked\n%%EOF\n");
    const linked = await attach(dee, pageId, { bytes: pdf, name: "linked.pdf" });
    const loose = await attach(dee, pageId, { bytes: Buffer.from("a,b\n1,2\n"), name: "loose.csv" });
    const gone = await attach(dee, pageId, { bytes: Buffer.from("old"), name: "gone.txt" });
    for (const reply of [linked, loose, gone]) expect(reply.status, reply.text).toBe(201);
    expect((await dee.delete(`/pages/${pageId}/attachments/${String(gone.body.id)}`)).status).toBe(204);
    expect(
      (
        await dee.call("PUT", `/pages/${pageId}/content`, {
          json: { markdown: `Report: ${String(linked.body.markdown)}` },
          headers: { "if-match": "*" },
        })
      ).status,
    ).toBe(200);

    const exported = await exportVault(dee);
    expect(exported.status, exported.text).toBe(200);
    expect([...exported.files.keys()].sort()).toEqual(["Files.md", "attachments/linked.pdf", "attachments/loose.csv"]);
    expect(text(exported.files, "attachments/loose.csv")).toBe("a,b\n1,2\n");
    expect(text(exported.files, "Files.md")).toBe("Report: [[linked.pdf]]");

    const result = await importVault(await server.registered("eli"), asImportFiles(exported.files));
    expect(result.attachmentsUploaded).toBe(1);
    expect(result.errors).toEqual(['"attachments/loose.csv": skipped: no imported note links this file']);
  });

  it("gives titles no file system accepts, and titles that collide, safe and stable names with the real title in frontmatter", async () => {
    const bob = await server.registered("bob");
    const titles = ["a/b: c?", "CON", "Trailing dots...", "Same", "same", ".hidden", "pipe | hash # caret ^ [x]"];
    for (const title of titles)
      expect((await bob.post("/pages", { title, markdown: `body of ${title}` })).status).toBe(201);
    const first = await exportVault(bob);
    expect(first.status).toBe(200);
    expect([...first.files.keys()].sort()).toEqual([
      "CON_.md",
      "Same.md",
      "Trailing dots.md",
      "_hidden.md",
      "a_b_ c_.md",
      "pipe _ hash _ caret _ _x_.md",
      "same (2).md",
    ]);
    expect(text(first.files, "a_b_ c_.md")).toBe('---\ntitle: "a/b: c?"\n---\nbody of a/b: c?');
    expect(text(first.files, "Same.md")).toBe("body of Same");
    expect(text(first.files, "same (2).md")).toBe('---\ntitle: "same"\n---\nbody of same');
    const again = await exportVault(bob);
    expect(fileDigest(again.files)).toEqual(fileDigest(first.files));
  });

  it("exports one folder as the vault's root, links to pages outside it as absolute URLs; 404 for a folder the caller cannot view", async () => {
    const cy = await server.registered("cy");
    await importVault(cy, [
      { path: "Inside/Sub/Deep.md", content: "[[Outside]] and [[Top]]" },
      { path: "Inside/Top.md", content: "top" },
      { path: "Outside.md", content: "out" },
    ]);
    const folders = await cy.get("/folders");
    const inside = (folders.body.data as Array<{ id: string; name: string }>).find(
      (folder) => folder.name === "Inside",
    );
    const exported = await exportVault(cy, inside?.id);
    expect([...exported.files.keys()].sort()).toEqual(["Sub/Deep.md", "Top.md"]);
    const [outside] = (await cy.get("/pages/resolve?title=Outside")).body.data as Array<{ id: string }>;
    expect(text(exported.files, "Sub/Deep.md")).toBe(
      `[Outside](${server.url}/api/v1/pages/${outside?.id ?? ""}) and [[Top]]`,
    );
    const stranger = await server.registered("stranger");
    expect((await exportVault(stranger, inside?.id)).status).toBe(404);
    // Shared with them, the folder exports for them too; their own (empty) workspace stays empty.
    const shared = await cy.post(`/shares/entity/folder/${inside?.id ?? ""}/grants`, {
      email: stranger.email,
      permission: "view",
    });
    expect(shared.status, shared.text).toBeLessThan(300);
    expect([...(await exportVault(stranger, inside?.id)).files.keys()].sort()).toEqual(["Sub/Deep.md", "Top.md"]);
    expect([...(await exportVault(stranger)).files.keys()]).toEqual([]);
    const readOnly = await cy.post("/tokens", { name: "no read", scopes: ["pages:write"] });
    const token = String(readOnly.body.token);
    const response = await fetch(`${server.url}/api/v1/exports/obsidian`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(403);
  });
});

describe("folders of one name", () => {
  it("stay distinct directories (the older keeps the name), and import back as two folders that export the same", async () => {
    const gus = await server.registered("gus");
    for (const body of ["first roadmap", "second roadmap"]) {
      const folder = await gus.post("/folders", { name: "Integration" });
      expect(folder.status).toBe(201);
      expect((await gus.post("/pages", { title: "Roadmap", markdown: body, parentId: folder.body.id })).status).toBe(
        201,
      );
    }
    const exported = await exportVault(gus);
    expect([...exported.files.keys()].sort()).toEqual(["Integration (2)/Roadmap.md", "Integration/Roadmap.md"]);
    expect(text(exported.files, "Integration/Roadmap.md")).toBe("first roadmap");
    expect(text(exported.files, "Integration (2)/Roadmap.md")).toBe("second roadmap");
    const hal = await server.registered("hal");
    await importVault(hal, asImportFiles(exported.files));
    const folders = (await hal.get("/folders")).body.data as Array<{ name: string }>;
    expect(folders.map((folder) => folder.name).sort()).toEqual(["Integration", "Integration (2)"]);
    expect(fileDigest((await exportVault(hal)).files)).toEqual(fileDigest(exported.files));
    // The same through the zip as it is.
    const ida = await server.registered("ida");
    expect((await importZip(ida, exported.bytes)).status).toBe(201);
    expect(
      ((await ida.get("/folders")).body.data as Array<{ name: string }>).map((folder) => folder.name).sort(),
    ).toEqual(["Integration", "Integration (2)"]);
    expect(fileDigest((await exportVault(ida)).files)).toEqual(fileDigest(exported.files));
  });
});

describe("the round trip of a realistic vault", () => {
  it("imports its export into an empty workspace as the same pages, and exports that as the same files", async () => {
    const dee = await server.registered("dee");
    const first = await importVault(dee, await realisticVault());
    expect(first.errors).toEqual([
      '"Home.md": link [[Ghost note]] names no imported note',
      '"Home.md": link [[minutes.pdf]] names no imported file',
    ]);
    // The PDF and the SVG linked from Home, the MP3 from Home and Meeting notes: each file stored once per import.
    expect(first.attachmentsUploaded).toBe(3);
    const exported = await exportVault(dee);
    expect(exported.status).toBe(200);
    // Each file once under attachments/, whichever notes link it; links written back as wikilinks.
    expect([...exported.files.keys()].filter((path) => /\.(pdf|mp3|svg)$/.test(path)).sort()).toEqual([
      "attachments/logo.svg",
      "attachments/report.pdf",
      "attachments/talk.mp3",
    ]);
    expect(text(exported.files, "Home.md")).toContain(
      "An icon [[logo.svg]] and a talk [[talk.mp3]].\nThe [[report.pdf|Q3 report]], [[report.pdf]] again, [[report.pdf|the report as a link]] and a missing [[minutes.pdf]].",
    );
    expect(text(exported.files, "Meeting notes.md")).toContain("- [ ] listen to [[talk.mp3]]");
    const eli = await server.registered("eli");
    const second = await importVault(eli, asImportFiles(exported.files));
    expect(second.pagesCreated).toBe(first.pagesCreated);
    // What the first import left as written is written back as it is, and reported again.
    expect(second.errors).toEqual(first.errors.filter((error) => error.startsWith('"Home.md"')));
    expect(await workspaceSnapshot(eli)).toEqual(await workspaceSnapshot(dee));
    expect(fileDigest((await exportVault(eli)).files)).toEqual(fileDigest(exported.files));

    // The export's zip as it is, posted to the import: the same workspace again.
    const fay = await server.registered("fay");
    const zipped = await importZip(fay, exported.bytes);
    expect(zipped.status, zipped.text).toBe(201);
    expect(zipped.body).toMatchObject({
      pagesCreated: first.pagesCreated,
      attachmentsUploaded: first.attachmentsUploaded,
      errors: second.errors,
    });
    expect(await workspaceSnapshot(fay)).toEqual(await workspaceSnapshot(dee));
    expect(fileDigest((await exportVault(fay)).files)).toEqual(fileDigest(exported.files));
  });
});
