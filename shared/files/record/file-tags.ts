import { retry } from '#shared/db/contention/retry';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { FILE_ORDER_INDEXES, fileKey } from '#shared/db/keys/files';
import { indexKeyAttributes } from '#shared/db/keys/partitions';
import { updateIn } from '#shared/db/table-calls';
import { type TransactItem, TransactionConditionFailed, transactAsActiveOwner } from '#shared/db/transact';
import { type FileRecord, MAX_TAGS_PER_FILE, requireFile } from '#shared/files/model';
import { indexAttributes } from '#shared/files/record/indexing';
import { membershipWrites, UnknownTag } from '#shared/files/record/memberships';
import { getFile } from '#shared/files/record/store';

/**
 * Adding tags to and removing tags from one file (the bulk PATCH's `tags`, issue 35): the new set is
 * computed from the file as read, and written with its memberships (`membershipWrites`: added ones
 * put and their tags checked, dropped ones deleted, the others and the folder member item rewritten)
 * in one transaction conditional on that version, retried when another request changed the file in
 * between. So a concurrent `PATCH {tags}` or a tag's deletion is never overwritten, and the file
 * changes once or not at all. Like a PATCH, the change moves `updatedAt` (and its index keys).
 */

/** The file would pass `MAX_TAGS_PER_FILE` tags: it is left as it is. */
export class TagLimitReached extends Error {
  constructor() {
    super(`a file has at most ${MAX_TAGS_PER_FILE} tags`);
    this.name = 'TagLimitReached';
  }
}

const BY_UPDATED_AT = indexKeyAttributes(FILE_ORDER_INDEXES.byUpdatedAt);

/** Answers whether the file changed (false: it already had every added tag and none removed). */
export async function retagFile(
  userId: string,
  fileId: string,
  change: { add: string[]; remove: string[] },
): Promise<boolean> {
  return retry(
    { attempts: 5, baseMs: 5, retryable: (error) => error instanceof TransactionConditionFailed },
    async () => {
      const current = requireFile(await getFile(userId, fileId, { consistent: true }));
      const removed = new Set(change.remove);
      const tags = [...new Set([...current.tags, ...change.add])].filter((id) => !removed.has(id)).sort();
      if (tags.join() === [...current.tags].sort().join()) return false;
      if (tags.length > MAX_TAGS_PER_FILE) throw new TagLimitReached();
      const next: FileRecord = {
        ...current,
        tags,
        version: current.version + 1,
        updatedAt: new Date().toISOString(),
      };
      const indexed = indexAttributes(userId, next);
      const update = new UpdateBuilder()
        .set('version', next.version)
        .set('updatedAt', next.updatedAt)
        .set(BY_UPDATED_AT.pk, indexed[BY_UPDATED_AT.pk])
        .set(BY_UPDATED_AT.sk, indexed[BY_UPDATED_AT.sk])
        .setOrRemove('tags', tags.length === 0 ? null : new Set(tags));
      update.when(`${update.name('version')} = ${update.value(current.version)}`);
      const items: TransactItem[] = [
        updateIn(fileKey(userId, fileId), update.build()),
        ...membershipWrites(userId, current, next),
      ];
      try {
        await transactAsActiveOwner(userId, items);
      } catch (error) {
        // The file's version moved (0): read again. A tag check failed: the tag was deleted meanwhile.
        const failed = error instanceof TransactionConditionFailed ? error.failedIndexes : [0];
        if (!failed.includes(0) && failed.length > 0) {
          throw new UnknownTag();
        }
        throw error;
      }
      return true;
    },
  );
}
