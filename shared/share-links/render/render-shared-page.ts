// A shared page's safe HTML, rendered in the process's worker pool (shared/workers/) so that a large or
// pathological page never holds the event loop. A page whose rendering takes longer than the time limit (the
// markdown parser's bracket matching is quadratic within a paragraph: 500,000 characters of `[x]` take minutes),
// or needs more memory than a pool thread may hold, is shown as its escaped markdown text instead; the markdown's
// hash is kept, so the same text is not tried again and cannot hold a thread twice. A page whose measure predicts
// a render past the limit (render-cost.ts: its brackets and size) is shown as text without taking a thread at
// all, whatever it differs by from another. A pool too busy to take the page answers 503 with Retry-After, and a
// link owner's pages holding as many renders as one caller may answer 429 (the pool's own refusals).
import { mentionsAsText } from "../../mentions/mentions.ts";
import { createHash } from "node:crypto";
import { AppError } from "../../errors/app-error.ts";
import type { WorkerPool } from "../../workers/worker-pool.ts";
import { escapeHtml } from "../public-page-html.ts";
import { renderPastLimit } from "./render-cost.ts";
import type { RenderOptions } from "./markdown-to-safe-html.ts";

export type { RenderOptions } from "./markdown-to-safe-html.ts";

const TIME_LIMIT_MS = 10_000;
/** Markdown texts (by hash) known to take longer than the limit, at most this many remembered. */
const MAX_TOO_SLOW = 1_000;

/**
 * The page's text when it cannot be parsed in time, with what could point outside the link taken out (a cheap,
 * linear scrub: wikilinks become their text, the service's own urls go), so it is as safe as the rendered page.
 */
const scrubbed = (markdown: string): string =>
  markdown
    .replace(
      /\[\[([^\][|#\n]*)(?:#[^\][|\n]*)?(?:\|([^\][\n]*))?\]\]/g,
      (_whole, title: string, alias: string | undefined) => alias ?? title,
    )
    .replace(/(?:https?:\/\/[^\s/()]+)?\/api\/v1\/[^\s)\]>"']*/g, "");
const plainText = (markdown: string): string => `<pre>${escapeHtml(scrubbed(markdown))}</pre>`;

let renderedInProcess = 0;

export class SharedPageRenderer {
  private readonly tooSlow = new Set<string>();
  /** Pages rendered by the pool: what a test checks to know the work left the event loop. */
  rendered = 0;

  constructor(
    private readonly pool: Pick<WorkerPool, "run">,
    private readonly timeLimitMs = TIME_LIMIT_MS,
    /** Whether a page's measure predicts a render past the limit (render-cost.ts). */
    private readonly pastLimit: (markdown: string, timeLimitMs: number) => boolean = renderPastLimit,
  ) {}

  /** The page's markdown as sanitised HTML (an HTML fragment, without the surrounding document). */
  render(source: string, options: RenderOptions): Promise<string> {
    // A share page's reader has no account: a mention is shown as its text (`@Ann`), not as a link.
    const markdown = mentionsAsText(source);
    return this.inPool(
      markdown,
      async () =>
        (await this.pool.run("renderSharedPage", { markdown, options }, { timeLimitMs: this.timeLimitMs })).html,
      () => plainText(markdown),
    );
  }

  /** The page's markdown as the link's reader may have it: links kept within the link as the HTML's are. */
  markdown(source: string, options: RenderOptions): Promise<string> {
    const markdown = mentionsAsText(source);
    return this.inPool(
      markdown,
      async () =>
        (await this.pool.run("renderSharedMarkdown", { markdown, options }, { timeLimitMs: this.timeLimitMs }))
          .markdown,
      () => scrubbed(markdown),
    );
  }

  private async inPool(markdown: string, task: () => Promise<string>, fallback: () => string): Promise<string> {
    const key = createHash("sha256").update(markdown).digest("hex");
    if (this.tooSlow.has(key) || this.pastLimit(markdown, this.timeLimitMs)) return fallback();
    try {
      const done = await task();
      this.rendered += 1;
      renderedInProcess += 1;
      return done;
    } catch (error) {
      if (!(error instanceof AppError && (error.code === "too_complex" || error.code === "too_large"))) throw error;
      if (this.tooSlow.size >= MAX_TOO_SLOW) this.tooSlow.clear();
      this.tooSlow.add(key);
      return fallback();
    }
  }
}

/** How many pages this process rendered in its worker pool. */
export function sharedPagesRendered(): number {
  return renderedInProcess;
}
