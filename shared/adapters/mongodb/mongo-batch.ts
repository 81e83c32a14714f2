// The MongoDB batch handle: what the projection store hands every writer for one batch. On a replica set it
// carries the session whose transaction holds the batch and its checkpoint; on a standalone server there is no
// transaction (`session` is undefined) and each write stands alone, made so that applying the batch again from
// the old checkpoint after a crash converges on the same documents (docs/contributing/adding-a-read-model.md).
import type { ClientSession, Collection, Db, Document } from "mongodb";
import type { z } from "zod";

export class MongoBatch {
  constructor(readonly session: ClientSession | undefined) {}

  /** Options every read and write of the batch passes, so it runs inside the batch's transaction. */
  get options(): { session?: ClientSession } {
    return this.session ? { session: this.session } : {};
  }
}

/** How one read model lays itself out in MongoDB: its collections and the indexes its queries need. */
export interface MongoIndex {
  readonly collection: string;
  readonly name: string;
  readonly keys: Record<string, 1 | -1>;
  readonly unique?: boolean;
  readonly partial?: Record<string, unknown>;
  /** The query the index serves, as listed in docs/operations/mongodb.md. */
  readonly serves: string;
}

export interface MongoModel {
  readonly collections: readonly string[];
  readonly indexes: readonly MongoIndex[];
}

/**
 * One generation of the read models: every collection name carries its number (`rm3_pages`). A replay builds
 * the next generation beside the live one and switches readers and the projector over once it has caught up.
 */
export class Generation {
  constructor(
    readonly db: Db,
    readonly number: number,
  ) {}

  name(collection: string): string {
    return `rm${this.number}_${collection}`;
  }

  collection<T extends Document>(name: string): Collection<T> {
    return this.db.collection<T>(this.name(name));
  }
}

/** Where a view or writer finds its collections: the generation in use now. */
export interface GenerationRef {
  current(): Generation;
}

/** Reads a stored document: checked against `schema` at the boundary, its `_id` given back as the record's `id`. */
export function recordOf<S extends z.ZodType<{ _id: string }>>(
  schema: S,
  doc: unknown,
): Omit<z.output<S>, "_id"> & { id: string } {
  const { _id, ...rest } = schema.parse(doc);
  return { ...rest, id: _id };
}
