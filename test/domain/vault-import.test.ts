import { describe, expect, it } from "vitest";
import { derivedId } from "../../shared/imports/import-ids.ts";
import { VaultIndex } from "../../shared/imports/link-resolution.ts";
import { sortVault } from "../../shared/imports/vault-files.ts";
import { headingSlug, rewriteNote, type NoteResolver } from "../../shared/imports/vault-note.ts";

const pages: NoteResolver = {
  page: (target) => (target === "Missing" ? null : `/p/${target}`),
  image: (target, alt) => (target.endsWith("gone.png") ? null : { path: target, markdown: `![${alt}](/i/${target})` }),
};

describe("sorting a vault's files", () => {
  it("keeps notes and images, collects the notes' directories parents first, and reports the rest", () => {
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
    expect(sorted.directories).toEqual(["a", "a/b"]);
    expect(sorted.images.map((image) => image.path)).toEqual(["img/p.png"]);
    expect(sorted.errors).toHaveLength(3);
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
