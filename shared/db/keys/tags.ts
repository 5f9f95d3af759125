/**
 * A tag (issue 35, docs/tags.md) in its owner's partition, sorted by its time-ordered id; its name
 * claimed per user (lower-cased) by a `TAGNAME#` item written in the same transaction.
 */
export const TAG_PREFIX = 'TAG#';

export const tagKey = (userId: string, tagId: string) => ({
  pk: `USER#${userId}`,
  sk: `${TAG_PREFIX}${tagId}`,
});

export const tagNameKey = (userId: string, name: string) => ({
  pk: `USER#${userId}`,
  sk: `TAGNAME#${name.toLowerCase()}`,
});

/**
 * A file's membership in a tag: one item per (tag, file) in the owner's partition, carrying the
 * file's index attributes under the tag's own index partition (`tagFilesPartition`), so a listing by
 * tag reads the same file indexes as the library's, keyed, page by page.
 */
export const taggedPrefix = (tagId: string) => `TAGGED#${tagId}#`;

export const taggedKey = (userId: string, tagId: string, fileId: string) => ({
  pk: `USER#${userId}`,
  sk: `${taggedPrefix(tagId)}${fileId}`,
});

/** The file index partition of a tag's files (as `filesPartition` is the library's). */
export const tagFilesPartition = (userId: string, tagId: string) => `FILES#${userId}#TAG#${tagId}`;
