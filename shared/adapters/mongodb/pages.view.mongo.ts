// Pages in one collection: the listing fields, the markdown, and what search needs (the folded words of title
// and markdown, each as a padded text for phrases and prefixes, and their union as a multikey field). Listings
// leave the markdown and the search fields out of what they read.
import { z } from "zod";
import type { Changed, FolderPlace } from "../../folders/folders.view.ts";
import { compareNewestFirst, type VisibleTo } from "../../read-store/list-query.ts";
import {
  titleKey,
  type PageContent,
  type PageListQuery,
  type PagesView,
  type PagesWriter,
} from "../../pages/pages.view.ts";
import { samePlace, type PageRecord } from "../../pages/page-record.ts";
import type { SearchHit, SearchQuery } from "../../pages/page-search.ts";
import { accessKeysOf, visibleKeys } from "./access-keys.ts";
import { reRooted } from "../../folders/folder-place.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";
import { foldedText, searchPages, wordsOfFolded } from "./page-search.mongo.ts";
import { toPageRecord, type PageDoc } from "./page-doc.mongo.ts";
import { after, NEWEST_FIRST } from "./list-order.mongo.ts";
import type { MongoPageAudience } from "./page-audience.mongo.ts";

const LIVE = { deleted: false } as const;

export const pagesModel: MongoModel = {
  collections: ["pages"],
  indexes: [
    {
      collection: "pages",
      name: "pages_visible",
      keys: { accessKeys: 1, updatedPosition: -1, _id: -1 },
      partial: LIVE,
      serves: "GET /pages: the caller's visible pages, newest change first, in one query",
    },
    {
      collection: "pages",
      name: "pages_parent",
      keys: { parentId: 1, updatedPosition: -1, _id: -1 },
      partial: LIVE,
      serves: "GET /pages?parentId=: one folder's pages; whether a folder holds a page",
    },
    {
      collection: "pages",
      name: "pages_title",
      keys: { titleKey: 1, updatedPosition: -1 },
      partial: LIVE,
      serves: "[[wiki links]] and resolve: pages by title",
    },
    {
      collection: "pages",
      name: "pages_ancestors",
      keys: { ancestorIds: 1 },
      partial: LIVE,
      serves: "the pages below a moved or renamed folder",
    },
    {
      collection: "pages",
      name: "pages_words",
      keys: { words: 1 },
      partial: LIVE,
      serves: "GET /search: pages holding a word or a word with a prefix",
    },
  ],
};

/** What a listing reads: everything but the markdown and the search fields. */
const LISTING = { markdown: 0, titleText: 0, bodyText: 0, words: 0, accessKeys: 0 } as const;

const pages = (ref: GenerationRef) => ref.current().collection<PageDoc>("pages");

const wordsOf = (titleText: string, bodyText: string) => [
  ...new Set([...wordsOfFolded(titleText), ...wordsOfFolded(bodyText)]),
];

const searchFields = (title: string, markdown: string) => {
  const titleText = foldedText(title);
  const bodyText = foldedText(markdown);
  return { titleText, bodyText, words: wordsOf(titleText, bodyText) };
};

export class MongoPagesWriter implements PagesWriter<MongoBatch> {
  /** `audience`: the per-user listing (page-audience.mongo.ts), told of every page whose place, order or life changes. */
  constructor(
    private readonly ref: GenerationRef,
    private readonly audience: MongoPageAudience,
  ) {}

  async get(tx: MongoBatch, id: string): Promise<PageRecord | null> {
    const doc = await pages(this.ref).findOne({ _id: id, ...LIVE }, { projection: LISTING, ...tx.options });
    return doc ? toPageRecord(doc) : null;
  }

  async ownerOf(tx: MongoBatch, id: string): Promise<string | null> {
    const doc = await pages(this.ref).findOne({ _id: id }, { projection: { ownerId: 1 }, ...tx.options });
    return doc ? z.string().parse(doc.ownerId) : null;
  }

  /**
   * A put older than what the live page already shows is skipped: a batch applied again ends where it ended. A
   * new title without new content takes its search words from the folded content already stored.
   */
  async put(tx: MongoBatch, page: PageRecord, markdown?: string): Promise<void> {
    const collection = pages(this.ref);
    const { id, ...fields } = page;
    const record = { ...fields, ancestorIds: [...page.ancestorIds], titleKey: titleKey(page.title) };
    const current = await collection.findOne(
      { _id: id, ...LIVE },
      { projection: { title: 1, parentId: 1, ancestorIds: 1, folderPath: 1, updatedPosition: 1 }, ...tx.options },
    );
    if (!current) {
      const content = markdown ?? "";
      const doc: Omit<PageDoc, "_id"> = {
        ...record,
        deleted: false,
        accessKeys: accessKeysOf("page", page),
        markdown: content,
        ...searchFields(page.title, content),
      };
      await collection.replaceOne({ _id: id }, doc, { upsert: true, ...tx.options });
      this.audience.pageChanged(tx, id);
      return;
    }
    if (current.updatedPosition > page.updatedPosition) return;
    const moved = !samePlace(current, page);
    const search =
      markdown !== undefined
        ? { markdown, ...searchFields(page.title, markdown) }
        : await this.retitled(tx, current, page);
    const update = { ...record, ...(moved ? { accessKeys: accessKeysOf("page", page) } : {}), ...search };
    await collection.updateOne({ _id: id }, { $set: update }, tx.options);
    if (moved) this.audience.pageChanged(tx, id);
    else await this.audience.pageTouched(tx, id, page.updatedPosition);
  }

