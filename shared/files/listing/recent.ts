import { FILE_PREFIX } from '#shared/db/keys/files';
import { userKey } from '#shared/db/keys/users';
import { queryPages } from '#shared/db/table-calls';
import { type FileRecord, isExpired } from '#shared/files/model';
import { fromFileItem } from '#shared/files/record/items';

/**
 * A user's `take` newest files (`GET /api/user/recent`): file ids are time-ordered, so the base
 * table's partition read backwards from its last `FILE#` item is the created order; one query of
 * `take` items (~1 KB each: `take` 3 costs 0.5 read units, 100 about 13). A file past its
 * `deletesAt` that the sweep has not deleted yet is skipped, and the next page read in its place.
 */
export async function recentFiles(userId: string, take: number, now = new Date()): Promise<FileRecord[]> {
  const found: FileRecord[] = [];
  const pages = queryPages(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': userKey(userId).pk, ':prefix': FILE_PREFIX },
      ScanIndexForward: false,
    },
    take,
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      const file = fromFileItem(item);
      if (!isExpired(file, now)) found.push(file);
      if (found.length === take) return found;
    }
  }
  return found;
}
