// Comments recorded before content was sealed name no page in their own events (CommentAdded, CommentEdited):
// only their thread's ThreadOpened does. The sealing rules seal a comment under its page's key, so the log
// migration gives such an event the page its thread names as it copies it; the comment is then sealed under the
// page's key and erased with the page, as a comment recorded since is. A thread's page is read once from the
// source log (the thread's stream) and remembered, for a bounded number of threads.
import type { RecordedEvent } from "../event-store/event-store.port.ts";

const COMMENT_EVENTS: ReadonlySet<string> = new Set(["CommentAdded", "CommentEdited"]);
const THREADS_REMEMBERED = 10_000;

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export class ThreadPages {
  private readonly pages = new Map<string, string | null>();

  constructor(private readonly readSource: (stream: string) => Promise<readonly RecordedEvent[]>) {}

  /** The event as it is, or, for a comment naming no page, with the page its thread was opened on. */
  async withPage(event: RecordedEvent): Promise<RecordedEvent> {
    if (!COMMENT_EVENTS.has(event.type) || !isRecord(event.data) || typeof event.data.pageId === "string") return event;
    const pageId = await this.pageOf(event.stream);
    return pageId === null ? event : { ...event, data: { ...event.data, pageId } };
  }

  private async pageOf(stream: string): Promise<string | null> {
    const known = this.pages.get(stream);
    if (known !== undefined) return known;
    const opened = (await this.readSource(stream)).find((event) => event.type === "ThreadOpened");
    const pageId =
      opened && isRecord(opened.data) && typeof opened.data.pageId === "string" ? opened.data.pageId : null;
    if (this.pages.size >= THREADS_REMEMBERED) {
      const oldest = this.pages.keys().next();
      if (!oldest.done) this.pages.delete(oldest.value);
    }
    this.pages.set(stream, pageId);
    return pageId;
  }
}
