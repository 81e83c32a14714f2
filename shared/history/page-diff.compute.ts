// The change between two versions of a page, computed by jsdiff (the `diff` package: Myers' algorithm, the
// unified format git and patch read): line hunks of the markdown, and the title and icon when they changed.
// Pure and synchronous: it runs in a worker (page-diff.ts), never on the server's event loop. `maxEditLength`
// bounds the work: past it jsdiff gives up and the diff is reported too large.
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from "diff";
import { z } from "zod";

const pageVersionSchema = z.object({
  /** How the version is named in the diff's header: the instant asked for. */
  label: z.string(),
  title: z.string(),
  icon: z.string().nullable(),
  markdown: z.string(),
});
export type PageVersion = z.infer<typeof pageVersionSchema>;

export const diffHunkSchema = z.object({
  oldStart: z.number().int(),
  oldLines: z.number().int(),
  newStart: z.number().int(),
  newLines: z.number().int(),
  /** The hunk's lines, each starting with " " (context), "-" (removed) or "+" (added). */
  lines: z.array(z.string()),
});

const fieldChange = z.object({ from: z.string().nullable(), to: z.string().nullable() }).nullable();

const pageDiffSchema = z.object({
  title: fieldChange.describe("the title before and after, or null when it did not change"),
  icon: fieldChange.describe("the icon before and after, or null when it did not change"),
  hunks: z.array(diffHunkSchema),
  linesAdded: z.number().int(),
  linesRemoved: z.number().int(),
});
export type PageDiff = z.infer<typeof pageDiffSchema>;

export const diffOutcomeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("diff"), diff: pageDiffSchema, unified: z.string() }),
  z.object({ kind: z.literal("too_large") }),
]);
export type DiffOutcome = z.infer<typeof diffOutcomeSchema>;

export const diffTaskSchema = z.object({
  from: pageVersionSchema,
  to: pageVersionSchema,
  maxEditLength: z.number().int().positive(),
  context: z.number().int().nonnegative(),
});
export type DiffTask = z.infer<typeof diffTaskSchema>;

/** Ends with a line break, so a last line without one does not read as changed when a line is added after it. */
export const asLines = (markdown: string): string =>
  markdown === "" || markdown.endsWith("\n") ? markdown : `${markdown}\n`;

export function computePageDiff(task: DiffTask): DiffOutcome {
  const { from, to } = task;
  const patch = structuredPatch(
    "page.md",
    "page.md",
    asLines(from.markdown),
    asLines(to.markdown),
    from.label,
    to.label,
    { context: task.context, maxEditLength: task.maxEditLength },
  );
  if (!patch) return { kind: "too_large" };
  let linesAdded = 0;
  let linesRemoved = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith("+")) linesAdded += 1;
      else if (line.startsWith("-")) linesRemoved += 1;
    }
  }
  const hunks = patch.hunks.map(({ oldStart, oldLines, newStart, newLines, lines }) => ({
    oldStart,
    oldLines,
    newStart,
    newLines,
    lines,
  }));
  const title = from.title === to.title ? null : { from: from.title, to: to.title };
  const icon = from.icon === to.icon ? null : { from: from.icon, to: to.icon };
  const headers = [
    title ? `# title: ${JSON.stringify(title.from)} -> ${JSON.stringify(title.to)}\n` : "",
    icon ? `# icon: ${JSON.stringify(icon.from)} -> ${JSON.stringify(icon.to)}\n` : "",
  ].join("");
  const unified = headers + (patch.hunks.length === 0 ? "" : formatPatch(patch, FILE_HEADERS_ONLY));
  return { kind: "diff", diff: { title, icon, hunks, linesAdded, linesRemoved }, unified };
}
