// Who an event's notification may reach, read in bounded batches inside the projector's batch: a text's newly
// mentioned users, a page's watchers and those of every folder above it, a group's members. Every source stops
// after MAX_RECIPIENTS_PER_EVENT candidates, and only those who can view the page or folder at that point are
// kept (a mention or a watch grants nothing).
import { effectivePermission, type AccessTarget } from "../../../shared/access/effective-permission.ts";
import type { MentionSource } from "../../../shared/mentions/mentions.view.ts";
import { mentionedUserIds } from "../../../shared/mentions/mentions.ts";
import { MAX_RECIPIENTS_PER_EVENT } from "../../../shared/notifications/notification-limits.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

/** How many watchers or members one read takes. */
const FAN_OUT_BATCH = 200;

/** The page as access is judged on it, as the batch sees it; null once it is gone. */
export async function pageTarget<Tx>(
  writers: ProjectionWriters<Tx>,
  tx: Tx,
  pageId: string,
): Promise<AccessTarget | null> {
  const page = await writers.pages.get(tx, pageId);
  return page === null ? null : { kind: "page", id: page.id, ownerId: page.ownerId, ancestorIds: page.ancestorIds };
}

/** A page being created, before its own record is written: placed under `parentId`. */
export async function newPageTarget<Tx>(
  writers: ProjectionWriters<Tx>,
  tx: Tx,
  page: { pageId: string; ownerId: string; parentId: string | null },
): Promise<AccessTarget> {
  const parent = page.parentId === null ? null : await writers.folders.get(tx, page.parentId);
  const ancestorIds = parent === null ? [] : [parent.id, ...parent.ancestorIds];
  return { kind: "page", id: page.pageId, ownerId: page.ownerId, ancestorIds };
}

/** Of `candidates`, each once, those who can view `target` now; the actor is never among them (nor looked up). */
export async function* whoCanView<Tx>(
  writers: ProjectionWriters<Tx>,
  tx: Tx,
  target: AccessTarget,
  candidates: AsyncIterable<string> | Iterable<string>,
  actorId: string,
): AsyncIterable<string> {
  const seen = new Set<string>([actorId]);
  for await (const userId of candidates) {
    if (seen.has(userId)) continue;
    seen.add(userId);
    if (target.ownerId === userId) yield userId;
    else if (effectivePermission(await writers.access.contextFor(tx, userId), target) !== null) yield userId;
  }
}

/** The users `text` mentions that the source did not mention before this change (at most MAX_MENTIONS). */
export async function newlyMentioned<Tx>(
  writers: ProjectionWriters<Tx>,
  tx: Tx,
  source: MentionSource,
  text: string,
): Promise<string[]> {
  const mentioned = mentionedUserIds(text);
  if (mentioned.length === 0) return [];
  const before = new Set(await writers.mentions.mentionedIn(tx, source));
  return mentioned.filter((userId) => !before.has(userId));
}

/**
 * The page's watchers, then each ancestor folder's (a folder's watch covers its subtree, but not a page its
 * watcher stopped watching), batch by batch.
 */
export async function* watchersOfPage<Tx>(
  writers: ProjectionWriters<Tx>,
  tx: Tx,
  target: AccessTarget,
): AsyncIterable<string> {
  let read = 0;
  const entities = [
    { kind: "page" as const, id: target.id },
    ...target.ancestorIds.map((id) => ({ kind: "folder" as const, id })),
  ];
  for (const entity of entities) {
    let after: string | null = null;
    for (;;) {
      const limit = Math.min(FAN_OUT_BATCH, MAX_RECIPIENTS_PER_EVENT - read);
      if (limit <= 0) return;
      const batch = await writers.watches.watchersOf(tx, entity.kind, entity.id, after, limit);
      read += batch.length;
      for (const userId of batch)
        if (entity.kind === "page" || (await writers.watches.stateOf(tx, "page", target.id, userId)) !== "unwatched")
          yield userId;
      const last = batch.at(-1);
      if (last === undefined || batch.length < limit) break;
      after = last;
    }
  }
}

/** The group's members, oldest first, batch by batch, at most MAX_RECIPIENTS_PER_EVENT. */
export async function* membersOfGroup<Tx>(
  writers: ProjectionWriters<Tx>,
  tx: Tx,
  groupId: string,
): AsyncIterable<string> {
  let read = 0;
  let after: { position: number; id: string } | null = null;
  for (;;) {
    const limit = Math.min(FAN_OUT_BATCH, MAX_RECIPIENTS_PER_EVENT - read);
    if (limit <= 0) return;
    const batch = await writers.access.groupMembers(tx, groupId, after, limit);
    read += batch.length;
    yield* batch.map((member) => member.memberId);
    const last = batch.at(-1);
    if (last === undefined || batch.length < limit) return;
    after = { position: last.position, id: last.memberId };
  }
}
