import { compare, hash } from '@node-rs/bcrypt';
import { MEMORY_MB } from '../infra/constructs/service-function.ts';
import type { LatencyFigures } from './latency.ts';
import { LAMBDA_MODEL } from './prices.ts';
import { median, round } from './stats.ts';

/** Lambda memory is set in 1 MB steps; round the suggestion up to a tidy 64 MB. */
const MEMORY_STEP_MB = 64;
export const LOGIN_TARGET_MS = 250;

export interface BcryptFigures {
  cost: number;
  verifies: number;
  /** One compare() on this machine (one core), median. */
  verifyMs: number;
  /** Login handler time besides bcrypt (request view, session seal), measured, median. */
  loginOtherCpuMs: number;
  loginDynamoCalls: number;
  /** Predicted login at the configured memory, by the model in prices.ts. */
  configuredMemoryMb: number;
  predictedLoginMsAtConfigured: number;
  /** Least memory (rounded up to 64 MB) that keeps a login under the target; null if none can. */
  memoryForTargetMb: number | null;
}

/** CPU time stretches by 1769 / memory below one full vCPU; above it a single thread gains nothing. */
export const cpuStretch = (memoryMb: number) => Math.max(1, LAMBDA_MODEL.fullVcpuMemoryMb / memoryMb);

export async function measureBcrypt(
  cost: number,
  verifies: number,
  login: LatencyFigures | undefined,
): Promise<BcryptFigures> {
  const stored = await hash('correct horse battery staple', cost);
  await compare('warm-up', stored);
  const samples: number[] = [];
  for (let run = 0; run < verifies; run++) {
    const started = performance.now();
    await compare('correct horse battery staple', stored);
    samples.push(performance.now() - started);
  }
  const verifyMs = median(samples);
  const cpuMs = login ? Math.max(0, login.overheadMs.p50 - verifyMs) : 0;
  const calls = login?.dynamo.operationsPerRequest ?? 0;
  const dynamoMs = calls * LAMBDA_MODEL.dynamoCallMs;
  const predict = (memoryMb: number) => (verifyMs + cpuMs) * cpuStretch(memoryMb) + dynamoMs;
  const budgetForCpu = LOGIN_TARGET_MS - dynamoMs;
  const exactMemory = (LAMBDA_MODEL.fullVcpuMemoryMb * (verifyMs + cpuMs)) / budgetForCpu;
  return {
    cost,
    verifies,
    verifyMs: round(verifyMs, 1),
    loginOtherCpuMs: round(cpuMs, 2),
    loginDynamoCalls: calls,
    configuredMemoryMb: MEMORY_MB.passwordHashing,
    predictedLoginMsAtConfigured: round(predict(MEMORY_MB.passwordHashing), 1),
    memoryForTargetMb:
      exactMemory > LAMBDA_MODEL.fullVcpuMemoryMb
        ? null
        : Math.ceil(exactMemory / MEMORY_STEP_MB) * MEMORY_STEP_MB,
  };
}