  /** The search fields of a page whose title changed and content did not (none when the title is the same). */
  private async retitled(
    tx: MongoBatch,
    current: Pick<PageDoc, "_id" | "title">,
    page: PageRecord,
  ): Promise<Partial<Pick<PageDoc, "titleText" | "words">>> {
    if (current.title === page.title) return {};
    const stored = await pages(this.ref).findOne({ _id: current._id }, { projection: { bodyText: 1 }, ...tx.options });
    const titleText = foldedText(page.title);
    return { titleText, words: wordsOf(titleText, stored?.bodyText ?? "") };
  }

  async remove(tx: MongoBatch, id: string): Promise<void> {
    const gone = { deleted: true, markdown: "", titleText: "", bodyText: "", words: [], accessKeys: [] };
    await pages(this.ref).updateOne({ _id: id }, { $set: gone }, tx.options);
    this.audience.pageChanged(tx, id);
  }

  async purge(tx: MongoBatch, id: string): Promise<void> {
    await pages(this.ref).deleteOne({ _id: id }, tx.options);
    this.audience.pageChanged(tx, id);
  }

  async placeBelow(tx: MongoBatch, folder: FolderPlace, changed: Changed | null): Promise<void> {
    const collection = pages(this.ref);
    const below = await collection
      .find(
        { ancestorIds: folder.id, ...LIVE },
        { projection: { ownerId: 1, ancestorIds: 1, folderPath: 1 }, ...tx.options },
      )
      .toArray();
    if (below.length === 0) return;
    // A move changes the folders whose grants reach each page below, and their place in the order.
    if (changed) for (const row of below) this.audience.pageChanged(tx, row._id);
    const updates = below.map((row) => {
      const { ancestorIds, path: folderPath } = reRooted(
        { ancestorIds: row.ancestorIds, path: row.folderPath },
        folder,
      );
      const fields = {
        ancestorIds,
        folderPath,
        accessKeys: accessKeysOf("page", { id: row._id, ownerId: row.ownerId, ancestorIds }),
        ...(changed ?? {}),
      };
      return { updateOne: { filter: { _id: row._id }, update: { $set: fields } } };
    });
    await collection.bulkWrite(updates, { ordered: true, ...tx.options });
  }
}

export class MongoPagesView implements PagesView {
  constructor(
    private readonly ref: GenerationRef,
    private readonly audience: MongoPageAudience,
  ) {}

  async get(id: string): Promise<PageRecord | null> {
    const doc = await pages(this.ref).findOne({ _id: id, ...LIVE }, { projection: LISTING });
    return doc ? toPageRecord(doc) : null;
  }

  async getContent(id: string): Promise<PageContent | null> {
    const doc = await pages(this.ref).findOne(
      { _id: id, ...LIVE },
      { projection: { titleText: 0, bodyText: 0, words: 0, accessKeys: 0 } },
    );
    return doc ? { page: toPageRecord(doc), markdown: z.string().parse(doc.markdown) } : null;
  }

  async list(query: PageListQuery): Promise<PageRecord[]> {
    if (query.listedFor !== undefined && query.parentId === null) return this.listFor(query, query.listedFor);
    const base = {
      ...LIVE,
      ...(query.parentId === null ? {} : { parentId: query.parentId }),
      accessKeys: { $in: visibleKeys(query.visibleTo) },
    };
    const docs = await pages(this.ref)
      .find(after<PageDoc>(base, query.before), { projection: LISTING })
      .sort(NEWEST_FIRST)
      .limit(query.limit + 1)
      .toArray();
    return docs.map(toPageRecord);
  }

  /**
   * The caller's list from the listings by audience: one query over the workspaces they own or hold a role in
   * (their owner keys) and one range of their own listing, each at most limit + 1, merged; the pages of the
   * listing's winners are then read by id.
   */
  private async listFor(query: PageListQuery, userId: string): Promise<PageRecord[]> {
    const take = query.limit + 1;
    const owned = query.visibleTo.ownerIds.map((id) => `o:${id}`);
    const [inWorkspaces, granted] = await Promise.all([
      owned.length === 0
        ? []
        : pages(this.ref)
            .find(after<PageDoc>({ ...LIVE, accessKeys: { $in: owned } }, query.before), { projection: LISTING })
            .sort(NEWEST_FIRST)
            .limit(take)
            .toArray(),
      this.audience.listed(userId, query.before, take),
    ]);
    const byId = new Map(inWorkspaces.map((doc) => [doc._id, toPageRecord(doc)]));
    const keys = new Map<string, { id: string; position: number }>();
    for (const record of byId.values()) keys.set(record.id, { id: record.id, position: record.updatedPosition });
    for (const entry of granted) keys.set(entry.id, entry);
    const winners = [...keys.values()].sort(compareNewestFirst).slice(0, take);
    const missing = winners.filter((winner) => !byId.has(winner.id)).map((winner) => winner.id);
    if (missing.length > 0) {
      const docs = await pages(this.ref)
        .find({ _id: { $in: missing }, ...LIVE }, { projection: LISTING })
        .toArray();
      for (const doc of docs) byId.set(doc._id, toPageRecord(doc));
    }
    return winners.flatMap((winner) => {
      const record = byId.get(winner.id);
      return record && record.updatedPosition === winner.position ? [record] : [];
    });
  }

  async findByTitleKey(key: string, visibleTo: VisibleTo, limit: number): Promise<PageRecord[]> {
    const filter = { titleKey: key, ...LIVE, accessKeys: { $in: visibleKeys(visibleTo) } };
    const docs = await pages(this.ref)
      .find(filter, { projection: LISTING })
      .sort({ updatedPosition: -1 })
      .limit(limit)
      .toArray();
    return docs.map(toPageRecord);
  }

  async search(query: SearchQuery): Promise<SearchHit[]> {
    return searchPages(pages(this.ref), query);
  }
}
