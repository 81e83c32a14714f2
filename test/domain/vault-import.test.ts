import { describe, expect, it } from "vitest";
import { derivedId } from "../../shared/imports/import-ids.ts";
import { VaultIndex } from "../../shared/imports/link-resolution.ts";
import { sortVault } from "../../shared/imports/vault-files.ts";
import { planFolders } from "../../shared/imports/vault-folders.ts";
import { aliasBomb } from "../support/yaml-bomb.ts";
import { headingSlug, rewriteNote, type NoteResolver } from "../../shared/imports/vault-note.ts";

const pages: NoteResolver = {
  page: (target) => (target === "Missing" ? null : `/p/${target}`),
  image: (target, alt) => (target.endsWith("gone.png") ? null : { path: target, markdown: `![${alt}](/i/${target})` }),
};

describe("sorting a vault's files", () => {
  it("keeps notes and images, and reports the rest", () => {
    const sorted = sortVault([
      { path: "a/b/Deep.md", content: "x" },
      { path: "a/Top.md", content: "x" },
      { path: "img/p.png", content: "iVBORw0KGgo=" },
      { path: "Cafe\u0301.md", content: "x" },
      { path: "caf\u00e9.md", content: "again" },
      { path: "x.pdf", content: "x" },
      { path: "bad.png", content: "not base64!" },
    ]);
    expect(sorted.notes.map((note) => [note.path, note.directory, note.name])).toEqual([
      ["a/b/Deep.md", "a/b", "Deep"],
      ["a/Top.md", "a", "Top"],
      ["Caf\u00e9.md", "", "Caf\u00e9"],
    ]);
    expect(planFolders(sorted.notes, () => null).directories).toEqual(["a", "a/b"]);
    expect(sorted.images.map((image) => image.path)).toEqual(["img/p.png"]);
    expect(sorted.errors).toHaveLength(3);
  });
});

describe("planning a vault's folders", () => {
  const note = (path: string) => ({ path, directory: path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "", name: "n", markdown: "" });
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
    const note = rewriteNote("[[A]] [[A|alias]] [[A#Big Heading]] ![[p.png]] ![[gone.png]] [[Missing]]\n\n    [[A]] indented code\n", pages);
    expect(note.markdown).toBe("[A](/p/A) [alias](/p/A) [A > Big Heading](/p/A#big-heading) ![p](/i/p.png) ![[gone.png]] [[Missing]]\n\n    [[A]] indented code\n");
    expect(note.backlinks).toBe(3);
    expect(note.images).toEqual(["p.png"]);
    expect(note.problems).toEqual(["embed ![[gone.png]] names no imported image", "link [[Missing]] names no imported note"]);
  });
  it("rewrites markdown links to notes and images, not external ones", () => {
    const note = rewriteNote("[the *plan*](Plan.md) ![hut](img/hut.jpg) [site](https://example.com/x.md) ![remote](https://example.com/a.png)", pages);
    expect(note.markdown).toBe("[the *plan*](/p/Plan.md) ![hut](/i/img/hut.jpg) [site](https://example.com/x.md) ![remote](https://example.com/a.png)");
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
    expect(rewriteNote(huge, pages).problems).toEqual([expect.stringMatching(/frontmatter is over 65536 characters and was kept as text/)]);
  });
  it("rewrites wikilinks written in frontmatter, alt text or link URLs only where they are links, keeping the rest as written", () => {
    const note = rewriteNote("---\nup: \"[[A]]\"\n---\n![see [[A]]](p.png) [x](<[[A]].md>) [[A]]", pages);
    expect(note.markdown).toBe('---\nup: "[[A]]"\n---\n![see [[A]]](/i/p.png) [x](/p/[[A]].md) [A](/p/A)');
  });
  it("rewrites tens of thousands of wikilinks in one paragraph", () => {
    const note = rewriteNote(Array.from({ length: 45_000 }, () => "[[A]]").join(" "), pages);
    expect(note.backlinks).toBe(45_000);
    expect(note.markdown).toBe(Array.from({ length: 45_000 }, () => "[A](/p/A)").join(" "));
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
