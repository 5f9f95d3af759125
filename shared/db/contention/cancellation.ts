// No client here: the HTTP layer reads cancellations too, and every function bundles it.

/** The reason codes of a cancelled transaction, one per item; empty for any other error. */
export function cancellationCodes(error: unknown): (string | undefined)[] {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return [];
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.map((reason) => reason.Code);
}

/** A transaction cancelled by contention (a conflict or throttling): worth trying again later. */
export const isCancelledByContention = (error: unknown): boolean =>
  cancellationCodes(error).some((code) => code === 'TransactionConflict' || code === 'ThrottlingError');
