import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import type { EventScenario } from './cold-start.ts';

/**
 * The view totals' consumer (issue 34, docs/stats.md "Views") as the table's stream starts it: a
 * batch of 100 redirects' counter changes of 10 owners (the batch size), folded into one
 * transaction of 10 updates. Each run's batch is its own (new sequence numbers), so none is taken
 * for a retry.
 */
export function viewTotalsScenarios(): EventScenario[] {
  return [
    {
      name: 'stream batch of 100 views, 10 owners',
      handler: 'views/totals',
      event: async (index): Promise<DynamoDBStreamEvent> => ({
        Records: Array.from({ length: 100 }, (_, at) => {
          const keys = { pk: `LINKVIEWS#bench${at % 10}#${at % 7}`, sk: 'VIEWS' };
          const ownerId = `bench-owner-${at % 10}`;
          return {
            eventName: 'MODIFY',
            dynamodb: {
              Keys: marshall(keys) as never,
              OldImage: marshall({ ...keys, ownerId, views: at }) as never,
              NewImage: marshall({ ...keys, ownerId, views: at + 1 }) as never,
              SequenceNumber: String(index * 1000 + at).padStart(21, '0'),
            },
          };
        }),
      }),
      succeeded: (result) => (result as DynamoDBBatchResponse).batchItemFailures.length === 0,
    },
  ];
}
