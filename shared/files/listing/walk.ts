import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { FILE_PREFIX, filesPartition } from '#shared/db/keys/files';
import { folderFilesPartition } from '#shared/db/keys/folder-files';
import { folderMemberKey } from '#shared/db/keys/folders';
import { tagFilesPartition, taggedPrefix } from '#shared/db/keys/tags';
import { userKey } from '#shared/db/keys/users';
import { queryPage } from '#shared/db/reads';
import { invalid } from '#shared/errors';
import type { ListFilter, SortField } from '#shared/files/model';
import { SORT_INDEXES } from '#shared/files/record/indexing';

/**
 * Walking a user's files in one order: the one index (or the base table, in id order) that holds
 * every file of the scope in that order, read from a key, taking what passes the filters.
 */

export type Key = Record<string, NativeAttributeValue>;

/**
 * Which files are walked: a user's library (its file items, `FILE#<id>`, and their index entries
 * under `FILES#<user>`), one tag's (its memberships, `TAGGED#<tag>#<id>`, under the tag's index
 * partition: files/record/memberships.ts) or one folder's (its member items, `FILE#<id>` in the
 * folder's partition, under the folder's index partition: files/record/folder-membership.ts). Either
 * way an item's sort key ends with the file's id; only the library's items are the files themselves.
 */
export interface Scope {
  pk: string;
  prefix: string;
  indexPartition: string;
  /** Whether the base table's items of the scope are the file items (else the page reads them by key). */
  fileItems: boolean;
}
export const libraryScope = (userId: string): Scope => ({
  pk: userKey(userId).pk,
  prefix: FILE_PREFIX,
  indexPartition: filesPartition(userId),
  fileItems: true,
});
export const tagScope = (userId: string, tagId: string): Scope => ({
  pk: userKey(userId).pk,
  prefix: taggedPrefix(tagId),
  indexPartition: tagFilesPartition(userId, tagId),
  fileItems: false,
});
export const folderScope = (userId: string, folderId: string): Scope => ({
  pk: folderMemberKey(folderId, '').pk,
  prefix: FILE_PREFIX,
  indexPartition: folderFilesPartition(userId, folderId),
  fileItems: false,
});
/** The id of the file an item of any scope stands for (the tail of its sort key). */
export const fileIdOf = (item: Key) => String(item.sk).slice(String(item.sk).lastIndexOf('#') + 1);

export interface WalkOptions {
  order: 'asc' | 'desc';
  filter: ListFilter;
  favoriteOnly: boolean;
}

export interface Source {
  /** Index name, or undefined for the base table. */
  index: string | undefined;
  keyNames: string[];
  keyCondition: { KeyConditionExpression: string; ExpressionAttributeValues: Key };
}

/** A scope's files in id order (the base table), or in the order of `index`. */
export function source(scope: Scope, index: string | undefined): Source {
  if (index === undefined) {
    return {
      index,
      keyNames: ['pk', 'sk'],
      keyCondition: {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': scope.pk, ':prefix': scope.prefix },
      },
    };
  }
  return {
    index,
    keyNames: ['pk', 'sk', `${index}pk`, `${index}sk`],
    keyCondition: {
      KeyConditionExpression: `${index}pk = :pk`,
      ExpressionAttributeValues: { ':pk': scope.indexPartition },
    },
  };
}

/**
 * The source of an order: its index, where every file of the scope has an entry (the orders whose
 * field most files keep at its default too: files/record/indexing.ts `DEFAULT_SORT_VALUES`), so no
 * order filters the scope's other files out.
 */
export const sourceOf = (scope: Scope, sortBy: SortField) => source(scope, SORT_INDEXES[sortBy].index);

function filterExpression(options: Pick<WalkOptions, 'filter' | 'favoriteOnly'>) {
  const parts: string[] = [];
  if (options.favoriteOnly) parts.push('favorite = :true');
  if (options.filter === 'dashboard') parts.push('media = :true');
  const values = options.favoriteOnly || options.filter === 'dashboard' ? { ':true': true } : undefined;
  return parts.length ? { FilterExpression: parts.join(' AND '), values } : undefined;
}

const keyOf = (item: Key, names: string[]): Key =>
  Object.fromEntries(names.map((name) => [name, item[name]]));

export interface Walk {
  /** Items taken (when kept). */
  items: Key[];
  /** Key of the last item taken: where the next walk resumes. */
  last: Key | undefined;
  /** Whether matching items may follow `last`. */
  more: boolean;
}

/**
 * Walks one source in order from `start`, taking `need` items that pass the filters and `accept`.
 * Without either each request asks for exactly what is still needed, so nothing past the page is
 * read; with them a request asks for more, growing while matches are rare.
 */
export async function walk(
  from: Source,
  options: WalkOptions,
  start: Key | undefined,
  need: number,
  keep: boolean,
  accept?: (item: Key) => boolean,
): Promise<Walk> {
  const filter = filterExpression(options);
  const items: Key[] = [];
  let taken = 0;
  let last: Key | undefined;
  let exclusiveStart = start;
  let slack = filter || accept ? 50 : 0;
  for (;;) {
    const result = await queryPage({
      ...(from.index ? { IndexName: from.index } : {}),
      KeyConditionExpression: from.keyCondition.KeyConditionExpression,
      ...(filter ? { FilterExpression: filter.FilterExpression } : {}),
      ExpressionAttributeValues: { ...from.keyCondition.ExpressionAttributeValues, ...filter?.values },
      ScanIndexForward: options.order === 'asc',
      ExclusiveStartKey: exclusiveStart,
      Limit: Math.min(need - taken + slack, 10_000),
      // Skipping needs only where it stops: the keys, not the projected search fields.
      ...(keep || accept ? {} : { ProjectionExpression: from.keyNames.join(', ') }),
    });
    for (const item of result.Items ?? []) {
      if (accept && !accept(item)) continue;
      if (taken === need) return { items, last, more: true };
      taken++;
      last = keyOf(item, from.keyNames);
      if (keep) items.push(item);
    }
    // Limit reached exactly also leaves a LastEvaluatedKey: "more" may then lead to an empty page.
    if (!result.LastEvaluatedKey || taken === need) {
      return { items, last, more: result.LastEvaluatedKey !== undefined };
    }
    exclusiveStart = result.LastEvaluatedKey;
    slack = Math.min(slack * 4, 10_000);
  }
}

/** Where a cursor's key resumes: a key of the order's source, checked to be this scope's. */
export function resumeKey(scope: Scope, from: Source, after: Key): Key {
  const names = Object.keys(after).sort();
  const valid =
    names.join() === [...from.keyNames].sort().join() &&
    after.pk === scope.pk &&
    String(after.sk).startsWith(scope.prefix) &&
    (from.index === undefined || after[`${from.index}pk`] === scope.indexPartition) &&
    names.every((name) => typeof after[name] === 'string');
  if (!valid) throw invalid('invalid cursor');
  return after;
}
