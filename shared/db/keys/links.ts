/** A short link's record in its owner's partition (links/store.ts), sorted by its time-ordered id. */
export const LINK_PREFIX = 'LINK#';

export const linkKey = (userId: string, linkId: string) => ({
  pk: `USER#${userId}`,
  sk: `${LINK_PREFIX}${linkId}`,
});

/** The owner's count of short links, the counter `maxUrls` is enforced on (in each creation's transaction). */
export const linkStatsKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'LINKSTATS' });

/**
 * What `/go/{name}` reads: one item per name a link answers to (its code, its vanity folded to lower
 * case), holding what the redirect needs, so a redirect is one GetItem. Claims the name across users.
 */
export const linkRouteKey = (name: string) => ({ pk: `GO#${name}`, sk: 'GO' });

/** One of a link's view counters (links/views.ts): shards `0..n-1`, and `max` for a limited link's exact count. */
export const linkViewsKey = (linkId: string, shard: number | 'max') => ({
  pk: `LINKVIEWS#${linkId}#${shard}`,
  sk: 'VIEWS',
});
