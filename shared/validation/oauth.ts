import * as v from 'valibot';
import { OAUTH_PROVIDERS } from '#shared/config';
import { strictMessage } from '#shared/validation/text';

/** Unknown query parameters are ignored, as everywhere; the known ones are bounded. */
const bounded = (name: string, max: number) =>
  v.optional(v.pipe(v.string(`${name} must be a string`), v.maxLength(max, `${name} is too long`)));

/** `GET /api/auth/oauth/{provider}?link=true`: link to the signed-in account instead of signing in. */
export const oauthStartQuerySchema = v.looseObject({
  link: v.optional(v.picklist(['true', 'false'], 'link must be true or false')),
});

/** The provider's redirect back (RFC 6749 4.1.2): `code` and `state`, or `error`. */
export const oauthCallbackQuerySchema = v.looseObject({
  code: bounded('code', 2048),
  state: bounded('state', 256),
  error: bounded('error', 256),
});

/** `DELETE /api/user/oauth {provider}`. */
export const oauthUnlinkSchema = v.strictObject(
  { provider: v.picklist(OAUTH_PROVIDERS, `provider must be one of ${OAUTH_PROVIDERS.join(', ')}`) },
  strictMessage,
);
