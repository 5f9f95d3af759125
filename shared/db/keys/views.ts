/**
 * Keys of the view counters (shared/views/): each counter its own partition, so no view of a
 * popular file or link lands on a key another counter or the owner's partition takes. A link's are
 * `linkViewsKey` (keys.ts, kept where their items already are).
 */

/** One of a popular file's view counters: shards `0..n-1`, and `max` for a limited file's exact count. */
export const fileViewsKey = (fileId: string, shard: number | 'max') => ({
  pk: `FILEVIEWS#${fileId}#${shard}`,
  sk: 'VIEWS',
});

/** One shard of the views counted on a user's files (`files`) and links (`links`): what stats read. */
export const viewTotalsKey = (userId: string, shard: number) => ({
  pk: `VIEWTOTALS#${userId}#${shard}`,
  sk: 'VIEWS',
});
