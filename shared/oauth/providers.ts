import { CodeChallengeMethod, Discord, OAuth2Client, type OAuth2Tokens } from 'arctic';
import * as oidc from 'openid-client';
import { type OAuthProviderConfig, type OAuthProviderId, oauthConfig } from '#shared/config/oauth';
import { notFound, ServiceError } from '#shared/errors';
import { oauthClientSecret } from '#shared/secrets';
import type { ProviderIdentity } from '#shared/users/sign-in/oauth-links';

/**
 * The providers' protocols, all by maintained libraries: OpenID Connect (any issuer by discovery, and
 * Google, which is one) with openid-client; GitHub and Discord, plain OAuth 2 without ID tokens, with
 * arctic. Every flow is the authorization code flow with PKCE (S256); OIDC adds a nonce and checks
 * the ID token's signature (JWKS), issuer, audience, expiry and nonce. Provider tokens are used once,
 * to learn who signed in, and never stored or logged.
 */

/** The secrets of one sign-in, made at its start and kept in its sealed flow cookie until the callback. */
export interface FlowSecrets {
  state: string;
  codeVerifier: string;
  nonce: string;
  /** The callback URL given at the start; the token request must name the same. */
  redirectUri: string;
}

interface ProviderProtocol {
  authorizationUrl(flow: FlowSecrets): Promise<URL>;
  /** Exchanges the code (with the PKCE verifier) and learns the provider account. */
  identify(callbackUrl: URL, flow: FlowSecrets): Promise<{ providerId: string; username: string }>;
}

/** The configured provider of that id; an unknown or unconfigured one is a 404. */
export function configuredProvider(id: string): OAuthProviderConfig {
  const provider = oauthConfig().providers.find((candidate) => candidate.id === id);
  if (!provider) throw notFound('no such sign-in provider');
  return provider;
}

/** Raised when the provider, or what it answered, does not confirm the sign-in. */
export class ProviderRefused extends Error {
  constructor(readonly reason: string) {
    super(`provider refused: ${reason}`);
    this.name = 'ProviderRefused';
  }
}

async function clientSecret(provider: OAuthProviderConfig): Promise<string> {
  const secret = await oauthClientSecret(provider.id);
  if (!secret)
    throw new ServiceError(
      'unavailable',
      `sign-in with ${provider.name} is not set up: its client secret is missing`,
    );
  return secret;
}

/** One discovery per provider and process (cold start); a failed one is retried by the next request. */
const discovered = new Map<string, Promise<oidc.Configuration>>();

function oidcConfiguration(
  provider: OAuthProviderConfig,
  secret: string | undefined,
): Promise<oidc.Configuration> {
  const key = `${provider.id} ${secret === undefined ? 'public' : 'confidential'}`;
  let configuration = discovered.get(key);
  if (!configuration) {
    const issuer = new URL(provider.issuer as string);
    // Plain HTTP only for a local provider (the tests' and a developer's); never in AWS.
    const local = issuer.protocol === 'http:';
    configuration = oidc
      .discovery(issuer, provider.clientId, secret, undefined, {
        execute: [...(local ? [oidc.allowInsecureRequests] : []), oidc.enableNonRepudiationChecks],
      })
      .catch((error: unknown) => {
        discovered.delete(key);
        throw new ProviderRefused(`discovery failed (${errorCode(error)})`);
      });
    discovered.set(key, configuration);
  }
  return configuration;
}

function openIdConnect(provider: OAuthProviderConfig): ProviderProtocol {
  return {
    async authorizationUrl(flow) {
      // Building the URL needs no client secret: a link's start (the POST) is not granted it.
      const configuration = await oidcConfiguration(provider, undefined);
      return oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: flow.redirectUri,
        scope: 'openid profile email',
        response_type: 'code',
        state: flow.state,
        nonce: flow.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
      });
    },
    async identify(callbackUrl, flow) {
      const configuration = await oidcConfiguration(provider, await clientSecret(provider));
      const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new ProviderRefused('no ID token');
      const name = [claims.preferred_username, claims.nickname, claims.name, claims.email].find(
        (value): value is string => typeof value === 'string' && value.trim() !== '',
      );
      return { providerId: claims.sub, username: name?.trim() ?? claims.sub };
    },
  };
}

/** A plain OAuth 2 provider: its endpoints, scopes and the API that says who the token belongs to. */
interface OAuth2Provider {
  authorize: string;
  token: string;
  scopes: string[];
  profile: string;
  /** The account's stable id and name in the profile's JSON. */
  identity: (profile: Record<string, unknown>) => { providerId: unknown; username: unknown };
}

