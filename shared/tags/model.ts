import type { TagSummary } from '#shared/files/model';

/**
 * A tag (Zipline 4.4's Tag, docs/tags.md): a name unique among its owner's tags (case aside) and a
 * colour, `#rgb` or `#rrggbb` as Zipline's. Its id is time-ordered (a file id's format), so a user's
 * tags list in creation order.
 */
export interface TagRecord extends TagSummary {
  userId: string;
}

/** How many tags a user may have: all of them are read to show any file's tags (one Query). */
export const MAX_TAGS_PER_USER = 1000;

export const fromTagItem = (item: Record<string, unknown>): TagRecord => ({
  id: String(item.id),
  userId: String(item.userId),
  name: String(item.name),
  color: String(item.color),
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

/** What the API answers: Zipline's Tag (without `files`, optional there: docs/tags.md says why). */
export const toTagResource = (tag: TagRecord): TagSummary => ({
  id: tag.id,
  createdAt: tag.createdAt,
  updatedAt: tag.updatedAt,
  name: tag.name,
  color: tag.color,
});
