import { type Served, serveFile } from '#shared/files/serve/access';
import { presentViewPage, type ViewPage } from '#shared/view/file/open';
import { findViewable, type GivenPassword } from '#shared/view/file/shown-file';

/** What a file's link (`/u/<name>`) answers: its view page, or the file itself. */
export type LinkAnswer = { kind: 'page'; page: ViewPage } | { kind: 'file'; served: Served };

export interface LinkRequest {
  head: boolean;
  /** `?download=true`: the file as an attachment, even where the owner shows view pages. */
  attachment: boolean;
  /** `?pw=` or the refusal page's form. */
  password?: GivenPassword;
}

/**
 * Zipline's default files route: the view page while the owner has view pages on, else the file as
 * `/raw/<name>` serves it. The reads are the view page's (the name claim, then owner and file in one
 * batch: the owner's setting decides), and the view is counted once, by that lookup, however the
 * link is then answered; a password goes through the one gate (`unlockWithPassword`). HEAD counts
 * nothing.
 */
export async function openLink(name: string, request: LinkRequest): Promise<LinkAnswer> {
  const found = await findViewable(name, {
    count: !request.head,
    orFile: true,
    ...(request.password ? { password: request.password } : {}),
  });
  if (found.page && !request.attachment) return { kind: 'page', page: await presentViewPage(found) };
  return {
    kind: 'file',
    served: await serveFile(found.file, { attachment: request.attachment, head: request.head }),
  };
}