const OAUTH2_PROVIDERS: Partial<Record<OAuthProviderId, OAuth2Provider>> = {
  github: {
    authorize: 'https://github.com/login/oauth/authorize',
    token: 'https://github.com/login/oauth/access_token',
    scopes: ['read:user'],
    profile: 'https://api.github.com/user',
    identity: (profile) => ({ providerId: profile.id, username: profile.login }),
  },
  discord: {
    authorize: 'https://discord.com/oauth2/authorize',
    token: 'https://discord.com/api/oauth2/token',
    scopes: ['identify'],
    profile: 'https://discord.com/api/users/@me',
    identity: (profile) => ({ providerId: profile.id, username: profile.username }),
  },
};

function plainOAuth2(provider: OAuthProviderConfig, endpoints: OAuth2Provider): ProviderProtocol {
  // arctic's Discord client does PKCE; its GitHub client does not, so GitHub goes through arctic's
  // generic client with GitHub's endpoints (GitHub accepts PKCE).
  const client = (secret: string | null, redirectUri: string) =>
    provider.id === 'discord'
      ? {
          url: (flow: FlowSecrets) =>
            new Discord(provider.clientId, secret, redirectUri).createAuthorizationURL(
              flow.state,
              flow.codeVerifier,
              endpoints.scopes,
            ),
          exchange: (code: string, verifier: string) =>
            new Discord(provider.clientId, secret, redirectUri).validateAuthorizationCode(code, verifier),
        }
      : {
          url: (flow: FlowSecrets) =>
            new OAuth2Client(provider.clientId, secret, redirectUri).createAuthorizationURLWithPKCE(
              endpoints.authorize,
              flow.state,
              CodeChallengeMethod.S256,
              flow.codeVerifier,
              endpoints.scopes,
            ),
          exchange: (code: string, verifier: string) =>
            new OAuth2Client(provider.clientId, secret, redirectUri).validateAuthorizationCode(
              endpoints.token,
              code,
              verifier,
            ),
        };
  return {
    async authorizationUrl(flow) {
      return client(null, flow.redirectUri).url(flow);
    },
    async identify(callbackUrl, flow) {
      const code = callbackUrl.searchParams.get('code');
      if (!code) throw new ProviderRefused('no code');
      const tokens: OAuth2Tokens = await client(await clientSecret(provider), flow.redirectUri).exchange(
        code,
        flow.codeVerifier,
      );
      const response = await fetch(endpoints.profile, {
        headers: {
          authorization: `Bearer ${tokens.accessToken()}`,
          accept: 'application/json',
          'user-agent': 'file-service',
        },
      });
      if (!response.ok) throw new ProviderRefused(`profile answered ${response.status}`);
      const { providerId, username } = endpoints.identity((await response.json()) as Record<string, unknown>);
      if ((typeof providerId !== 'string' && typeof providerId !== 'number') || typeof username !== 'string')
        throw new ProviderRefused('profile without id or name');
      return { providerId: String(providerId), username };
    },
  };
}

function protocolOf(provider: OAuthProviderConfig): ProviderProtocol {
  const endpoints = OAUTH2_PROVIDERS[provider.id];
  return endpoints ? plainOAuth2(provider, endpoints) : openIdConnect(provider);
}

/** Where the browser goes to sign in at the provider. */
export async function authorizationUrl(provider: OAuthProviderConfig, flow: FlowSecrets): Promise<URL> {
  try {
    return await protocolOf(provider).authorizationUrl(flow);
  } catch (error) {
    throw refusal(error);
  }
}

/** Longest provider account id kept (its constraint item's key must stay small). */
const MAX_PROVIDER_ID_LENGTH = 255;

/**
 * The provider account that signed in, from the provider's redirect back (`callbackUrl`: the redirect
 * URI with the provider's query). Anything the provider or the checks refuse is a `ProviderRefused`.
 */
export async function identify(
  provider: OAuthProviderConfig,
  callbackUrl: URL,
  flow: FlowSecrets,
): Promise<ProviderIdentity> {
  try {
    const { providerId, username } = await protocolOf(provider).identify(callbackUrl, flow);
    if (providerId === '' || providerId.length > MAX_PROVIDER_ID_LENGTH)
      throw new ProviderRefused('bad account id');
    return { provider: provider.id, providerId, username };
  } catch (error) {
    throw refusal(error);
  }
}

/** Our own failures (a missing secret) pass as they are; the provider's become a ProviderRefused. */
function refusal(error: unknown): Error {
  if (error instanceof ServiceError || error instanceof ProviderRefused) return error;
  return new ProviderRefused(errorCode(error));
}

/** What may be logged of a library's error: its name and code, never a message that could quote a token. */
function errorCode(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${error.name} ${code}` : error.name;
}
