// The docs stay readable and connected: every page fits one sitting, and every relative link and anchor in the
// docs and the README leads somewhere.
import { readdirSync, readFileSync, existsSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

const MAX_PAGE_BYTES = 12 * 1024;

function pages(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? pages(join(directory, entry.name))
      : entry.name.endsWith(".md")
        ? [join(directory, entry.name)]
        : [],
  );
}

/** GitHub's heading anchors: lower case, punctuation other than `-` and `_` dropped, spaces as `-`. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.*)$/.exec(line);
    if (!heading?.[1]) continue;
    const base = heading[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, "")
      .replaceAll(" ", "-");
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Relative links outside code: `[text](target)`, without the ones in fenced blocks or code spans. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? "")
    .filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith("/"));
}

const docs = pages("docs");

describe("the docs", () => {
  it("keep every page short enough to read in one sitting", () => {
    const tooLong = docs
      .filter((page) => statSync(page).size > MAX_PAGE_BYTES)
      .map((page) => `${page}: ${statSync(page).size} bytes`);
    expect(tooLong).toEqual([]);
  });

  it("link only to pages and anchors that exist", () => {
    const broken: string[] = [];
    for (const page of [...docs, "README.md"]) {
      for (const link of linksOf(readFileSync(page, "utf8"))) {
        const [path = "", anchor] = link.split("#");
        const target = path === "" ? page : normalize(join(dirname(page), path));
        if (!existsSync(target)) broken.push(`${page}: ${link}`);
        else if (anchor !== undefined && target.endsWith(".md") && !anchorsOf(readFileSync(target, "utf8")).has(anchor))
          broken.push(`${page}: ${link}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("are all reachable from the index", () => {
    const index = readFileSync("docs/README.md", "utf8");
    const listed = new Set(linksOf(index).map((link) => normalize(join("docs", link.split("#")[0] ?? ""))));
    expect(docs.filter((page) => page !== "docs/README.md" && !listed.has(page))).toEqual([]);
  });
});
