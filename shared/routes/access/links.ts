import type { TableAccess } from '#shared/routes/grants';

/** Short links (issue 34): the routes, the redirect and its password form. */
export const LINK_ACCESS = {
  // Short links (issue 34): the link in its owner's partition, its names (GO), its view counters
  // (LINKVIEWS, summed by BatchGetItem); creation raises the owner's count (LINKSTATS) under maxUrls.
  linkCreate: {
    items: {
      // The settings: whether a link is announced to webhooks (issue 38).
      GetItem: ['SETTINGS'],
      ConditionCheckItem: ['USER'],
      UpdateItem: ['USER'],
      PutItem: ['USER', 'GO'],
    },
  },
  linkList: { items: { Query: ['USER'], BatchGetItem: ['LINKVIEWS'] } },
  linkGet: { items: { BatchGetItem: ['LINKVIEWS'] } },
  linkPatch: {
    items: {
      UpdateItem: ['USER'],
      ConditionCheckItem: ['USER'],
      PutItem: ['GO'],
      DeleteItem: ['GO'],
      BatchGetItem: ['LINKVIEWS'],
    },
  },
  linkDelete: {
    items: {
      DeleteItem: ['USER', 'GO'],
      UpdateItem: ['USER'],
      BatchGetItem: ['LINKVIEWS'],
      BatchWriteItem: ['LINKVIEWS'],
    },
  },
  // A redirect: the name's route item, one view counter (the owner's totals follow from the stream).
  go: { items: { GetItem: ['GO'], UpdateItem: ['LINKVIEWS'] } },
  linkPage: { items: { GetItem: ['GO'] } },
  // A password for a link: guesses counted (THROTTLE) before the route item is read.
  linkPassword: { items: { GetItem: ['GO'], UpdateItem: ['THROTTLE'] } },
  linkUnlock: { items: { GetItem: ['GO'], UpdateItem: ['THROTTLE', 'LINKVIEWS'] } },
  // The owners' view totals, from the table's stream (views/totals): one transaction of updates.
  viewTotals: { items: { UpdateItem: ['VIEWTOTALS'] } },
} satisfies Record<string, TableAccess>;
