import { describe, expect, it } from "vitest";
import { DirectoryNames, safeFileName } from "../../shared/exports/vault-file-names.ts";
import { withVaultFrontmatter } from "../../shared/exports/vault-frontmatter.ts";
import { findLinks, toVaultMarkdown } from "../../shared/exports/vault-links.ts";

const PAGE = "11111111-1111-4111-8111-111111111111";
const OTHER = "22222222-2222-4222-8222-222222222222";
const IMAGE = "33333333-3333-4333-8333-333333333333";
const FILE = "44444444-4444-4444-8444-444444444444";

describe("exported file names", () => {
  it("are valid on Windows, macOS, Linux and in Obsidian's links", () => {
    expect(safeFileName('a/b\\c:d*e?f"g<h>i|j#k^l[m]n')).toBe("a_b_c_d_e_f_g_h_i_j_k_l_m_n");
    expect(safeFileName("Trailing. . ")).toBe("Trailing");
    expect(safeFileName(".hidden")).toBe("_hidden");
    expect(safeFileName("con")).toBe("con_");
    expect(safeFileName("LPT1.txt")).toBe("LPT1.txt_");
    expect(safeFileName("...")).toBe("Untitled");
    expect(Buffer.byteLength(safeFileName("é".repeat(200)))).toBeLessThanOrEqual(180);
  });
  it("show what the title shows: no zero-width characters, no bidirectional controls that reverse a name", () => {
    expect(safeFileName("Pl\u200Ban\u00AD")).toBe("Plan");
    expect(safeFileName("\u202Egpj.exe")).toBe("_gpj.exe");
    expect(safeFileName("a\u2066b\u2069")).toBe("a_b_");
  });
  it("collide within a directory without case and are numbered in the order asked", () => {
    const names = new DirectoryNames();
    expect([
      names.claim("Plan", ".md"),
      names.claim("plan", ".md"),
      names.claim("Plan (2)", ".md"),
      names.claim("Plan", ".png"),
    ]).toEqual(["Plan", "plan (2)", "Plan (2) (2)", "Plan"]);
  });
});

describe("a page written back as a note", () => {
  const targets = {
    page: (id: string) => (id === PAGE ? "Projects/Plan" : null),
    image: (id: string) => (id === IMAGE ? "attachments/pic.png" : null),
    attachment: (id: string) => (id === FILE ? "attachments/Q3 report.pdf" : null),
    origin: "https://ws.example",
  };
  const write = (markdown: string) => toVaultMarkdown(markdown, findLinks(markdown), targets);

  it("writes links to exported pages as wikilinks, others as absolute URLs, and leaves code alone", () => {
    expect(
      write(
        `[Plan](/api/v1/pages/${PAGE}#next-steps) [the \\*plan\\*](/api/v1/pages/${PAGE}) [x](/api/v1/pages/${OTHER}) \`[y](/api/v1/pages/${PAGE})\``,
      ),
    ).toBe(
      `[[Projects/Plan#next-steps|Plan]] [[Projects/Plan|the *plan*]] [x](https://ws.example/api/v1/pages/${OTHER}) \`[y](/api/v1/pages/${PAGE})\``,
    );
  });
  it("falls back to a markdown link to the file when the text holds markup, and escapes the pipe in a table row", () => {
    expect(write(`[*big* plan](/api/v1/pages/${PAGE}#next)`)).toBe("[*big* plan](Projects/Plan.md#next)");
    expect(write(`[a](/api/v1/pages/${PAGE}#Not%20a%20slug)`)).toBe("[a](Projects/Plan.md#Not%2520a%2520slug)");
    expect(write(`| [a](/api/v1/pages/${PAGE}) |`)).toBe("| [[Projects/Plan\\|a]] |");
  });
  it("embeds exported images by name, with their alt text when it is not the name", () => {
    expect(
      write(`![pic](/api/v1/images/${IMAGE}) ![a pic](/api/v1/images/${IMAGE}) [see](/api/v1/images/${IMAGE})`),
    ).toBe("![[pic.png]] ![a pic](attachments/pic.png) [[pic.png|see]]");
  });
  it("writes links to exported attachments as wikilinks to the file, with the text when it is not the name", () => {
    expect(
      write(
        `[Q3 report.pdf](/api/v1/attachments/${FILE}) [the report](/api/v1/attachments/${FILE}) [*bold*](/api/v1/attachments/${FILE}) [gone](/api/v1/attachments/${OTHER})`,
      ),
    ).toBe(
      `[[Q3 report.pdf]] [[Q3 report.pdf|the report]] [*bold*](attachments/Q3%20report.pdf) [gone](https://ws.example/api/v1/attachments/${OTHER})`,
    );
  });
  it("puts title and icon first in the page's own frontmatter, or in a block of their own", () => {
    expect(withVaultFrontmatter("---\ntags: [a]\n---\nBody", { title: "a/b", icon: "🌱" })).toBe(
      '---\ntitle: "a/b"\nicon: "🌱"\ntags: [a]\n---\nBody',
    );
    expect(withVaultFrontmatter("Body", { title: null, icon: "🌱" })).toBe('---\nicon: "🌱"\n---\nBody');
    expect(withVaultFrontmatter("Body", { title: null, icon: null })).toBe("Body");
  });
});
