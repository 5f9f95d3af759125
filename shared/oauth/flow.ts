import { randomBytes } from 'node:crypto';
import { sealValue, unsealValue } from '#shared/auth/seal';
import { clearCookie, setCookie } from '#shared/http/cookies';
import { callbackOrigin } from '#shared/http/origin';
import type { HttpRequest } from '#shared/http/request';
import type { FlowSecrets } from '#shared/oauth/providers';

/**
 * One provider sign-in, from its start to its callback: which provider, the secrets the callback
 * checks (state, PKCE verifier, nonce, the redirect URI) and, for a link from settings, the user and
 * session that asked. It lives only in a sealed, HttpOnly cookie scoped to the sign-in routes for ten minutes:
 * the browser that started the sign-in is the only one that can finish it.
 */
export interface Flow extends FlowSecrets {
  provider: string;
  /** Set when a signed-in user links the provider from settings: the session that asked. */
  link: LinkRequester | undefined;
}

/** The user who started a link, and the session it was started with (only that session finishes it). */
export interface LinkRequester {
  userId: string;
  sessionId: string;
}

export const FLOW_COOKIE = 'service_oauth';
const FLOW_PATH = '/api/auth/oauth';
const FLOW_SECONDS = 600;

const random = () => randomBytes(32).toString('base64url');

export function newFlow(provider: string, redirectUri: string, link: LinkRequester | undefined): Flow {
  return { provider, state: random(), codeVerifier: random(), nonce: random(), redirectUri, link };
}

export async function flowCookie(flow: Flow, secure: boolean): Promise<string> {
  const sealed = await sealValue(
    {
      p: flow.provider,
      s: flow.state,
      v: flow.codeVerifier,
      n: flow.nonce,
      r: flow.redirectUri,
      ...(flow.link ? { u: flow.link.userId, l: flow.link.sessionId } : {}),
    },
    FLOW_SECONDS * 1000,
  );
  return setCookie(FLOW_COOKIE, sealed, { maxAgeSeconds: FLOW_SECONDS, path: FLOW_PATH, secure });
}

/** Every answer of the callback removes the flow: a sign-in is finished once, well or not. */
export const clearedFlowCookie = (secure: boolean) => clearCookie(FLOW_COOKIE, FLOW_PATH, secure);

/** The request's flow, or undefined when it has none, or one that is expired, forged or not ours. */
export async function readFlow(request: HttpRequest): Promise<Flow | undefined> {
  const value = request.cookies[FLOW_COOKIE];
  if (value === undefined) return undefined;
  const payload = await unsealValue(value, FLOW_SECONDS * 1000);
  if (!payload) return undefined;
  const { p, s, v, n, r, u, l } = payload;
  const strings = [p, s, v, n, r];
  if (!strings.every((item): item is string => typeof item === 'string')) return undefined;
  // A link names its user and session both (a link flow sealed before it named the session is void).
  if (u !== undefined && (typeof u !== 'string' || typeof l !== 'string')) return undefined;
  const [provider, state, codeVerifier, nonce, redirectUri] = strings as [
    string,
    string,
    string,
    string,
    string,
  ];
  const link = typeof u === 'string' && typeof l === 'string' ? { userId: u, sessionId: l } : undefined;
  return { provider, state, codeVerifier, nonce, redirectUri, link };
}

/**
 * Where a provider sign-in ends on the dashboard: `page` (sign-in, or settings for a link), with
 * `error=<message>` when it failed.
 */
export interface Navigation {
  location: string;
  cookies: string[];
  /** The user signed in (for the request's log line). */
  userId?: string;
}

export const LOGIN_PAGE = '/login';
export const SETTINGS_PAGE = '/settings';

export const withError = (page: string, message: string) => `${page}?error=${encodeURIComponent(message)}`;

/**
 * The callback URL given to the provider: Zipline's, `/api/auth/oauth/<provider>` itself (issue 33),
 * so the redirect URI registered for a Zipline instance keeps working here unchanged; on the
 * dashboard's configured origin (`PUBLIC_ORIGIN`), never a request's choice; without one (npm start),
 * the origin the browser came from. `/callback` below it still answers (docs/oauth.md).
 */
export const callbackUri = (request: HttpRequest, providerId: string) =>
  `${callbackOrigin(request)}/api/auth/oauth/${providerId}`;
