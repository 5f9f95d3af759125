import { forEachConcurrently } from '#shared/concurrency';
import { getItem } from '#shared/db/client';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { fileStatsKey } from '#shared/db/keys/files';
import { TAG_PREFIX, tagKey, tagNameKey } from '#shared/db/keys/tags';
import { userKey } from '#shared/db/keys/users';
import { deleteIn, putIn, queryPages, updateIn } from '#shared/db/table-calls';
import {
  type Carried,
  type TransactItem,
  TransactionConditionFailed,
  transactAsActiveOwner,
  transactWrite,
} from '#shared/db/transact';
import { conflict, invalid, notFound } from '#shared/errors';
import { taggedFileIds } from '#shared/files/listing/by-tag';
import type { FileRecord, TagSummary } from '#shared/files/model';
import { newFileId } from '#shared/files/names';
import { untagFile } from '#shared/files/record/memberships';
import { fromTagItem, MAX_TAGS_PER_USER, type TagRecord, toTagResource } from '#shared/tags/model';

export const TAG_NOT_FOUND = 'tag not found';
export const TAG_EXISTS = 'a tag with this name already exists';

/**
 * The owner's tag count (`tags`, on the file counters item) moved by `delta`; a raise on condition
 * that it stays at most `MAX_TAGS_PER_USER`.
 */
function tagCountUpdate(userId: string, delta: 1 | -1): TransactItem {
  const update = new UpdateBuilder();
  if (delta > 0) update.addUpTo('tags', delta, MAX_TAGS_PER_USER);
  else update.add('tags', delta);
  return updateIn(fileStatsKey(userId), update.build());
}

/**
 * Creates a tag: the tag item and its name's claim (`TAGNAME#<lower-case name>`), with the owner
 * live, in one transaction; the owner's tag count (on the file counters item) raised under
 * `MAX_TAGS_PER_USER` in it too. A name the user already has: 409, nothing written. `carried`: an
 * imported tag's past (issue 40).
 */
export async function createTag(
  userId: string,
  name: string,
  color: string,
  carried?: Carried<TagRecord>,
): Promise<TagRecord> {
  const now = new Date().toISOString();
  const createdAt = carried?.createdAt ?? now;
  const tag: TagRecord = { id: newFileId(), userId, name, color, createdAt, updatedAt: now };
  try {
    await transactAsActiveOwner(userId, [
      putIn(
        { ...tagNameKey(userId, name), tagId: tag.id },
        { ConditionExpression: 'attribute_not_exists(pk)' },
      ),
      putIn(
        { ...tagKey(userId, tag.id), entity: 'TAG', ...tag },
        { ConditionExpression: 'attribute_not_exists(pk)' },
      ),
      tagCountUpdate(userId, 1),
      ...(carried ? carried.extra(tag) : []),
    ]);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    if (error.failedIndexes.includes(0)) throw conflict(TAG_EXISTS);
    if (error.failedIndexes.includes(2)) throw invalid(`a user has at most ${MAX_TAGS_PER_USER} tags`);
    throw error;
  }
  return tag;
}

/** The caller's tag by id; another user's, or none: 404. */
export async function requireTag(userId: string, tagId: string, consistent = false): Promise<TagRecord> {
  const item = await getItem(tagKey(userId, tagId), { consistent });
  if (!item) throw notFound(TAG_NOT_FOUND);
  return fromTagItem(item);
}

/** Every tag of the user, oldest first (one Query of the `TAG#` items). */
export async function listTags(userId: string): Promise<TagRecord[]> {
  const tags: TagRecord[] = [];
  const pages = queryPages({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': userKey(userId).pk, ':prefix': TAG_PREFIX },
  });
  for await (const page of pages) tags.push(...(page.Items ?? []).map(fromTagItem));
  return tags;
}

/** The user's tags by id, as `files` show them (`toFileResource`): read only when one has a tag. */
export async function tagLookup(userId: string, files: FileRecord[]): Promise<Map<string, TagSummary>> {
  if (files.every((file) => file.tags.length === 0)) return new Map();
  return new Map((await listTags(userId)).map((tag) => [tag.id, toTagResource(tag)]));
}

/**
 * Renames and/or recolours a tag: the tag item (conditional on the `updatedAt` read) and, for a new
 * name, the new claim and the old one released, in one transaction. A name the user has: 409.
 */
export async function updateTag(
  userId: string,
  tagId: string,
  changes: { name?: string; color?: string },
): Promise<TagRecord> {
  const tag = await requireTag(userId, tagId, true);
  const next: TagRecord = { ...tag, ...changes, updatedAt: new Date().toISOString() };
  const renamed = next.name.toLowerCase() !== tag.name.toLowerCase();
  try {
    await transactWrite([
      putIn(
        { ...tagKey(userId, tagId), entity: 'TAG', ...next },
        { ConditionExpression: 'updatedAt = :read', ExpressionAttributeValues: { ':read': tag.updatedAt } },
      ),
      ...(renamed
        ? [
            putIn(
              { ...tagNameKey(userId, next.name), tagId },
              { ConditionExpression: 'attribute_not_exists(pk)' },
            ),
            deleteIn(tagNameKey(userId, tag.name)),
          ]
        : []),
    ]);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    if (error.failedIndexes.includes(0)) throw conflict('the tag was changed meanwhile, try again');
    throw conflict(TAG_EXISTS);
  }
  return next;
}

/**
 * Deletes a tag: the tag item, its name claim and one off the owner's tag count in one transaction
 * (from then on no file can be given it); then each of its files loses it, found through the tag's
 * memberships (a keyed query of `TAGGED#<tag>#`, never a scan of the library), the file's `tags` and
 * the membership together, ten files at a time. Should that work stop halfway, a file's leftover id
 * names no tag and is shown as none; its membership goes with the file.
 */
export async function deleteTag(userId: string, tagId: string): Promise<TagRecord> {
  const tag = await requireTag(userId, tagId, true);
  try {
    await transactWrite([
      deleteIn(tagKey(userId, tagId), { ConditionExpression: 'attribute_exists(pk)' }),
      deleteIn(tagNameKey(userId, tag.name)),
      tagCountUpdate(userId, -1),
    ]);
  } catch (error) {
    if (error instanceof TransactionConditionFailed) throw notFound(TAG_NOT_FOUND);
    throw error;
  }
  const fileIds = [...(await taggedFileIds(userId, tagId))];
  await forEachConcurrently(fileIds, 10, async (fileId) => {
    const writes = untagFile(userId, tagId, fileId);
    try {
      await transactWrite(writes.both);
    } catch (error) {
      if (!(error instanceof TransactionConditionFailed)) throw error;
      await transactWrite(writes.membershipOnly);
    }
  });
  return tag;
}
