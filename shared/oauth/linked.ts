import type { UserRecord } from '#shared/users/model';

/**
 * A linked provider account as Zipline 4.4 lists it (`GET /api/auth/oauth`, `DELETE /api/auth/oauth`):
 * its OAuthProvider row, provider in capitals, without the provider tokens Zipline keeps there (none
 * is stored here, and none would ever be returned). `id` names the link (a provider account links to
 * one user at most); `updatedAt` is `createdAt` (a link never changes, it is made or removed).
 */
export interface ZiplineLinkedProvider {
  id: string;
  createdAt: string;
  updatedAt: string;
  userId: string;
  provider: string;
  username: string;
  oauthId: string;
}

export const ziplineLinkedProviders = (user: UserRecord): ZiplineLinkedProvider[] =>
  user.oauthProviders.map((link) => ({
    id: `${link.provider}:${link.providerId}`,
    createdAt: link.createdAt,
    updatedAt: link.createdAt,
    userId: user.id,
    provider: link.provider.toUpperCase(),
    username: link.username,
    oauthId: link.providerId,
  }));
