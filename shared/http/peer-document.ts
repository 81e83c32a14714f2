// A query node's API reference: it registers only the reads, so it serves its own document merged with the
// command API's, fetched once that answers.
import { z } from "zod";

const peerDocumentSchema = z.looseObject({
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.looseObject({ schemas: z.record(z.string(), z.unknown()).optional() }).optional(),
  tags: z.array(z.looseObject({ name: z.string() })).optional(),
});
type OpenApiDocument = z.infer<typeof peerDocumentSchema>;

/**
 * The other half of the API's document, for a query node, which registers only the reads: fetched from the
 * command API once it answers, and kept. Until then the node's document holds its own routes only.
 */
export class PeerDocument {
  private document: OpenApiDocument | null = null;

  constructor(private readonly url: string) {}

  latest(): OpenApiDocument | null {
    return this.document;
  }

  async get(): Promise<OpenApiDocument | null> {
    if (this.document) return this.document;
    try {
      const response = await fetch(this.url, { signal: AbortSignal.timeout(2_000) });
      const parsed = peerDocumentSchema.safeParse(response.ok ? await response.json() : null);
      if (parsed.success) this.document = parsed.data;
    } catch {
      // The command API is not up yet: the next request asks again.
    }
    return this.document;
  }
}

/** The union of two services' documents: every path with the operations of both, schemas and tags merged. */
export function mergeDocuments(own: unknown, peer: OpenApiDocument | null): OpenApiDocument {
  const mine = peerDocumentSchema.parse(own);
  if (!peer) return mine;
  const paths: Record<string, Record<string, unknown>> = { ...peer.paths };
  for (const [path, operations] of Object.entries(mine.paths)) paths[path] = { ...paths[path], ...operations };
  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  const tags = [...(mine.tags ?? [])];
  for (const tag of peer.tags ?? []) if (!tags.some((known) => known.name === tag.name)) tags.push(tag);
  const schemas = { ...peer.components?.schemas, ...mine.components?.schemas };
  return { ...mine, paths: sortedPaths, tags, components: { ...peer.components, ...mine.components, schemas } };
}
