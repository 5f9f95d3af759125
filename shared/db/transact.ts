import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { documents } from '#shared/db/client';

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

export interface CancellationReason {
  Code?: string;
}

/** Raised when a condition in a transaction failed; `failedIndexes` says which items. */
export class TransactionConditionFailed extends Error {
  constructor(readonly failedIndexes: number[]) {
    super('transaction condition failed');
    this.name = 'TransactionConditionFailed';
  }
}

const MAX_ATTEMPTS = 4;

/**
 * Runs a write transaction. A conflict with another in-flight transaction on the same items is
 * retried (the whole transaction either applied or did not); a failed condition is reported with the
 * indexes of the items whose condition failed, so callers can say which rule was broken.
 */
export async function transactWrite(items: TransactItems): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await documents.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') throw error;
      const reasons: CancellationReason[] =
        (error as { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? [];
      const failed = reasons.flatMap((reason, index) =>
        reason.Code === 'ConditionalCheckFailed' ? [index] : [],
      );
      if (failed.length > 0) throw new TransactionConditionFailed(failed);
      const conflicted = reasons.some((reason) => reason.Code === 'TransactionConflict');
      if (!conflicted || attempt >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt * Math.random()));
    }
  }
}
