/** A user's export (issue 36), in their partition, sorted by its time-ordered id. */
export const EXPORT_PREFIX = 'EXPORT#';

export const exportKey = (userId: string, exportId: string) => ({
  pk: `USER#${userId}`,
  sk: `${EXPORT_PREFIX}${exportId}`,
});

/**
 * The user's running export, if any: created with the export on the condition that none runs (or
 * the one that did has outlived its run), deleted when it completes, fails or is deleted.
 */
export const exportRunningKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'EXPORTRUNNING' });
