// The messages between an import and the worker thread that rewrites its notes (note-rewriter.ts), checked
// with zod on arrival on both sides like any input from outside the thread.
import { z } from "zod";

export const toWorker = z.discriminatedUnion("type", [
  /** An import's links, sent once per import and worker before its first note. */
  z.object({ type: z.literal("links"), importId: z.number().int(), scope: z.string(), notePaths: z.array(z.string()), imagePaths: z.array(z.string()) }),
  z.object({ type: z.literal("note"), importId: z.number().int(), path: z.string(), directory: z.string(), markdown: z.string() }),
  /** The import is over: its links are dropped. */
  z.object({ type: z.literal("forget"), importId: z.number().int() }),
]);
export type ToWorker = z.infer<typeof toWorker>;

export const rewrittenNote = z.object({
  title: z.string().nullable(),
  icon: z.string().nullable(),
  markdown: z.string(),
  backlinks: z.number().int(),
  images: z.array(z.string()),
  problems: z.array(z.string()),
});

export const fromWorker = z.discriminatedUnion("type", [
  /** The worker's modules are loaded: the time limit of a note counts from here, not from the thread's start. */
  z.object({ type: z.literal("ready") }),
  z.object({ type: z.literal("rewritten"), note: rewrittenNote }),
  /** The note could not be parsed (the parser threw), or its import's links were never sent. */
  z.object({ type: z.literal("unreadable") }),
]);
export type FromWorker = z.infer<typeof fromWorker>;
