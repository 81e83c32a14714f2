import { describe, expect, it } from "vitest";
import { derivedId } from "../../shared/imports/import-ids.ts";
import { VaultIndex } from "../../shared/imports/link-resolution.ts";
import { sortVault } from "../../shared/imports/vault-files.ts";
import { planFolders } from "../../shared/imports/vault-folders.ts";
import { aliasBomb } from "../support/yaml-bomb.ts";
import { headingSlug, rewriteNote, type NoteResolver } from "../../shared/imports/vault-note.ts";

const pages: NoteResolver = {
  page: (target) => (target === "Missing" || target.startsWith("gone") ? null : `/p/${target}`),
  image: (target) => (target.endsWith("gone.png") ? null : { path: target, url: `/i/${target}` }),
  attachment: (target) =>
    /\.(pdf|mp3|svg)$/.test(target) && !target.startsWith("gone")
      ? { path: `files/${target}`, url: `/a/${target}` }
      : null,
};

describe("sorting a vault's files", () => {
  it("keeps notes and images, makes every other file an attachment, and reports what it cannot read", async () => {
    const sorted = sortVault([
      { path: "a/b/Deep.md", content: "x" },
      { path: "a/Top.md", content: "x" },
      { path: "img/p.png", content: "iVBORw0KGgo=" },
      { path: "Cafe\u0301.md", content: "x" },
      { path: "caf\u00e9.md", content: "again" },
      { path: "x.pdf", content: "x" },
      { path: "icons/i.svg", content: "PHN2Zz4=" },
      { path: "bad.png", content: "not base64!" },
      { path: "talk.mp3", content: "data:audio/mpeg;base64,SUQz" },
      { path: "notes.txt", content: "plain text, not base64!" },
    ]);
    expect(sorted.notes.map((note) => [note.path, note.directory, note.name])).toEqual([
      ["a/b/Deep.md", "a/b", "Deep"],
      ["a/Top.md", "a", "Top"],
      ["Caf\u00e9.md", "", "Caf\u00e9"],
    ]);
    expect(planFolders(sorted.notes, () => null).directories).toEqual(["a", "a/b"]);
    expect(sorted.images.map((image) => image.path)).toEqual(["img/p.png"]);
    const read = async (source: (typeof sorted.attachments)[number]["source"]) => {
      const chunks: Uint8Array[] = [];
      for await (const chunk of await source.open()) chunks.push(chunk);
      return Buffer.concat(chunks).toString("latin1");
    };
    expect(await Promise.all(sorted.attachments.map(async (file) => [file.path, await read(file.source)]))).toEqual([
      ["icons/i.svg", "<svg>"],
      ["talk.mp3", "ID3"],
    ]);
    expect(sorted.errors).toEqual([
      '"café.md": skipped: repeats the path of an earlier file',
      '"x.pdf": skipped: a file\'s content must be base64 or a base64 data: URL',
      '"bad.png": skipped: an image\'s content must be base64 or a base64 data: URL',
      '"notes.txt": skipped: a file\'s content must be base64 or a base64 data: URL',
    ]);
  });
});

describe("planning a vault's folders", () => {
  const note = (path: string) => ({
    path,
    directory: path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "",
    name: "n",
    markdown: "",
  });
  const noTilde = (name: string) => (name.includes("~") ? "must not hold '~'" : null);

  it("makes directories that differ only in case one folder, spelled as the first note names it", () => {
    const plan = planFolders([note("Dir/a.md"), note("dir/b.md"), note("DIR/Sub/c.md"), note("dir/sub/d.md")], noTilde);
    expect(plan.directories).toEqual(["Dir", "Dir/Sub"]);
    expect(plan.notes.map((kept) => kept.directory)).toEqual(["Dir", "Dir", "Dir/Sub", "Dir/Sub"]);
    expect(plan.errors).toEqual([]);
  });

  it("makes no folder of a directory whose name the rule refuses, and reports every note below it", () => {
    const plan = planFolders([note("ok/a.md"), note("ok/b~/c.md"), note("ok/b~/deep/d.md"), note("top.md")], noTilde);
    expect(plan.directories).toEqual(["ok"]);
    expect(plan.notes.map((kept) => kept.path)).toEqual(["ok/a.md", "top.md"]);
    expect(plan.errors).toEqual([
      '"ok/b~/c.md": skipped: the folder "b~" cannot be made: must not hold \'~\'',
      '"ok/b~/deep/d.md": skipped: the folder "b~" cannot be made: must not hold \'~\'',
    ]);
  });
});

