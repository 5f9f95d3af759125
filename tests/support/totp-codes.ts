import { Secret, TOTP } from 'otpauth';

/** Codes as an authenticator app computes them, for any moment: tests never wait for a code to change. */
export const PERIOD_MS = 30_000;
export const stepNow = () => Math.floor(Date.now() / PERIOD_MS);

export function codeAt(secret: string, step: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: step * PERIOD_MS,
  });
}

/**
 * Runs `attempt` for the current time step and returns its result once the step did not change
 * while it ran (so the server saw that very step); a step boundary crossed mid-way (at most once per
 * 30 s) starts a fresh attempt. No waiting: a code for any step is computed, never awaited.
 */
export async function atOneStep<T>(attempt: (step: number) => Promise<T>): Promise<T> {
  for (let tries = 0; tries < 3; tries++) {
    const step = stepNow();
    const result = await attempt(step);
    if (stepNow() === step) return result;
  }
  throw new Error('the time step changed during three attempts in a row');
}

/**
 * For an attempt that changes state (a TOTP enrolment with the code of the step before this one): the
 * first accepted result is final, since trying again would meet the state it wrote; a refusal is tried
 * again only when a step boundary crossed while it ran could explain it (the code fell out of the window).
 */
export async function acceptedAtOneStep<T>(
  attempt: (step: number) => Promise<T>,
  accepted: (result: T) => boolean,
): Promise<T> {
  for (let tries = 0; tries < 3; tries++) {
    const step = stepNow();
    const result = await attempt(step);
    if (accepted(result) || stepNow() === step) return result;
  }
  throw new Error('the time step changed during three attempts in a row');
}
