// Vault notes parsed and their links rewritten in the process's worker pool (shared/workers/), so that the
// markdown parser (whose bracket matching within one paragraph is quadratic) never holds the server's event
// loop. Each note is one task with the import's own time limit: past it, its thread is terminated (a fresh one
// takes its place) and the note is reported too complex; a note whose parse outgrows a thread's heap is
// reported too large. An import's links go to a thread once, the first time that thread meets one of its notes.
import { randomUUID } from "node:crypto";
import { AppError } from "../errors/app-error.ts";
import type { WorkerPool } from "../workers/worker-pool.ts";
import type { RewrittenNote } from "./vault-note.ts";
import type { VaultLinks } from "./vault-resolver.ts";

type RewriteOutcome =
  | { readonly kind: "rewritten"; readonly note: RewrittenNote }
  | { readonly kind: "unreadable" }
  | { readonly kind: "too_complex" }
  | { readonly kind: "too_large" };

interface NoteToRewrite {
  readonly path: string;
  readonly directory: string;
  readonly markdown: string;
}

/** One import's use of the pool; `close` when the import is over, which lets its links go. */
export interface NoteRewriteSession {
  rewrite(note: NoteToRewrite): Promise<RewriteOutcome>;
  close(): void;
}

export interface NoteRewriterLimits {
  /** A note's parse and rewrite may take this long; past it, the note is reported too complex. */
  readonly noteTimeLimitMs: number;
}

export class NoteRewriter {
  constructor(
    private readonly pool: WorkerPool,
    private readonly limits: NoteRewriterLimits,
  ) {}

  session(links: VaultLinks): NoteRewriteSession {
    const importId = randomUUID();
    let held: {
      scope: string;
      notePaths: string[];
      images: { path: string; sha256: string }[];
      attachmentPaths: string[];
    } | null = {
      scope: links.scope,
      notePaths: [...links.notePaths],
      images: links.images.map((image) => ({ ...image })),
      attachmentPaths: [...links.attachmentPaths],
    };
    const options = { timeLimitMs: this.limits.noteTimeLimitMs };
    return {
      rewrite: async (note) => {
        if (!held) throw new Error("the import's note session is closed");
        try {
          let outcome = await this.pool.run("rewriteNote", { importId, links: null, ...note }, options);
          if (outcome.kind === "needsLinks")
            outcome = await this.pool.run("rewriteNote", { importId, links: held, ...note }, options);
          return outcome.kind === "rewritten" ? { kind: "rewritten", note: outcome.note } : { kind: "unreadable" };
        } catch (error) {
          // Limits are the note's; anything else (the pool cannot take work: 503) is the import's.
          if (error instanceof AppError && error.code === "too_complex") return { kind: "too_complex" };
          if (error instanceof AppError && error.code === "too_large") return { kind: "too_large" };
          throw error;
        }
      },
      close: () => {
        held = null;
      },
    };
  }

  /** Closes the pool (shared with the query side in one process: closing it twice is harmless). */
  close(): Promise<void> {
    return this.pool.close();
  }
}
