// A worker thread of note-rewriter.ts: parses notes and rewrites their links off the server's event loop. It
// keeps each import's resolver (built once from the links the import sends) until the import is forgotten.
import { parentPort } from "node:worker_threads";
import { fromWorker, toWorker, type FromWorker } from "./note-rewrite.protocol.ts";
import { rewriteNote } from "./vault-note.ts";
import { VaultResolver } from "./vault-resolver.ts";

const port = parentPort;
if (!port) throw new Error("note-rewrite.worker.ts runs as a worker thread");
const resolvers = new Map<number, VaultResolver>();
const reply = (message: FromWorker): void => port.postMessage(fromWorker.parse(message));

port.on("message", (data: unknown) => {
  const message = toWorker.parse(data);
  switch (message.type) {
    case "links":
      resolvers.set(message.importId, new VaultResolver(message));
      return;
    case "forget":
      resolvers.delete(message.importId);
      return;
    case "note": {
      const resolver = resolvers.get(message.importId);
      if (!resolver) return reply({ type: "unreadable" });
      try {
        reply({ type: "rewritten", note: rewriteNote(message.markdown, resolver.forNote(message.path, message.directory)) });
      } catch {
        reply({ type: "unreadable" });
      }
      return;
    }
  }
});
reply({ type: "ready" });
