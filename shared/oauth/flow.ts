import { randomBytes } from 'node:crypto';
import { sealValue, unsealValue } from '#shared/auth/seal';
import { clearCookie, setCookie } from '#shared/http/cookies';
import type { HttpRequest } from '#shared/http/request';
import type { FlowSecrets } from '#shared/oauth/providers';

/**
 * One provider sign-in, from its start to its callback: which provider, the secrets the callback
 * checks (state, PKCE verifier, nonce, the redirect URI) and, for a link from settings, the user who
 * asked. It lives only in a sealed, HttpOnly cookie scoped to the sign-in routes for ten minutes:
 * the browser that started the sign-in is the only one that can finish it.
 */
export interface Flow extends FlowSecrets {
  provider: string;
  /** Set when a signed-in user links the provider from settings. */
  linkUserId: string | undefined;
}

export const FLOW_COOKIE = 'service_oauth';
const FLOW_PATH = '/api/auth/oauth';
const FLOW_SECONDS = 600;

const random = () => randomBytes(32).toString('base64url');

export function newFlow(provider: string, redirectUri: string, linkUserId: string | undefined): Flow {
  return { provider, state: random(), codeVerifier: random(), nonce: random(), redirectUri, linkUserId };
}

export async function flowCookie(flow: Flow, secure: boolean): Promise<string> {
  const sealed = await sealValue(
    {
      p: flow.provider,
      s: flow.state,
      v: flow.codeVerifier,
      n: flow.nonce,
      r: flow.redirectUri,
      ...(flow.linkUserId ? { u: flow.linkUserId } : {}),
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
  const { p, s, v, n, r, u } = payload;
  const strings = [p, s, v, n, r];
  if (!strings.every((item): item is string => typeof item === 'string')) return undefined;
  if (u !== undefined && typeof u !== 'string') return undefined;
  const [provider, state, codeVerifier, nonce, redirectUri] = strings as [
    string,
    string,
    string,
    string,
    string,
  ];
  return { provider, state, codeVerifier, nonce, redirectUri, linkUserId: u };
}
