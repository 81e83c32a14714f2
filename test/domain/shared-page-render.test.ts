import { describe, expect, it } from "vitest";
import { markdownToSafeHtml, type RenderOptions } from "../../shared/share-links/render/markdown-to-safe-html.ts";

const inside = "33333333-3333-4333-8333-333333333333";
const outside = "22222222-2222-4222-8222-222222222222";
const image = "11111111-1111-4111-8111-111111111111";
const folderLink: RenderOptions = {
  linkBase: "/s/sl_test",
  rootPageId: null,
  pages: { [inside]: { title: "Second page" } },
};
const render = (markdown: string, options: RenderOptions = folderLink) => markdownToSafeHtml(markdown, options);

describe("a shared page's markdown as HTML", () => {
  it("keeps ordinary markdown: headings, emphasis, lists, tables, code", () => {
    expect(render("# Title\n\n*a* **b**\n\n- one\n\n| x |\n|---|\n| 1 |\n\n`code`")).toBe(
      "<h1>Title</h1>\n<p><em>a</em> <strong>b</strong></p>\n<ul>\n<li>one</li>\n</ul>\n<table>\n<thead>\n<tr>\n<th>x</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n</tr>\n</tbody>\n</table>\n<p><code>code</code></p>",
    );
  });

  it("drops raw HTML and unsafe links", () => {
    const html = render(
      "<script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n[a](javascript:alert(3)) [b](data:text/html,x) [c](vbscript:x)\n\n<style>p{}</style>\n\n<svg onload=alert(4)></svg>",
    );
    for (const forbidden of ["<script", "onerror", "javascript:", "data:", "vbscript:", "<style", "<svg", "onload"])
      expect(html).not.toContain(forbidden);
  });

  it("points links to pages of the link through it, and turns links to other pages of the service into their text", () => {
    expect(
      render(
        `[in](/api/v1/pages/${inside}#part) [out](/api/v1/pages/${outside}) [abs](https://host.example/api/v1/pages/${inside}) [api](/api/v1/me)`,
      ),
    ).toBe(
      `<p><a href="/s/sl_test/pages/${inside}#part">in</a> out <a href="/s/sl_test/pages/${inside}">abs</a> api</p>`,
    );
  });

  it("resolves wikilinks by title among the link's pages, others become their text", () => {
    expect(render("[[Second page]] [[second page|alias]] [[Elsewhere]] [[Elsewhere|shown]]")).toBe(
      `<p><a href="/s/sl_test/pages/${inside}">Second page</a> <a href="/s/sl_test/pages/${inside}">alias</a> Elsewhere shown</p>`,
    );
  });

  it("serves the service's images through the link and does not load others", () => {
    expect(render(`![pic](/api/v1/images/${image}) ![far](https://elsewhere.example/x.png)`)).toBe(
      `<p><img src="/s/sl_test/images/${image}" alt="pic"> far</p>`,
    );
  });

  it("serves the page's attachments through the link: links (with or without a host) and embeds", () => {
    const file = "44444444-4444-4444-8444-444444444444";
    expect(
      render(
        `[brief.pdf](/api/v1/attachments/${file}) [abs](https://host.example/api/v1/attachments/${file.toUpperCase()}) ![scan](/api/v1/attachments/${file})`,
      ),
    ).toBe(
      `<p><a href="/s/sl_test/attachments/${file}">brief.pdf</a> <a href="/s/sl_test/attachments/${file}">abs</a> <img src="/s/sl_test/attachments/${file}" alt="scan"></p>`,
    );
  });

  it("keeps external links, with rel noopener noreferrer nofollow", () => {
    expect(render("[site](https://example.com/)")).toBe(
      '<p><a href="https://example.com/" rel="noopener noreferrer nofollow">site</a></p>',
    );
  });

  it("a page link's links to its own page go to the link itself", () => {
    expect(render(`[me](/api/v1/pages/${inside})`, { ...folderLink, rootPageId: inside })).toBe(
      '<p><a href="/s/sl_test">me</a></p>',
    );
  });
});
