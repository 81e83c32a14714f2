// A thread of the worker pool (worker-pool.ts): runs one task at a time, its input and output checked against
// pool-tasks.ts. Only worker threads load this module, and with it the parsers the tasks need.
import { crc32, deflateRawSync } from "node:zlib";
import { rankInFile } from "../adapters/sqlite/page-search-rank.ts";
import { withVaultFrontmatter } from "../exports/vault-frontmatter.ts";
import { findLinks, toVaultMarkdown } from "../exports/vault-links.ts";
import { summariseLines } from "../history/line-diff.ts";
import { computePageDiff } from "../history/page-diff.compute.ts";
import { markdownToSafeHtml, markdownWithinLink } from "../share-links/render/markdown-to-safe-html.ts";
import { rewriteNote } from "../imports/vault-note.ts";
import { VaultResolver } from "../imports/vault-resolver.ts";
import {
  poolRequest,
  poolTasks,
  type DeflatedEntry,
  type PoolTaskName,
  type PoolTaskOutput,
  type VaultNoteTask,
} from "./pool-tasks.ts";

/** The level fflate's ZipDeflate used on the main thread before: the same archives, byte for byte. */
const DEFLATE_LEVEL = 6;

function vaultEntry(note: VaultNoteTask): DeflatedEntry {
  const markdown = toVaultMarkdown(note.markdown, note.links, {
    page: (id) => note.pages[id] ?? null,
    image: (id) => note.images[id] ?? null,
    attachment: (id) => note.attachments[id] ?? null,
    origin: note.origin,
  });
  const bytes = Buffer.from(withVaultFrontmatter(markdown, { title: note.title, icon: note.icon }), "utf8");
  return { deflated: deflateRawSync(bytes, { level: DEFLATE_LEVEL }), crc: crc32(bytes), size: bytes.length };
}

/** Imports whose resolver this thread holds, the last used last; the oldest goes past the bound. */
const RESOLVERS_KEPT = 8;
const resolvers = new Map<string, VaultResolver>();

function resolverFor(
  importId: string,
  links: ConstructorParameters<typeof VaultResolver>[0] | null,
): VaultResolver | null {
  const held = resolvers.get(importId);
  const resolver = held ?? (links ? new VaultResolver(links) : null);
  if (!resolver) return null;
  resolvers.delete(importId);
  resolvers.set(importId, resolver);
  for (const oldest of resolvers.keys()) {
    if (resolvers.size <= RESOLVERS_KEPT) break;
    resolvers.delete(oldest);
  }
  return resolver;
}

function run<K extends PoolTaskName>(task: K, raw: unknown): PoolTaskOutput<K>;
function run(task: PoolTaskName, raw: unknown): PoolTaskOutput<PoolTaskName> {
  switch (task) {
    case "renderSharedPage": {
      const input = poolTasks.renderSharedPage.input.parse(raw);
      return { html: markdownToSafeHtml(input.markdown, input.options) };
    }
    case "renderSharedMarkdown": {
      const input = poolTasks.renderSharedMarkdown.input.parse(raw);
      return { markdown: markdownWithinLink(input.markdown, input.options) };
    }
    case "pageDiff":
      return computePageDiff(poolTasks.pageDiff.input.parse(raw));
    case "lineDiff": {
      const input = poolTasks.lineDiff.input.parse(raw);
      return summariseLines(input.before, input.after);
    }
    case "findVaultLinks": {
      const input = poolTasks.findVaultLinks.input.parse(raw);
      return { links: input.markdowns.map(findLinks) };
    }
    case "rewriteNote": {
      const input = poolTasks.rewriteNote.input.parse(raw);
      const resolver = resolverFor(input.importId, input.links);
      if (!resolver) return { kind: "needsLinks" };
      try {
        return { kind: "rewritten", note: rewriteNote(input.markdown, resolver.forNote(input.directory)) };
      } catch {
        return { kind: "unreadable" };
      }
    }
    case "rankSearch": {
      const input = poolTasks.rankSearch.input.parse(raw);
      return { ranked: rankInFile(input.file, input.params) };
    }
    case "vaultEntries": {
      const input = poolTasks.vaultEntries.input.parse(raw);
      return { entries: input.notes.map(vaultEntry) };
    }
  }
}

/** Piscina calls the default export with each task. */
export default function runTask(message: unknown): unknown {
  const request = poolRequest.parse(message);
  request.begin.postMessage(null);
  request.begin.close();
  return run(request.task, request.input);
}
