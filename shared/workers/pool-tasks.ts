// The tasks the worker pool runs, as schemas: each task's input and output, checked with zod on both sides of
// the thread (the worker parses what it is sent, the process parses what comes back), like any input from
// outside the thread. The implementations live in pool.worker.ts, which only the worker threads load.
import { MessagePort } from "node:worker_threads";
import { z } from "zod";
import { rankedDocSchema, rankParamsSchema } from "../pages/search-ranking.ts";
import { diffOutcomeSchema, diffTaskSchema } from "../history/page-diff.compute.ts";

const foundLink = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("page"),
    id: z.string(),
    anchor: z.string().nullable(),
    start: z.number().int(),
    end: z.number().int(),
    text: z.string(),
  }),
  z.object({
    kind: z.literal("image"),
    id: z.string(),
    start: z.number().int(),
    end: z.number().int(),
    alt: z.string(),
  }),
  z.object({
    kind: z.literal("imageLink"),
    id: z.string(),
    start: z.number().int(),
    end: z.number().int(),
    text: z.string(),
  }),
  z.object({
    kind: z.literal("attachment"),
    id: z.string(),
    start: z.number().int(),
    end: z.number().int(),
    text: z.string(),
  }),
]);

/** One note of a vault export, its links resolved by the process: what the worker needs to write its entry. */
const vaultNote = z.object({
  markdown: z.string(),
  links: z.array(foundLink),
  /** Page id to its vault path (no `.md`), null when it is not exported; only the ids the links name. */
  pages: z.record(z.string(), z.string().nullable()),
  /** Image id to its vault path, null when it is not exported; only the ids the links name. */
  images: z.record(z.string(), z.string().nullable()),
  /** Attachment id to its vault path, null when it is not exported; only the ids the links name. */
  attachments: z.record(z.string(), z.string().nullable()),
  origin: z.string(),
  title: z.string().nullable(),
  icon: z.string().nullable(),
});

/** What a vault import's note links may name (shared/imports/vault-resolver.ts). */
const vaultLinks = z.object({
  scope: z.string(),
  notePaths: z.array(z.string()),
  images: z.array(z.object({ path: z.string(), sha256: z.string() })),
  attachmentPaths: z.array(z.string()),
});

const rewrittenNote = z.object({
  title: z.string().nullable(),
  icon: z.string().nullable(),
  markdown: z.string(),
  backlinks: z.number().int(),
  images: z.array(z.string()),
  attachments: z.array(z.string()),
  problems: z.array(z.string()),
});

/** A zip entry deflated in the worker: the raw deflate stream, the CRC-32 and the size of what it holds. */
const deflatedEntry = z.object({
  deflated: z.instanceof(Uint8Array),
  crc: z.number().int(),
  size: z.number().int().nonnegative(),
});

/** What a shared page's links may reach (shared/share-links/render/markdown-to-safe-html.ts). */
const renderOptions = z.object({
  linkBase: z.string(),
  pages: z.record(z.string(), z.object({ title: z.string() })),
  rootPageId: z.string().nullable(),
  title: z.string().nullable().optional(),
});

export const poolTasks = {
  /** A share link's page: its markdown as sanitised HTML, links kept within the link. */
  renderSharedPage: {
    input: z.object({ markdown: z.string(), options: renderOptions }),
    output: z.object({ html: z.string() }),
  },
  /** A share link's page as markdown (Accept: text/markdown), its links kept within the link as the HTML's are. */
  renderSharedMarkdown: {
    input: z.object({ markdown: z.string(), options: renderOptions }),
    output: z.object({ markdown: z.string() }),
  },
  /** The change between two versions of a page, as hunks and a unified diff (shared/history/page-diff.compute.ts). */
  pageDiff: { input: diffTaskSchema, output: diffOutcomeSchema },
  /** Lines added and removed between two texts (shared/history/line-diff.ts). */
  lineDiff: {
    input: z.object({ before: z.string(), after: z.string() }),
    output: z.object({ linesAdded: z.number().int().nonnegative(), linesRemoved: z.number().int().nonnegative() }),
  },
  /** The links to this service's pages and images each markdown holds (parsed with mdast), in order. */
  findVaultLinks: {
    input: z.object({ markdowns: z.array(z.string()) }),
    output: z.object({ links: z.array(z.array(foundLink)) }),
  },
  /**
   * An imported note parsed and its links rewritten (shared/imports/vault-note.ts). A thread keeps the resolver
   * of the last few imports it served: `links` is sent only when the thread answers `needsLinks`.
   */
  rewriteNote: {
    input: z.object({
      importId: z.string(),
      links: vaultLinks.nullable(),
      path: z.string(),
      directory: z.string(),
      markdown: z.string(),
    }),
    output: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("rewritten"), note: rewrittenNote }),
      /** The parser threw on the note. */
      z.object({ kind: z.literal("unreadable") }),
      /** This thread holds no resolver for the import: the task is sent again with its links. */
      z.object({ kind: z.literal("needsLinks") }),
    ]),
  },
  /** A search's hits ranked in the read models' SQLite file (shared/adapters/sqlite/page-search-rank.ts). */
  rankSearch: {
    input: z.object({ file: z.string(), params: rankParamsSchema }),
    output: z.object({ ranked: z.array(rankedDocSchema) }),
  },
  /** Each note written for a vault (wikilinks, frontmatter) and deflated as a zip entry. */
  vaultEntries: {
    input: z.object({ notes: z.array(vaultNote) }),
    output: z.object({ entries: z.array(deflatedEntry) }),
  },
} as const;

export type PoolTaskName = keyof typeof poolTasks;
export type PoolTaskInput<K extends PoolTaskName> = z.infer<(typeof poolTasks)[K]["input"]>;
export type PoolTaskOutput<K extends PoolTaskName> = z.infer<(typeof poolTasks)[K]["output"]>;
export type DeflatedEntry = z.infer<typeof deflatedEntry>;
export type VaultNoteTask = z.infer<typeof vaultNote>;

/** What the process sends a worker: a task by name, and the port on which the worker says it began. */
export const poolRequest = z.object({
  task: z.enum(Object.keys(poolTasks) as [PoolTaskName, ...PoolTaskName[]]),
  input: z.unknown(),
  begin: z.instanceof(MessagePort),
});
export type PoolRequest = z.infer<typeof poolRequest>;
