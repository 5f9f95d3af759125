import { readBoolean, required } from '#shared/config/env';

/** The external sign-in providers a deployment can offer (issue 15). */
export const OAUTH_PROVIDERS = ['oidc', 'github', 'discord', 'google'] as const;

export type OAuthProviderId = (typeof OAUTH_PROVIDERS)[number];

/** Names shown on the dashboard's buttons; an OIDC provider's comes from `OAUTH_OIDC_NAME`. */
const PROVIDER_NAMES: Record<OAuthProviderId, string> = {
  oidc: 'OpenID Connect',
  github: 'GitHub',
  discord: 'Discord',
  google: 'Google',
};

export interface OAuthProviderConfig {
  id: OAuthProviderId;
  name: string;
  clientId: string;
  /** The OIDC issuer, found by discovery (`oidc`: `OAUTH_OIDC_ISSUER`; `google`: Google's). */
  issuer: string | undefined;
}

export interface OAuthConfig {
  /** Only the providers with a client id; none by default. */
  providers: OAuthProviderConfig[];
  /** A sign-in by a provider account no user has linked creates a USER (`OAUTH_SIGNUP=true`). */
  signup: boolean;
}

export const GOOGLE_ISSUER = 'https://accounts.google.com';

function issuerUrl(name: string): string {
  const value = required(name);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name}: "${value}" is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`${name} must be an http(s) URL`);
  return value.replace(/\/$/, '');
}

let oauth: OAuthConfig | undefined;

/**
 * Separate from `config()`: only the sign-in functions read it. A provider is configured by its
 * client id (`OAUTH_<PROVIDER>_CLIENT_ID`, from stack context in AWS); its client secret is a secret
 * (`secrets.ts`). An OIDC client id without its issuer stops the start.
 */
export function oauthConfig(): OAuthConfig {
  oauth ??= {
    providers: OAUTH_PROVIDERS.flatMap((id) => {
      const clientId = process.env[`OAUTH_${id.toUpperCase()}_CLIENT_ID`];
      if (!clientId) return [];
      const name = (id === 'oidc' && process.env.OAUTH_OIDC_NAME) || PROVIDER_NAMES[id];
      const issuer =
        id === 'oidc' ? issuerUrl('OAUTH_OIDC_ISSUER') : id === 'google' ? GOOGLE_ISSUER : undefined;
      return [{ id, name, clientId, issuer }];
    }),
    signup: readBoolean('OAUTH_SIGNUP'),
  };
  return oauth;
}
