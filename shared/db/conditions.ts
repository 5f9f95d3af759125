/** True when DynamoDB refused a write because its ConditionExpression did not hold. */
export const isConditionFailure = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';
