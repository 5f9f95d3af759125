import { sealValue, unsealValue } from '#shared/auth/seal';
import { clearCookie, setCookie } from '#shared/http/cookies';
import type { HttpRequest } from '#shared/http/request';

/**
 * A sign-in that proved who the user is but still owes the second factor (a provider sign-in of an
 * account with TOTP on): no session yet, only this sealed, HttpOnly cookie, scoped to the one route
 * that takes the code (`POST /api/auth/totp`) for five minutes. It names the user and nothing else;
 * the code it waits for is checked as the password login checks it (auth/login.ts).
 */
export const PENDING_COOKIE = 'service_pending';
export const PENDING_PATH = '/api/auth/totp';
const PENDING_SECONDS = 300;

export async function pendingSignInCookie(userId: string, secure: boolean): Promise<string> {
  const sealed = await sealValue({ u: userId }, PENDING_SECONDS * 1000);
  return setCookie(PENDING_COOKIE, sealed, { maxAgeSeconds: PENDING_SECONDS, path: PENDING_PATH, secure });
}

export const clearedPendingCookie = (secure: boolean) => clearCookie(PENDING_COOKIE, PENDING_PATH, secure);

/** The user a pending sign-in waits for, or undefined when there is none (or it expired, or is forged). */
export async function readPendingSignIn(request: HttpRequest): Promise<string | undefined> {
  const value = request.cookies[PENDING_COOKIE];
  if (value === undefined) return undefined;
  // iron refuses it past its five minutes.
  const u = (await unsealValue(value, PENDING_SECONDS * 1000))?.u;
  return typeof u === 'string' ? u : undefined;
}
