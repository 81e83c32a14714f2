// A page as it was at an instant: its own events up to then, folded with the page decider's evolve, the way
// the command side folds its stream. No stored copy per revision.
import { pageDecider, type PageEvent, type PageState } from "../pages/page.decider.ts";
import type { DomainEvent } from "../events.ts";
import { happenedBy, type Instant } from "./instant.ts";

export interface PageEventAt {
  readonly position: number;
  readonly occurredAt: string;
  readonly event: DomainEvent;
}

export interface PageAsOf {
  readonly title: string;
  readonly icon: string | null;
  readonly markdown: string;
  readonly revision: number;
  readonly ownerId: string;
  readonly parentId: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly updatedPosition: number;
}

const isPageEvent = (event: DomainEvent): event is PageEvent => event.type.startsWith("Page");

/**
 * The live page at the instant, or null when it did not exist yet or was deleted by then. `count`, when the
 * events are only the latest of each page event type (HistoryView.pageStateAt), is how many there were in all:
 * the revision is counted from it rather than from the events folded.
 */
export function pageAsOf(events: readonly PageEventAt[], instant: Instant, count?: number): PageAsOf | null {
  let state: PageState = pageDecider.initialState;
  let origin: Pick<PageAsOf, "ownerId" | "parentId" | "createdAt"> | null = null;
  let last: PageEventAt | null = null;
  for (const entry of events) {
    const { event } = entry;
    if (!isPageEvent(event) || !happenedBy(instant, entry)) continue;
    if (event.type === "PageCreated")
      origin = { ownerId: event.data.ownerId, parentId: event.data.parentId, createdAt: entry.occurredAt };
    state = pageDecider.evolve(state, event);
    last = entry;
  }
  if (state.status !== "live" || !origin || !last) return null;
  const revision = count === undefined ? state.revision : count - 1;
  return {
    ...origin,
    title: state.title,
    icon: state.icon,
    markdown: state.markdown,
    revision,
    updatedAt: last.occurredAt,
    updatedPosition: last.position,
  };
}
