// The audit trail of one entity, read from the event store (the source of truth, not a read model): the events
// of its streams (its own, its grants') in global order, each with its actor and correlation id and what it
// changed, described as the history API describes it.
import type { EventStore } from "../../shared/event-store/event-store.port.ts";
import { parseRecorded, type StoredEvent } from "../../shared/events.ts";
import { describeChange, summariseAll, usersNamedBy } from "../../shared/history/describe-history.ts";
import type { HistoryEntityKind, HistoryEntry } from "../../shared/history/history.view.ts";
import type { UsersView } from "../../shared/users/users.view.ts";

const streamsOf = (id: string): Array<{ stream: string; kind: HistoryEntityKind }> => [
  { stream: `page-${id}`, kind: "page" },
  { stream: `access-page-${id}`, kind: "page" },
  { stream: `folder-${id}`, kind: "folder" },
  { stream: `access-folder-${id}`, kind: "folder" },
  { stream: `thread-${id}`, kind: "thread" },
];

export async function auditTrail(eventStore: EventStore, users: UsersView, entityId: string): Promise<string[]> {
  const found: Array<{ stored: StoredEvent; kind: HistoryEntityKind }> = [];
  for (const { stream, kind } of streamsOf(entityId)) {
    for (const recorded of (await eventStore.read(stream)).events)
      found.push({ stored: parseRecorded(recorded), kind });
  }
  found.sort((a, b) => a.stored.position - b.stored.position);
  // The description reads the event, the entity and the actor; whose permission covers the entry plays no part here.
  const entries: HistoryEntry[] = found.map(({ stored, kind }) => ({
    position: stored.position,
    entityKind: kind,
    entityId,
    access: { kind: kind === "folder" ? "folder" : "page", id: entityId },
    occurredAt: stored.metadata.occurredAt,
    actorId: stored.metadata.actorId,
    correlationId: stored.metadata.correlationId,
    event: stored.event,
  }));
  const changes = summariseAll(entries);
  const named = await users.getMany(usersNamedBy(changes));
  const names = new Map([...named].map(([id, user]) => [id, user.name]));
  const described = changes.map((change) => describeChange(change, names));
  if (described.length === 0) return [`entity ${entityId}: no events`];
  return [
    `entity ${entityId}: ${described.length} events`,
    ...described.map(({ entry, actor, changes }) =>
      [
        `#${entry.position}`,
        entry.occurredAt,
        entry.type,
        `by ${actor.name} (${actor.id})`,
        `correlation ${entry.correlationId}`,
        JSON.stringify(changes),
      ].join("  "),
    ),
  ];
}
