import type { HttpRequest } from '#shared/http/request';
import { logger } from '#shared/log/logger';
import {
  callbackUri,
  flowCookie,
  LOGIN_PAGE,
  type Navigation,
  newFlow,
  SETTINGS_PAGE,
  withError,
} from '#shared/oauth/flow';
import { authorizationUrl, configuredProvider, ProviderRefused } from '#shared/oauth/providers';

export const LINK_STARTS_IN_SETTINGS =
  'a provider is linked from Settings, signed in: open Settings and choose Link there';

/**
 * `GET /api/auth/oauth/{provider}` without the provider's answer in its query (with it, the same
 * route is the callback: oauth/sign-in.ts): a plain sign-in, which signs nobody in by itself (the
 * provider decides who, the callback checks the flow), so any page may start one. `?link=true` no
 * longer links: a link starts with a POST from settings (oauth/link.ts).
 */
export async function startSignIn(
  request: HttpRequest,
  providerId: string,
  link: boolean,
): Promise<Navigation> {
  const provider = configuredProvider(providerId);
  if (link) return { location: withError(SETTINGS_PAGE, LINK_STARTS_IN_SETTINGS), cookies: [] };
  const flow = newFlow(provider.id, callbackUri(request, provider.id), undefined);
  try {
    const url = await authorizationUrl(provider, flow);
    return { location: url.href, cookies: [await flowCookie(flow, request.secure)] };
  } catch (error) {
    if (!(error instanceof ProviderRefused)) throw error;
    logger.warn('oauth start failed', { provider: provider.id, reason: error.reason });
    return {
      location: withError(LOGIN_PAGE, `${provider.name} cannot be reached: try again later`),
      cookies: [],
    };
  }
}
