import { UpdateBuilder } from '#shared/db/expressions/update';
import { fileKey } from '#shared/db/keys/files';
import { tagFilesPartition, taggedKey, tagKey } from '#shared/db/keys/tags';
import { checkIn, deleteIn, putIn, updateIn } from '#shared/db/table-calls';
import type { TransactItem } from '#shared/db/transact';
import type { FileRecord } from '#shared/files/model';
import { folderMemberViewWrites, folderMemberWrites } from '#shared/files/record/folder-membership';
import { indexAttributes, viewsIndexKey } from '#shared/files/record/indexing';

/**
 * A file's tag memberships (docs/tags.md): one item per (tag, file), `TAGGED#<tag>#<file>` in the
 * owner's partition, holding the file's index attributes under its tag's index partition. They are
 * written in the transaction of every change of the file item that moves its sort keys (the file
 * item's `tags` set names them), so a listing by tag pages through the same indexes, in the same
 * orders, as the library's, and a membership never outlives its file.
 */

/** A tag of `PATCH {tags}` that is not (or no longer) one of the owner's. */
export class UnknownTag extends Error {
  constructor() {
    super('tag not found');
    this.name = 'UnknownTag';
  }
}

/** A membership's stored item: the file's flags and index keys, under the tag's partition. */
export function membershipItem(userId: string, tagId: string, file: FileRecord) {
  return {
    ...taggedKey(userId, tagId, file.id),
    entity: 'TAGGED',
    fileId: file.id,
    tagId,
    favorite: file.favorite,
    views: file.views,
    ...indexAttributes(userId, file, tagFilesPartition(userId, tagId)),
  };
}

/**
 * The transaction items that bring a file's memberships from `before`'s tags to `after`'s: every
 * membership of `after` written again (its sort keys follow the file), the dropped ones deleted, and
 * each added tag checked to exist (a tag deleted meanwhile fails the transaction). The file's folder
 * member item is written again too (first: it has no condition), its keys following the file's.
 */
export function membershipWrites(userId: string, before: FileRecord | undefined, after: FileRecord) {
  const items: TransactItem[] = [...folderMemberWrites(userId, after)];
  const had = new Set(before?.tags ?? []);
  for (const tagId of after.tags) {
    items.push(putIn(membershipItem(userId, tagId, after)));
    if (!had.has(tagId))
      items.push(checkIn(tagKey(userId, tagId), { ConditionExpression: 'attribute_exists(pk)' }));
  }
  for (const tagId of had)
    if (!after.tags.includes(tagId)) items.push(deleteIn(taggedKey(userId, tagId, after.id)));
  return items;
}

/** Deletes every membership of a file that is being deleted (in the file's own transaction). */
export const membershipDeletes = (userId: string, file: FileRecord): TransactItem[] =>
  file.tags.map((tagId) => deleteIn(taggedKey(userId, tagId, file.id)));

/**
 * Takes a deleted tag off one file: the file's `tags` set loses it (its version bumped, so a PATCH
 * computed from the old set is retried) and the membership goes, together. When the file no longer
 * has the tag (deleted, or changed meanwhile), only the membership is deleted (`membershipOnly`).
 */
export function untagFile(userId: string, tagId: string, fileId: string) {
  const update = new UpdateBuilder().deleteFromSet('tags', new Set([tagId])).add('version', 1);
  update.when(`contains(${update.name('tags')}, ${update.value(tagId)})`);
  const membership = deleteIn(taggedKey(userId, tagId, fileId));
  return {
    both: [updateIn(fileKey(userId, fileId), update.build()), membership],
    membershipOnly: [membership],
  };
}

/**
 * The views index keys of a file's memberships (its tags' and its folder's) after its `views`-th
 * view, as `setViewsIndex` writes the file's: each written only if it holds fewer views, so the
 * latest count wins in any order.
 */
export function membershipViewWrites(userId: string, file: FileRecord) {
  const tagged = file.tags.map((tagId) => {
    const update = new UpdateBuilder().set('views', file.views);
    const keys = viewsIndexKey(userId, file.views, file.id, tagFilesPartition(userId, tagId));
    for (const [attribute, value] of Object.entries(keys)) update.set(attribute, value);
    update.when(`attribute_exists(pk) AND ${update.name('views')} < ${update.value(file.views)}`);
    return { key: taggedKey(userId, tagId, file.id), update: update.build() };
  });
  return [...tagged, ...folderMemberViewWrites(userId, file)];
}
