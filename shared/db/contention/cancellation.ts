import type { AttributeValue } from '@aws-sdk/client-dynamodb';

// No client here: the HTTP layer reads cancellations too, and every function bundles it.

type Reason = { Code?: string; Item?: Record<string, AttributeValue> };

/** The reasons of a cancelled transaction, one per item; empty for any other error. */
function cancellationReasons(error: unknown): Reason[] {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return [];
  return (error as { CancellationReasons?: Reason[] }).CancellationReasons ?? [];
}

/** The reason codes of a cancelled transaction, one per item; empty for any other error. */
export const cancellationCodes = (error: unknown): (string | undefined)[] =>
  cancellationReasons(error).map((reason) => reason.Code);

/**
 * The items a cancelled transaction's refused conditions returned (ReturnValuesOnConditionCheckFailure),
 * as DynamoDB sends them: attribute values, which the document client does not translate in an error.
 */
export const cancellationItems = (error: unknown): (Record<string, AttributeValue> | undefined)[] =>
  cancellationReasons(error).map((reason) => reason.Item);

/** A transaction cancelled by contention (a conflict or throttling): worth trying again later. */
export const isCancelledByContention = (error: unknown): boolean =>
  cancellationCodes(error).some((code) => code === 'TransactionConflict' || code === 'ThrottlingError');
