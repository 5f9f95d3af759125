/**
 * Prices the cost figures use: AWS list prices for us-east-1 (N. Virginia), first pricing tier,
 * as published on the Lambda, API Gateway, DynamoDB and S3 pricing pages. The benchmark machine has no
 * network, so they are constants: check them against the pricing pages when this date gets old.
 */
export const PRICES_AS_OF = '2025-06-01';
export const REGION = 'us-east-1';

export const PRICES = {
  /** Lambda, per request. */
  lambdaRequestUsd: 0.2 / 1e6,
  /** Lambda on arm64 (Graviton), per GB-second of billed duration (billed per 1 ms). */
  lambdaArmGbSecondUsd: 0.0000133334,
  /** HTTP API, per request (up to 512 KB), first 300 million a month. */
  httpApiRequestUsd: 1.0 / 1e6,
  /** DynamoDB on-demand (since the November 2024 price cut). */
  dynamoReadUnitUsd: 0.125 / 1e6,
  dynamoWriteUnitUsd: 0.625 / 1e6,
  /**
   * S3 Standard requests: PUT, COPY, POST and LIST per request; GET and all other requests (HEAD
   * included). DELETE is free, but the multi-object delete the service sends is a POST, priced here
   * as one (the stricter reading). Storage and data transfer are per GB, not per request: not here.
   */
  s3PutCopyPostListUsd: 0.005 / 1000,
  s3GetUsd: 0.0004 / 1000,
} as const;

/** S3 commands by their price class (a command not listed is not priced: add it when the service sends it). */
export const S3_PRICE_CLASS: Record<string, 'putCopyPostList' | 'get'> = {
  PutObject: 'putCopyPostList',
  PutObjectTagging: 'putCopyPostList',
  // A chunked upload's multipart calls are billed as PUT/POST requests.
  CreateMultipartUpload: 'putCopyPostList',
  UploadPart: 'putCopyPostList',
  CompleteMultipartUpload: 'putCopyPostList',
  // An export's single deletions (its request object, a deleted export's zip): DELETE is free, priced
  // as a POST like DeleteObjects (the stricter reading); an aborted upload likewise.
  DeleteObject: 'putCopyPostList',
  AbortMultipartUpload: 'putCopyPostList',
  DeleteObjects: 'putCopyPostList',
  ListObjectsV2: 'putCopyPostList',
  GetObject: 'get',
  HeadObject: 'get',
};

/**
 * How the local measurements translate to Lambda (assumptions, stated in docs/performance.md):
 * Lambda gives a function CPU in proportion to its memory, one full vCPU at 1,769 MB, so CPU-bound
 * time measured on one core here stretches by 1769 / memory below that (a Graviton vCPU is taken to
 * be as fast as one core of this machine). A DynamoDB call inside the region is taken to take at
 * least `dynamoCallMs`, whatever DynamoDB Local on loopback measured, and an S3 request on a small
 * object at least `s3CallMs` (S3 answers in tens of milliseconds, slower than DynamoDB).
 */
export const LAMBDA_MODEL = {
  fullVcpuMemoryMb: 1769,
  dynamoCallMs: 4,
  s3CallMs: 20,
} as const;
