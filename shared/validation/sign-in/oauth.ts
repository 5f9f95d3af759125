import * as v from 'valibot';
import { OAUTH_PROVIDERS } from '#shared/config/oauth';
import { strictMessage } from '#shared/validation/text';

/** Unknown query parameters are ignored, as everywhere; the known ones are bounded. */
const bounded = (name: string, max: number) =>
  v.optional(v.pipe(v.string(`${name} must be a string`), v.maxLength(max, `${name} is too long`)));

/** The provider's redirect back (RFC 6749 4.1.2): `code` and `state`, or `error`. */
export const oauthCallbackQuerySchema = v.looseObject({
  code: bounded('code', 2048),
  state: bounded('state', 256),
  error: bounded('error', 256),
});

/**
 * `GET /api/auth/oauth/{provider}`: a start (`?link=true`: the old way to link, refused), or, as on
 * Zipline, the provider's redirect back when its answer is in the query (`isProviderAnswer`).
 */
export const oauthSignInQuerySchema = v.looseObject({
  link: v.optional(v.picklist(['true', 'false'], 'link must be true or false')),
  ...oauthCallbackQuerySchema.entries,
});

/** The query carries the provider's answer (`code`, `state` or `error`): it is a callback, not a start. */
export const isProviderAnswer = (query: v.InferOutput<typeof oauthCallbackQuerySchema>) =>
  query.code !== undefined || query.state !== undefined || query.error !== undefined;

/**
 * `DELETE /api/user/oauth {provider}` and `DELETE /api/auth/oauth {provider}`; Zipline's clients name
 * the provider in capitals (`OIDC`, `GITHUB`, …), so any case is taken.
 */
export const oauthUnlinkSchema = v.strictObject(
  {
    provider: v.pipe(
      v.string(`provider must be one of ${OAUTH_PROVIDERS.join(', ')}`),
      v.maxLength(16, `provider must be one of ${OAUTH_PROVIDERS.join(', ')}`),
      v.toLowerCase(),
      v.picklist(OAUTH_PROVIDERS, `provider must be one of ${OAUTH_PROVIDERS.join(', ')}`),
    ),
  },
  strictMessage,
);
