import type { LinkRoute } from '#shared/links/route-items';
import { countedViews, countOnCounters, shardViews as subjectShardViews } from '#shared/views/counters';

/**
 * A link's views, counted by the views' one owner (shared/views/counters.ts): every redirect on the
 * link's sharded counters, a limited link's on its exact `max` counter (docs/scale.md, "Short links").
 */

/** Counts one redirect: true when counted, false when the limit is reached (nothing written then). */
export async function countLinkView(
  route: Pick<LinkRoute, 'linkId' | 'userId' | 'maxViews' | 'viewsBeforeLimit'>,
): Promise<boolean> {
  const subject = { kind: 'link', id: route.linkId, ownerId: route.userId } as const;
  return (await countOnCounters(subject, route)) !== undefined;
}

/** The views of each link (by id): every counter summed. */
export const linkViews = (linkIds: string[]) => countedViews('link', linkIds);

/** The views counted on a link's shards (not `max`): what a new `maxViews` starts from. */
export const shardViews = (linkId: string) => subjectShardViews('link', linkId);
