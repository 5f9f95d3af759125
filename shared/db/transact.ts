import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { cancellationCodes, cancellationItems } from '#shared/db/contention/cancellation';
import { retry } from '#shared/db/contention/retry';
import { LIVE_USER } from '#shared/db/expressions/conditions';
import { userKey } from '#shared/db/keys/users';
import { unauthenticated } from '#shared/errors';

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;
type TableItem = TransactItems[number];
/** One item of a write transaction (a Put, Update, Delete or ConditionCheck) on the service's table. */
export type TransactItem = {
  [Kind in keyof TableItem]?: Omit<NonNullable<TableItem[Kind]>, 'TableName'> & { TableName?: string };
};

/** The transaction's items, each on the service's table (`transactWrite` names it for them). */
const onServiceTable = (items: TransactItem[]): TransactItems =>
  items.map(
    (item) =>
      Object.fromEntries(
        Object.entries(item).map(([kind, operation]) => [kind, { ...operation, TableName: tableName }]),
      ) as TableItem,
  );

/**
 * What an entity brought from elsewhere (a Zipline import, issue 40) keeps of its past: its creation
 * time, and items that join its creating transaction after the entity's own (the import's mapping
 * claim), so the entity's failure indexes stay as they are.
 */
export interface Carried<Entity> {
  createdAt: string;
  extra: (entity: Entity) => TransactItem[];
}

/**
 * Raised when a condition in a transaction failed; `failedIndexes` says which items, `returnedItems`
 * what each refused item held when it asked for it (ReturnValuesOnConditionCheckFailure: ALL_OLD).
 */
export class TransactionConditionFailed extends Error {
  constructor(
    readonly failedIndexes: number[],
    readonly returnedItems: (Record<string, unknown> | undefined)[] = [],
  ) {
    super('transaction condition failed');
    this.name = 'TransactionConditionFailed';
  }
}

/**
 * Runs a write transaction. A conflict with another in-flight transaction on the same items is
 * retried (the whole transaction either applied or did not); a failed condition is reported with the
 * indexes of the items whose condition failed, so callers can say which rule was broken.
 */
export async function transactWrite(items: TransactItem[]): Promise<void> {
  const onTable = onServiceTable(items);
  await retry(
    {
      attempts: 4,
      baseMs: 20,
      retryable: (error) => cancellationCodes(error).includes('TransactionConflict'),
    },
    async () => {
      try {
        await documents.send(new TransactWriteCommand({ TransactItems: onTable }));
      } catch (error) {
        const failed = cancellationCodes(error).flatMap((code, index) =>
          code === 'ConditionalCheckFailed' ? [index] : [],
        );
        if (failed.length > 0) {
          // Read as the document client reads items (the cancellation carries them marshalled).
          const returned = cancellationItems(error).map((item) => (item ? unmarshall(item) : undefined));
          throw new TransactionConditionFailed(failed, returned);
        }
        throw error;
      }
    },
  );
}

/**
 * Runs a transaction that can create items in a user's partition, together with a check that the
 * user exists and its deletion has not begun. The deletion marks the user before it reads the
 * partition, so such a write either lands before the mark (and the deletion finds it) or fails: a
 * request authenticated just before the mark gets the 401 its next request would get. Other failed
 * conditions are reported with the indexes of `items`.
 */
export async function transactAsActiveOwner(userId: string, items: TransactItem[]): Promise<void> {
  try {
    await transactWrite([
      { ConditionCheck: { Key: userKey(userId), ConditionExpression: LIVE_USER } },
      ...items,
    ]);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    if (error.failedIndexes.includes(0)) throw unauthenticated();
    throw new TransactionConditionFailed(
      error.failedIndexes.map((index) => index - 1),
      error.returnedItems.slice(1),
    );
  }
}
