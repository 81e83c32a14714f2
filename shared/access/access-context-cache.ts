// Access contexts remembered per user until that user's access changes, the same for every read store: the
// store records, per user, the global position of the last change to their access, and that position (with the
// store's generation where a rebuild starts a new one) is the version a context is kept at. The position, not a
// counter: a rebuild replays the same positions to the same contexts, so a context cached before a rebuild is
// never wrong after it. The stores only read the position and load a context (adapters/*/access.view).
import { unmeasuredCache, type CacheMetrics } from "../metrics/metrics.port.ts";
import type { AccessContext } from "./access-context.ts";

/** Users whose contexts are kept at most; past it the cache starts afresh. */
const CONTEXT_CACHE_LIMIT = 10_000;

/** Where a user's access stands: the position of its last change, in the store's generation if it has them. */
export interface AccessVersion {
  readonly position: number;
  readonly generation?: number;
}

export class AccessContextCache {
  private readonly contexts = new Map<string, { version: AccessVersion; context: AccessContext }>();

  constructor(private readonly metrics: CacheMetrics = unmeasuredCache) {}

  /** The user's context at `version`: the one kept if it was loaded at that version, else `load`'s, kept. */
  async contextFor(
    userId: string,
    version: AccessVersion,
    load: () => AccessContext | Promise<AccessContext>,
  ): Promise<AccessContext> {
    const cached = this.contexts.get(userId);
    if (cached && cached.version.position === version.position && cached.version.generation === version.generation) {
      this.metrics.hit();
      return cached.context;
    }
    this.metrics.miss();
    if (this.contexts.size >= CONTEXT_CACHE_LIMIT) this.contexts.clear();
    const context = await load();
    this.contexts.set(userId, { version, context });
    return context;
  }
}
