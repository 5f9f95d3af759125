/**
 * The user item exists and is not being deleted (`deletingAt` marks a deletion in progress): the
 * condition every write that adds to or changes a user's account is made on.
 */
export const LIVE_USER = 'attribute_exists(pk) AND attribute_not_exists(deletingAt)';

/**
 * A unique value's claim item (a username, a provider account, a passkey) that is gone or held by
 * `userId`: what a release or a re-check of the user's own claim may act on.
 */
export const goneOrHeldBy = (userId: string) => ({
  ConditionExpression: 'attribute_not_exists(pk) OR userId = :userId',
  ExpressionAttributeValues: { ':userId': userId },
});

/** True when DynamoDB refused a write because its ConditionExpression did not hold. */
export const isConditionFailure = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/**
 * Awaits a conditional write whose failed condition means "nothing to do" (already removed,
 * claimed by another, superseded by a later write): then undefined; any other failure is thrown.
 */
export async function unlessConditionFails<T>(write: Promise<T>): Promise<T | undefined> {
  try {
    return await write;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}
