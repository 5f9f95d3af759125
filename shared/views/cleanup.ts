import { deleteItems } from '#shared/db/table-calls';
import { counterKeys, type ViewSubject } from '#shared/views/counters';
import { totalKeys } from '#shared/views/totals';

/** A batch left unprocessed this many times fails the cleanup, for its caller to run again. */
const CLEANUP_ATTEMPTS = 8;

/** Deletes items by key, what DynamoDB leaves unprocessed again. */
const deleteKeys = (keys: Record<string, unknown>[]) => deleteItems(keys, { attempts: CLEANUP_ATTEMPTS });

/** Deletes the view counters of deleted links or files (their own partitions, outside the owner's). */
export const deleteViewCounters = (kind: ViewSubject['kind'], ids: string[]) =>
  deleteKeys(ids.flatMap((id) => counterKeys(kind, id)));

/** Deletes a deleted user's view totals. */
export const deleteViewTotals = (userId: string) => deleteKeys(totalKeys(userId));
