// A page's listing record, as the read models keep it: where it sits, its title and icon, when and at which
// position it last changed (the markdown is in PageContent).

export interface PageRecord {
  readonly id: string;
  readonly ownerId: string;
  readonly parentId: string | null;
  readonly title: string;
  readonly icon: string | null;
  /** Folders above the page, nearest first. */
  readonly ancestorIds: string[];
  readonly folderPath: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly updatedPosition: number;
  /** Stream revision of the page's latest event: what ETags are made of. */
  readonly revision: number;
}

type Place = Pick<PageRecord, "parentId" | "ancestorIds" | "folderPath">;

/** Whether two records of a page sit in the same place: the same folder, ancestors and path. */
export const samePlace = (a: Place, b: Place): boolean =>
  a.parentId === b.parentId &&
  a.folderPath === b.folderPath &&
  a.ancestorIds.length === b.ancestorIds.length &&
  a.ancestorIds.every((id, index) => id === b.ancestorIds[index]);
