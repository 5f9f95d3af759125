import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as v from 'valibot';
import { pendingSignInCookie } from '#shared/auth/pending-sign-in';
import { openedSessionCookie, openSession } from '#shared/auth/session';
import { oauthConfig } from '#shared/config/oauth';
import { conflict, ServiceError } from '#shared/errors';
import type { HttpRequest } from '#shared/http/request';
import { logger } from '#shared/log/logger';
import {
  clearedFlowCookie,
  LOGIN_PAGE,
  type Navigation,
  readFlow,
  SETTINGS_PAGE,
  withError,
} from '#shared/oauth/flow';
import { finishLink, LINK_OF_ANOTHER_SESSION, linkingCaller } from '#shared/oauth/link';
import { configuredProvider, identify, ProviderRefused } from '#shared/oauth/providers';
import { createUser } from '#shared/users/creation';
import { isTotpEnabled, NO_PASSWORD, type UserRecord } from '#shared/users/model';
import { USERNAME_TAKEN } from '#shared/users/names/username-claims';
import {
  consumeFlowState,
  findUserByIdentity,
  type ProviderIdentity,
} from '#shared/users/sign-in/oauth-links';
import { usernameSchema } from '#shared/validation/users/account';

/**
 * Sign-in with a provider (issue 15): the start sends the browser to the provider with a new flow in
 * its sealed cookie; the callback checks the provider's answer against that flow and then signs in
 * the linked user, links the provider to the signed-in user (a link started from settings with
 * `POST /api/auth/oauth/{provider}`: oauth/link.ts), or, when the deployment allows sign-up by
 * provider, creates a USER. Both answer with a redirect: the callback to the dashboard, with
 * `error=<message>` when anything failed (a refused sign-in changes nothing). A user with TOTP on
 * gets no session from the provider alone: the code is asked for next (auth/pending-sign-in.ts).
 */

/** The sign-in page's TOTP prompt after a provider sign-in (`?totp=<provider>`). */
export const CODE_PAGE = `${LOGIN_PAGE}?totp=`;

/** The provider's redirect back: its query, as far as the callback reads it. */
export interface CallbackQuery {
  code?: string | undefined;
  state?: string | undefined;
  error?: string | undefined;
}

const sameSecret = (given: string, expected: string) => {
  const [a, b] = [Buffer.from(given), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
};

export async function finishSignIn(
  request: HttpRequest,
  providerId: string,
  query: CallbackQuery,
): Promise<Navigation> {
  const provider = configuredProvider(providerId);
  const cleared = clearedFlowCookie(request.secure);
  const flow = await readFlow(request);
  const page = flow?.link ? SETTINGS_PAGE : LOGIN_PAGE;
  const fail = (message: string): Navigation => ({ location: withError(page, message), cookies: [cleared] });
  if (!flow || flow.provider !== provider.id)
    return fail('the sign-in expired or was started in another browser: try again');
  // The provider's error codes are short ASCII words (RFC 6749 4.1.2.1); anything else is not shown.
  if (query.error !== undefined)
    return fail(
      `${provider.name} did not sign you in${/^[a-z_]{1,64}$/.test(query.error) ? ` (${query.error})` : ''}`,
    );
  if (query.state === undefined || !sameSecret(query.state, flow.state) || query.code === undefined)
    return fail('the sign-in could not be verified: try again');

  const linker = flow.link && (await linkingCaller(request, flow.link));
  if (flow.link && !linker) return fail(LINK_OF_ANOTHER_SESSION);

  let identity: ProviderIdentity;
  try {
    const callbackUrl = new URL(flow.redirectUri);
    for (const [name, value] of Object.entries(request.query)) callbackUrl.searchParams.set(name, value);
    identity = await identify(provider, callbackUrl, flow);
  } catch (error) {
    // A provider not set up (its client secret missing) is told on the page, as a refusal is.
    if (error instanceof ServiceError && error.kind === 'unavailable') return fail(error.message);
    if (!(error instanceof ProviderRefused)) throw error;
    logger.warn('oauth sign-in refused', { provider: provider.id, reason: error.reason });
    return fail(`${provider.name} did not confirm the sign-in: try again`);
  }
  // Recorded only once everything else holds, just before the sign-in writes: a refused sign-in
  // writes nothing at all, and a second callback with the same state is refused.
  const once = async () => {
    if (!(await consumeFlowState(flow.state))) throw conflict('this sign-in was already used: start again');
  };
  try {
    if (linker) return await finishLink(linker, identity, once, cleared);
    const linked = await findUserByIdentity(identity);
    const usable = linked?.deletingAt === undefined ? linked : undefined;
    if (!usable && (linked || !oauthConfig().signup))
      return fail(
        `no account is linked to this ${provider.name} account: sign in with your password and link it in settings`,
      );
    await once();
    const user = usable ?? (await signUp(identity));
    if (isTotpEnabled(user)) {
      const pending = await pendingSignInCookie(user.id, request.secure);
      return { location: `${CODE_PAGE}${provider.id}`, cookies: [cleared, pending], userId: user.id };
    }
    const session = await openSession(user, 'provider', request.headers['user-agent']);
    return {
      location: '/',
      cookies: [cleared, await openedSessionCookie(session, request.secure)],
      userId: user.id,
    };
  } catch (error) {
    // A conflict (the provider account is someone else's, the state was used) or a user that went.
    if (error instanceof ServiceError && (error.kind === 'conflict' || error.kind === 'not_found'))
      return fail(error.message);
    throw error;
  }
}

/**
 * A new USER for a provider account nobody linked, named after it: the provider's name, then with the
 * provider or a random suffix when that is taken or not a valid username. It has no password until
 * one is set in settings.
 */
async function signUp(identity: ProviderIdentity): Promise<UserRecord> {
  for (const username of usernameCandidates(identity)) {
    try {
      return await createUser({ username, passwordHash: NO_PASSWORD, role: 'USER', identity });
    } catch (error) {
      if (!(error instanceof ServiceError && error.message === USERNAME_TAKEN)) throw error;
    }
  }
  throw new ServiceError('conflict', 'no free username was found for this account: ask an administrator');
}

function usernameCandidates(identity: ProviderIdentity): string[] {
  const base = identity.username.trim().slice(0, 48);
  const suffix = () => randomBytes(3).toString('hex');
  return [
    base,
    `${base}-${identity.provider}`,
    `${base}-${suffix()}`,
    `${base}-${suffix()}`,
    `${identity.provider}-${suffix()}`,
  ].filter((name) => v.is(usernameSchema, name));
}
