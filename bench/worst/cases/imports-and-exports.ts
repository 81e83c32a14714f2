// Worst cases of an Obsidian vault imported at the limits of its shape, and the whole workspace exported.
import { get, send, type WorstCases } from "./worst-case.ts";

/** A vault at the import's limits of shape: 1,000 notes of 10 KB, each with 50 wikilinks and an embed. */
const heavyVault = () =>
  Array.from({ length: 1_000 }, (_, i) => ({
    path: `Vault ${i % 20}/Note ${i}.md`,
    content: `---\ntags: [a, b]\naliases: [N${i}]\n---\n# Note ${i}\n\n${Array.from({ length: 50 }, (_, j) => `[[Note ${(i + j) % 1_000}#Heading|alias ${j}]]`).join(" ")}\n\n${"Body text. ".repeat(800)}`,
  }));

export const importExportCases: WorstCases = {
  "POST /api/v1/imports/obsidian": {
    input: "1,000 notes of 10 KB, 50 wikilinks each",
    maxIterations: 2,
    request: (w) => send(w.owner, "POST", "/imports/obsidian", { files: heavyVault() }),
  },
  "GET /api/v1/exports/obsidian": {
    input: "the whole largest workspace, with the largest page",
    maxIterations: 2,
    request: (w) => get(w.owner, "/exports/obsidian"),
  },
};