describe("resolving a link target", () => {
  const index = new VaultIndex(["Note.md", "a/Note.md", "a/b/Other.md", "x/y/Other.md", "z/Other.md"], ".md");
  it("takes an exact path first, then the shortest path ending with the name, ignoring case", () => {
    expect(index.resolve("Note")).toBe("Note.md");
    expect(index.resolve("a/Note")).toBe("a/Note.md");
    expect(index.resolve("other")).toBe("z/Other.md");
    expect(index.resolve("b/Other.md")).toBe("a/b/Other.md");
    expect(index.resolve("Nothing")).toBeNull();
  });
  it("resolves a relative image path against the note's directory", () => {
    const images = new VaultIndex(["notes/img/a.png", "img/a.png"], null);
    expect(images.resolveRelative("notes", "img/a.png")).toBe("notes/img/a.png");
    expect(images.resolveRelative("notes", "../img/a.png")).toBe("img/a.png");
    expect(images.resolveRelative("", "a%20b.png")).toBeNull();
  });
});

describe("rewriting a note", () => {
  it("rewrites wikilinks, aliases, headings and embeds, and leaves code and unresolved links as written", () => {
    const note = rewriteNote(
      "[[A]] [[A|alias]] [[A#Big Heading]] ![[p.png]] ![[gone.png]] [[Missing]]\n\n    [[A]] indented code\n",
      pages,
    );
    expect(note.markdown).toBe(
      "[A](/p/A) [alias](/p/A) [A > Big Heading](/p/A#big-heading) ![p](/i/p.png) ![[gone.png]] [[Missing]]\n\n    [[A]] indented code\n",
    );
    expect(note.backlinks).toBe(3);
    expect(note.images).toEqual(["p.png"]);
    expect(note.problems).toEqual([
      "embed ![[gone.png]] names no imported image",
      "link [[Missing]] names no imported note",
    ]);
  });
  it("rewrites markdown links to notes and images, not external ones", () => {
    const note = rewriteNote(
      "[the *plan*](Plan.md) ![hut](img/hut.jpg) [site](https://example.com/x.md) ![remote](https://example.com/a.png)",
      pages,
    );
    expect(note.markdown).toBe(
      "[the *plan*](/p/Plan.md) ![hut](/i/img/hut.jpg) [site](https://example.com/x.md) ![remote](https://example.com/a.png)",
    );
  });
  it("takes title, icon or emoji from the frontmatter and keeps the rest of it", () => {
    const kept = rewriteNote("---\ntitle: Real title\nemoji: 🌱\naliases: [x]\n---\nBody", pages);
    expect([kept.title, kept.icon]).toEqual(["Real title", "🌱"]);
    expect(kept.markdown).toBe("---\naliases: [ x ]\n---\nBody");
    const emptied = rewriteNote("---\ntitle: Only\n---\nBody", pages);
    expect(emptied.markdown).toBe("Body");
    const broken = rewriteNote("---\ntitle: [unclosed\n---\nBody", pages);
    expect(broken.title).toBeNull();
    expect(broken.problems).toEqual(["its frontmatter is not valid YAML and was kept as text"]);
  });
  it("keeps an alias bomb or an oversized frontmatter as text and reports it", () => {
    const bomb = `---\n${aliasBomb()}title: Boom\n---\nBody`;
    const read = rewriteNote(bomb, pages);
    expect(read.title).toBeNull();
    expect(read.markdown).toBe(bomb);
    expect(read.problems).toEqual([expect.stringMatching(/frontmatter could not be read .* kept as text/)]);
    const huge = `---\nnote: ${"x".repeat(70_000)}\n---\nBody`;
    expect(rewriteNote(huge, pages).problems).toEqual([
      expect.stringMatching(/frontmatter is over 65536 characters and was kept as text/),
    ]);
  });
  it("rewrites wikilinks written in frontmatter, alt text or link URLs only where they are links, keeping the rest as written", () => {
    const note = rewriteNote('---\nup: "[[A]]"\n---\n![see [[A]]](p.png) [x](<[[A]].md>) [[A]]', pages);
    expect(note.markdown).toBe('---\nup: "[[A]]"\n---\n![see \\[\\[A\\]\\]](/i/p.png) [x](/p/[[A]].md) [A](/p/A)');
  });
  it("rewrites tens of thousands of wikilinks in one paragraph", () => {
    const note = rewriteNote(Array.from({ length: 45_000 }, () => "[[A]]").join(" "), pages);
    expect(note.backlinks).toBe(45_000);
    expect(note.markdown).toBe(Array.from({ length: 45_000 }, () => "[A](/p/A)").join(" "));
  });
  it("links a heading or block of the same note to its anchor", () => {
    const note = rewriteNote("[[#Next Steps]] [[#Next Steps|what next]] [[#^block-id]] [[#^b1|that line]]", pages);
    expect(note.markdown).toBe(
      "[Next Steps](#next-steps) [what next](#next-steps) [^block-id](#block-id) [that line](#b1)",
    );
    expect(note.problems).toEqual([]);
  });
  it("reads a pipe escaped in a table cell, an empty alias and an empty heading as Obsidian does", () => {
    const note = rewriteNote(
      "| a | b |\n|---|---|\n| [[A\\|alias]] | [[A#Big Heading\\|]] |\n\n[[A#Big Heading|]] [[A#|text]] [[A#]]",
      pages,
    );
    expect(note.markdown).toBe(
      "| a | b |\n|---|---|\n| [alias](/p/A) | [A > Big Heading](/p/A#big-heading) |\n\n[A > Big Heading](/p/A#big-heading) [text](/p/A) [A](/p/A)",
    );
    expect(note.problems).toEqual([]);
  });
  it("embeds an image named with an anchor or a display size, dropping the size", () => {
    const note = rewriteNote("![[p.png#anchor]] ![[p.png|100x145]] ![[p.png|100]] ![[p.png|a caption]]", pages);
    expect(note.markdown).toBe("![p](/i/p.png) ![p](/i/p.png) ![p](/i/p.png) ![a caption](/i/p.png)");
    expect(note.images).toEqual(["p.png"]);
  });
  it("links to an image a wikilink names without embedding it", () => {
    const note = rewriteNote("[[shot.png|see screenshot]] [[shot.png]]", pages);
    expect(note.markdown).toBe("[see screenshot](/i/shot.png) [shot.png](/i/shot.png)");
    expect(note.images).toEqual(["shot.png"]);
    expect(note.backlinks).toBe(0);
  });
  it("makes an embedded note a link to its page or section", () => {
    const note = rewriteNote("![[A]] ![[A#Big Heading]] ![[A|shown]]", pages);
    expect(note.markdown).toBe("[A](/p/A) [A > Big Heading](/p/A#big-heading) [shown](/p/A)");
    expect(note.backlinks).toBe(3);
  });
  it("rewrites a markdown link to a note's heading", () => {
    expect(rewriteNote("[go](Plan.md#Next%20Steps)", pages).markdown).toBe("[go](/p/Plan.md#next-steps)");
  });
  it("makes links and embeds of other files links to their attachments, and reports a file not imported", () => {
    const note = rewriteNote(
      "![[icon.svg]] ![[talk.mp3|100]] [[paper.pdf|the paper]] ![x](logo.svg) [read](docs/paper%20v2.pdf) [[gone.pdf]]",
      pages,
    );
    expect(note.markdown).toBe(
      "[icon.svg](/a/icon.svg) [talk.mp3](/a/talk.mp3) [the paper](/a/paper.pdf) [x](/a/logo.svg) [read](/a/docs/paper v2.pdf) [[gone.pdf]]",
    );
    expect(note.attachments).toEqual([
      "files/icon.svg",
      "files/talk.mp3",
      "files/paper.pdf",
      "files/logo.svg",
      "files/docs/paper v2.pdf",
    ]);
    expect(note.problems).toEqual(["link [[gone.pdf]] names no imported file"]);
  });
  it("reads a dotted name no file has as a note's, as Obsidian does", () => {
    expect(rewriteNote("[[Plan v1.2]] [[Plan v1.2|the plan]]", pages).markdown).toBe(
      "[Plan v1.2](/p/Plan v1.2) [the plan](/p/Plan v1.2)",
    );
  });
  it("reads a wikilink before the emphasis, code or HTML its characters would open", () => {
    const note = rewriteNote("[[a_b_. c|_x_]] [[x*y|*z* `q` <b> &amp;]] [[folder/x_ .ü#h_i]]", pages);
    expect(note.markdown).toBe(
      "[\\_x\\_](/p/a_b_. c) [\\*z\\* \\`q\\` \\<b> \\&amp;](/p/x*y) [folder/x\\_ .ü > h\\_i](/p/folder/x_ .ü#h_i)",
    );
  });
  it("slugs headings as renderers do", () => {
    expect(headingSlug(" Next Steps: Q4! ")).toBe("next-steps-q4");
    expect(headingSlug("Résumé 2")).toBe("résumé-2");
  });
});

describe("derived ids", () => {
  it("are UUIDs, the same for the same scope and path, different otherwise", () => {
    const id = derivedId("user\nkey", "page", "a.md");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(derivedId("user\nkey", "page", "a.md")).toBe(id);
    expect(derivedId("user\nother", "page", "a.md")).not.toBe(id);
    expect(derivedId("user\nkey", "folder", "a.md")).not.toBe(id);
  });
});
