// What a write answers, declared once per kind of record: how the read models present it once they show the
// write, and how the write side folds the same answer while they do not (write-answer.ts settles which one a
// client gets). A route names the record it answers (`pageAnswer(pageId, "record")`), or the plain value it
// decided (`value(counts)`); it never writes either side itself.
import type { Principal } from "../../../shared/auth/principal.ts";
import type { EventStore } from "../../../shared/event-store/event-store.port.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";

/** An answer's body, and headers such as an ETag or the content type. */
export interface Presented<T = unknown> {
  readonly body: T;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What either side reads: the read models, the write side's streams. */
export interface AnswerPorts {
  readonly eventStore: EventStore;
  readonly views: ReadModels;
}

/** One side of an answer, for the caller who wrote. */
type Side<T> = (ports: AnswerPorts, principal: Principal) => Promise<Presented<T>>;

export interface Answer<T> {
  /** The answer read from the read models, once they show the write. */
  readonly present: Side<T>;
  /** The same answer from the write side's own state (the record's stream folded, what it just decided). */
  readonly fold: Side<T>;
  /** The same record in another body: a reply around it, or fields the write adds to it. */
  map<U>(shape: (body: T) => U): Answer<U>;
  /** The same answer with headers of the write's own. */
  withHeaders(added: Readonly<Record<string, string>>): Answer<T>;
}

/** One declaration from its two sides; `map` and `withHeaders` reshape both alike. */
export function answerOf<T>(present: Side<T>, fold: Side<T>): Answer<T> {
  const both = <U>(reshape: (presented: Presented<T>) => Presented<U>): Answer<U> =>
    answerOf(
      async (ports, principal) => reshape(await present(ports, principal)),
      async (ports, principal) => reshape(await fold(ports, principal)),
    );
  return {
    present,
    fold,
    map: (shape) => both(({ body, headers }) => ({ body: shape(body), ...(headers ? { headers } : {}) })),
    withHeaders: (added) => both(({ body, headers }) => ({ body, headers: { ...headers, ...added } })),
  };
}

/** A plain value the write decided (counts, a message): the same whether the read models show the write or not. */
export const value = <T>(body: T): Answer<T> =>
  answerOf(
    async () => ({ body }),
    async () => ({ body }),
  );
