/**
 * The one retry mechanism for storage calls that meet contention (transaction conflicts, optimistic
 * locks, concurrent logins) or leave work undone (a batch's unprocessed items): try again after a
 * jittered, exponentially growing pause, so that competing requests spread out instead of meeting
 * again at the same moment.
 */
export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  attempts: number;
  /** The pause before attempt n+1 is random in [0, baseMs · 2^min(n, 6)). */
  baseMs: number;
  /** Whether a failure is worth another attempt; anything else is thrown at once. */
  retryable: (error: unknown) => boolean;
  /** What to throw instead of the last retryable failure once the attempts are used up. */
  exhausted?: (error: unknown) => unknown;
}

/** Thrown by a step that made progress but has work left (a batch's unprocessed items). */
export class WorkLeft extends Error {
  constructor() {
    super('work left');
    this.name = 'WorkLeft';
  }
}

export const isWorkLeft = (error: unknown) => error instanceof WorkLeft;

const pause = (attempt: number, baseMs: number) =>
  new Promise((resolve) => setTimeout(resolve, baseMs * 2 ** Math.min(attempt, 6) * Math.random()));

/** Runs `step` (told its attempt number, from 1) until it succeeds, within the policy. */
export async function retry<T>(policy: RetryPolicy, step: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step(attempt);
    } catch (error) {
      if (!policy.retryable(error)) throw error;
      if (attempt >= policy.attempts) throw policy.exhausted ? policy.exhausted(error) : error;
      await pause(attempt, policy.baseMs);
    }
  }
}
