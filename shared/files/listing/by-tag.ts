import { taggedPrefix } from '#shared/db/keys/tags';
import { userKey } from '#shared/db/keys/users';
import { queryPages } from '#shared/db/table-calls';
import { findExpiredFiles } from '#shared/files/expiry/expired';
import { both, type FilePage, type ListOptions, listScope, notIn } from '#shared/files/listing/listing';
import { fileIdOf, tagScope } from '#shared/files/listing/walk';

/**
 * Files by tag, as Zipline's `searchField=tags`: the files having every tag of the list, paged and
 * sorted as the library (docs/tags.md). The first tag's memberships are walked in the order's index
 * under the tag's partition, keyed, `perpage` entries a page as the library's listing reads; each
 * further tag is read once as the set of its files' ids (its memberships' keys: a cost that grows
 * with that tag, never with the library). There is no total: the answer has the next page's cursor
 * (Zipline's tag search answers no total either).
 */
export async function listTagged(
  userId: string,
  tagIds: [string, ...string[]],
  options: ListOptions,
): Promise<Omit<FilePage, 'total'>> {
  const [first, ...others] = tagIds;
  const [expired, ...alsoTagged] = await Promise.all([
    findExpiredFiles(userId, new Date()),
    ...others.map((tagId) => taggedFileIds(userId, tagId)),
  ]);
  const inEvery =
    alsoTagged.length === 0
      ? undefined
      : (item: Record<string, unknown>) => alsoTagged.every((ids) => ids.has(fileIdOf(item)));
  const cursorScope = `tags:${userId}:${tagIds.join(',')}:${options.sortBy}:${options.order}:${options.filter}:${options.favoriteOnly}`;
  return listScope(userId, tagScope(userId, first), cursorScope, options, both(notIn(expired), inEvery));
}

/** The ids of the files a tag has, from its memberships' keys. */
export async function taggedFileIds(userId: string, tagId: string): Promise<Set<string>> {
  const ids = new Set<string>();
  const pages = queryPages({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': userKey(userId).pk, ':prefix': taggedPrefix(tagId) },
    ProjectionExpression: 'sk',
  });
  for await (const page of pages) for (const item of page.Items ?? []) ids.add(fileIdOf(item));
  return ids;
}
