/**
 * AWS error names that mean "try again later", not "the service is broken": a handler answers them
 * 503 with Retry-After, and the item reader tries its read again.
 */
export const TRANSIENT_AWS_ERRORS: ReadonlySet<string> = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TransactionConflictException',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
]);
