import { type FileRecord, linkPath } from '#shared/files/model';
import { requestOrigin } from '#shared/http/origin';
import type { HttpRequest } from '#shared/http/request';
import type { ReplyOptions } from '#shared/http/upload-reply';
import type { LinkRecord } from '#shared/links/model';
import { announce } from '#shared/webhooks/emit';
import { shortenNews, uploadNews, userOf } from '#shared/webhooks/event';

type Uploader = Parameters<typeof userOf>[0];

/**
 * Tells the webhooks (docs/webhooks.md) of files just stored, with the URLs the answer gives the
 * client (`{link.returned}`: on `x-zipline-domain`'s host when sent) and their raw ones. Queued, not
 * delivered, before the answer: a Lambda function is frozen once it has answered.
 */
export async function announceUploads(
  request: HttpRequest,
  reply: ReplyOptions,
  user: Uploader,
  files: readonly (FileRecord | null)[],
): Promise<void> {
  const origin = requestOrigin(request, reply.host ?? undefined);
  const uploader = userOf(user);
  await Promise.all(
    files.flatMap((file) =>
      file
        ? [
            announce(
              uploadNews(uploader, file, {
                returned: `${origin}${linkPath(file.name)}`,
                raw: `${origin}/raw/${encodeURIComponent(file.name)}`,
              }),
            ),
          ]
        : [],
    ),
  );
}

/** Tells the webhooks of a short link just made, with the URL answered (`{link.returned}`). */
export function announceLink(user: Uploader, link: LinkRecord, returned: string): Promise<void> {
  return announce(shortenNews(userOf(user), link, returned));
}
