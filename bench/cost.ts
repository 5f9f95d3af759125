import { MEMORY_MB, memoryOf as memoryOfSpec } from '../infra/constructs/service-function.ts';
import { functionSpecs } from '../infra/functions.ts';
import { cpuStretch } from './bcrypt.ts';
import type { LatencyFigures } from './latency.ts';
import { LAMBDA_MODEL, PRICES } from './prices.ts';
import { round } from './stats.ts';

export interface CostFigures {
  scenario: string;
  memoryMb: number;
  /** Predicted billed Lambda duration (1 ms granularity). */
  billedMs: number;
  lambdaUsd: number;
  httpApiUsd: number;
  dynamoUsd: number;
  /** S3 requests the handler sends (not the client's own PUT to a presigned URL or GET after a redirect). */
  s3Usd: number;
  /** Everything per million requests. */
  totalUsd: number;
}

/** The memory the stack gives a handler's function (the route table's `hashesPasswords` and `native` decide). */
export function memoryOf(handler: string): number {
  const spec = functionSpecs().find((candidate) => candidate.handler === handler);
  return spec ? memoryOfSpec(spec) : MEMORY_MB.standard;
}

/**
 * Cost per million requests: our measured CPU work stretched to the function's CPU share, plus each
 * DynamoDB and S3 call at in-region latency (or what the local servers took, if more), billed per 1 ms.
 */
export function costPerMillion(latency: LatencyFigures): CostFigures {
  const memoryMb = memoryOf(latency.handler);
  const dynamoMs = Math.max(
    latency.dynamo.operationsPerRequest * LAMBDA_MODEL.dynamoCallMs,
    latency.dynamoRoundTripMs.p50,
  );
  const s3Ms = Math.max(latency.s3.operationsPerRequest * LAMBDA_MODEL.s3CallMs, latency.s3RoundTripMs.p50);
  const billedMs = Math.ceil(latency.overheadMs.p50 * cpuStretch(memoryMb) + dynamoMs + s3Ms);
  const million = 1e6;
  const lambdaUsd =
    (PRICES.lambdaRequestUsd + (memoryMb / 1024) * (billedMs / 1000) * PRICES.lambdaArmGbSecondUsd) * million;
  const httpApiUsd = PRICES.httpApiRequestUsd * million;
  const dynamoUsd =
    (latency.dynamo.readUnitsPerRequest * PRICES.dynamoReadUnitUsd +
      latency.dynamo.writeUnitsPerRequest * PRICES.dynamoWriteUnitUsd) *
    million;
  const s3Usd =
    (latency.s3.putClassPerRequest * PRICES.s3PutCopyPostListUsd +
      latency.s3.getClassPerRequest * PRICES.s3GetUsd) *
    million;
  return {
    scenario: latency.scenario,
    memoryMb,
    billedMs,
    lambdaUsd: round(lambdaUsd, 4),
    httpApiUsd: round(httpApiUsd, 4),
    dynamoUsd: round(dynamoUsd, 4),
    s3Usd: round(s3Usd, 4),
    totalUsd: round(lambdaUsd + httpApiUsd + dynamoUsd + s3Usd, 4),
  };
}
