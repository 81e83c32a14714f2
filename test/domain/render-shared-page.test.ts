// The renderer's worker thread and its way out for markdown it cannot render in time.
import { afterEach, describe, expect, it } from "vitest";
import { SharedPageRenderer } from "../../shared/share-links/render/render-shared-page.ts";

const options = { linkBase: "/s/sl_test", rootPageId: null, pages: {} };
const renderers: SharedPageRenderer[] = [];
afterEach(async () => {
  for (const renderer of renderers.splice(0)) await renderer.close();
});

describe("rendering a shared page off the event loop", () => {
  it("renders in a worker thread", async () => {
    const renderer = new SharedPageRenderer();
    renderers.push(renderer);
    expect(await renderer.render("**bold** <script>x</script>", options)).toBe("<p><strong>bold</strong> x</p>");
    expect(renderer.rendered).toBe(1);
  }, 30_000);

  it("shows markdown it cannot render within the time limit as escaped text, answers it so at once the next time, and renders the next page on a fresh worker", async () => {
    // 60,000 characters of unclosed link brackets take the parser seconds (its matching is quadratic); the limit is 100 ms.
    const renderer = new SharedPageRenderer(100);
    renderers.push(renderer);
    const pathological = `<b>${"[x]".repeat(20_000)}`;
    const shown = await renderer.render(pathological, options);
    expect(shown.startsWith("<pre>&lt;b&gt;[x][x]")).toBe(true);
    expect(shown).not.toContain("<b>");
    expect(renderer.rendered).toBe(0);
    expect(await renderer.render(pathological, options)).toBe(shown);
    expect(await renderer.render("fine", options)).toBe("<p>fine</p>");
    expect(renderer.rendered).toBe(1);
  }, 60_000);
});
