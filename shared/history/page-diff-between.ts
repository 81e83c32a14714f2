// The change of a page between two instants, for a caller: both versions are read as `?at=` reads them (today's
// permission, a hidden folder's name hidden, 404 when the page did not exist then), and compared off the event
// loop by diffPageVersions. The GET route and the MCP server's diff_page both call it, so both count against one
// cap of diffs at once per user (DIFFS_PER_USER), taken before either version is read.
import type { Principal } from "../auth/principal.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { refuseFuture, type Instant } from "./instant.ts";
import type { PageDiff } from "./page-diff.compute.ts";
import { diffPageVersions, type DiffLimits } from "./page-diff.ts";
import { pageRecordAt } from "./read-history.ts";
import { runAsCaller, userCaller } from "../workers/pool-caller.ts";
import type { CallerSlots } from "../workers/caller-slots.ts";
import type { WorkerPool } from "../workers/worker-pool.ts";

export interface DiffPorts {
  readonly views: ReadModels;
  readonly clock: () => Date;
  /** How far the read models reach: `to` when it is not given. */
  readonly projection: { current(): Promise<number> };
  /** The process's worker pool, where the diff is computed. */
  readonly pool: Pick<WorkerPool, "run">;
  readonly diffLimits?: DiffLimits;
  /** The diffs each user may run at once in this process (DIFFS_PER_USER), one count for every caller of this function. */
  readonly diffSlots: Pick<CallerSlots, "take">;
}

export interface PageDiffAnswer extends PageDiff {
  readonly pageId: string;
  /** The instants compared, as positions of the history (the latest change at or before each instant). */
  readonly fromPosition: string;
  readonly toPosition: string;
  /** The unified diff of the markdown, headed by the title and icon changes. */
  readonly unified: string;
}

const labelOf = (instant: Instant): string =>
  instant.kind === "position" ? `position ${instant.position}` : new Date(instant.ms).toISOString();

export async function pageDiffBetween(
  ports: DiffPorts,
  principal: Principal,
  pageId: string,
  range: { readonly from: Instant; readonly to?: Instant | undefined },
): Promise<PageDiffAnswer> {
  const head = await ports.projection.current();
  const now = ports.clock();
  refuseFuture(range.from, now, head, "from");
  const to: Instant = range.to ?? { kind: "position", position: head };
  refuseFuture(to, now, head, "to");
  // Each diff reads two whole versions on the event loop before its task takes a worker: a user's share of
  // them is bounded before any of that is paid.
  const release = ports.diffSlots.take(principal.user.id);
  try {
    const before = await pageRecordAt(ports.views, principal, pageId, range.from);
    const after = await pageRecordAt(ports.views, principal, pageId, to);
    const version = (label: string, read: typeof before) => ({
      label,
      title: read.shown.title,
      icon: read.shown.icon,
      markdown: read.markdown,
    });
    const compared = () =>
      diffPageVersions(
        ports.pool,
        version(labelOf(range.from), before),
        version(range.to === undefined ? "now" : labelOf(to), after),
        ports.diffLimits,
      );
    const { diff, unified } = await runAsCaller(userCaller(principal.user.id), compared);
    return {
      pageId,
      fromPosition: String(before.shown.updatedPosition),
      toPosition: String(after.shown.updatedPosition),
      ...diff,
      unified,
    };
  } finally {
    release();
  }
}
