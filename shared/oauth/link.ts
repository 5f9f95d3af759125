import { authenticate, type Caller } from '#shared/auth/authenticate';
import { ServiceError } from '#shared/errors';
import type { HttpRequest } from '#shared/http/request';
import { logger } from '#shared/log/logger';
import {
  callbackUri,
  flowCookie,
  type LinkRequester,
  type Navigation,
  newFlow,
  SETTINGS_PAGE,
} from '#shared/oauth/flow';
import { authorizationUrl, configuredProvider, ProviderRefused } from '#shared/oauth/providers';
import { linkIdentity, type ProviderIdentity } from '#shared/users/sign-in/oauth-links';

/** Where the browser goes to link the provider, and the flow cookie it takes along. */
export interface LinkStart {
  url: string;
  cookies: string[];
}

export const LINK_OF_ANOTHER_SESSION = 'the link was started by another session: sign in and try again';

/**
 * Starts linking a provider to the signed-in account (`POST /api/auth/oauth/{provider}`, issue 29).
 * A POST with the session cookie: `authenticate` refuses an API token (a link adds a way to sign in)
 * and a request from another site's page (a link in the visitor's browser to the attacker's provider
 * account). The flow names the user and the session; only that session finishes it.
 */
export async function startLink(request: HttpRequest, providerId: string): Promise<LinkStart> {
  const caller = await authenticate(request, { sessionOnly: true });
  const provider = configuredProvider(providerId);
  const link = { userId: caller.user.id, sessionId: caller.sessionId as string };
  const flow = newFlow(provider.id, callbackUri(request, provider.id), link);
  try {
    const url = await authorizationUrl(provider, flow);
    return { url: url.href, cookies: [await flowCookie(flow, request.secure)] };
  } catch (error) {
    if (!(error instanceof ProviderRefused)) throw error;
    logger.warn('oauth link start failed', { provider: provider.id, reason: error.reason });
    throw new ServiceError('unavailable', `${provider.name} cannot be reached: try again later`);
  }
}

/**
 * The caller a link's callback may link for: the browser must still carry the very session that
 * started it (not a token, not another session of the same user). Checked before the provider is
 * asked anything.
 */
export async function linkingCaller(request: HttpRequest, link: LinkRequester): Promise<Caller | undefined> {
  const caller = await authenticate(request).catch(() => undefined);
  const same =
    caller?.via === 'cookie' && caller.user.id === link.userId && caller.sessionId === link.sessionId;
  return same ? caller : undefined;
}

/** Links the provider account that signed in at the provider to the caller who started the link. */
export async function finishLink(
  caller: Caller,
  identity: ProviderIdentity,
  once: () => Promise<void>,
  cleared: string,
): Promise<Navigation> {
  await once();
  await linkIdentity(caller.user, identity);
  return {
    location: `${SETTINGS_PAGE}?linked=${identity.provider}`,
    cookies: [cleared],
    userId: caller.user.id,
  };
}
