import { sent } from '#shared/http/upload-reply';
import { readFilePassword } from '#shared/validation/files/schemas';
import { readMaxViews } from '#shared/validation/files/upload-headers';

/**
 * What a shortening request's `x-zipline-*` headers set on the link: its view limit and password,
 * read by the upload's own rules (so a header means the same on both routes); a bad value is a 400
 * naming the header. `x-zipline-domain` and `x-zipline-no-json` shape the answer (`readReplyOptions`).
 */
export function readLinkHeaders(headers: Record<string, string>) {
  const values = sent(headers);
  return {
    maxViews: readMaxViews(values['x-zipline-max-views']),
    password: readFilePassword(values['x-zipline-password'], 'x-zipline-password'),
  };
}
