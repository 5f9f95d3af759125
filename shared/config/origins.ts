import { originList } from '#shared/config/env';

let origin: { secret: string | undefined } | undefined;

/**
 * The value the stack's CloudFront distribution sends in `x-origin-secret` with every request it
 * passes to the API (`ORIGIN_SECRET`, from a generated secret): only a request carrying it may
 * speak for the viewer (`http/distribution.ts`). Unset locally, where no distribution stands in front.
 */
export function originSecret(): string | undefined {
  if (origin) return origin.secret;
  const secret = process.env.ORIGIN_SECRET || undefined;
  if (secret !== undefined && secret.length < 32)
    throw new Error('ORIGIN_SECRET must be at least 32 characters');
  origin = { secret };
  return secret;
}

let publicOriginValue: { origin: string | undefined } | undefined;

/**
 * The dashboard's origin when configured (`PUBLIC_ORIGIN`: the stack sets its custom domain or the
 * distribution's name on the sign-in functions): where a provider sends the browser back. Unset
 * under `npm start`, where the runner's own address is the only one.
 */
export function publicOrigin(): string | undefined {
  if (publicOriginValue) return publicOriginValue.origin;
  const origins = originList('PUBLIC_ORIGIN');
  if (origins.length > 1)
    throw new Error('PUBLIC_ORIGIN must be one origin such as https://files.example.com');
  publicOriginValue = { origin: origins[0] };
  return origins[0];
}
