import { linkViewsKey } from '#shared/db/keys/links';
import { putIn } from '#shared/db/table-calls';
import { ServiceError } from '#shared/errors';
import { ImportCollision } from '#shared/import/collision';
import { claimMapping, type Imported, importedOwner, importOnce } from '#shared/import/mapping';
import { createLink, type NewLink } from '#shared/links/store';

/** A Zipline short link as the import takes it. */
export interface ZiplineUrl extends NewLink {
  owner: string;
  code: string;
  views: number;
  createdAt: string;
}

/**
 * Imports a Zipline short link once (issue 40): the link keeps its code (lower case: `/go/` names
 * are case-insensitive here) and vanity, both claimed like any link's names, and an id of its own.
 * Its views so far are one counter item (a shard's); with a view limit they count as the views
 * before the limit, so it allows `maxViews - views` more. Written with the owner's link count and
 * the mapping claim in one transaction; not refused by the owner's `maxUrls` (the link exists).
 */
export function importUrl(ziplineId: string, input: ZiplineUrl): Promise<Imported> {
  return importOnce('urls', ziplineId, async () => {
    const userId = await importedOwner(input.owner);
    const { owner: _owner, code, views, createdAt, ...fields } = input;
    const details = (link: { code: string; vanity: string | null }) => ({
      code: link.code,
      vanity: link.vanity,
    });
    try {
      const link = await createLink(userId, fields, null, {
        code: code.toLowerCase(),
        viewsBeforeLimit: fields.maxViews === null ? 0 : views,
        createdAt,
        extra: (made) => [
          ...(views > 0 ? [putIn({ ...linkViewsKey(made.id, 0), views })] : []),
          claimMapping('urls', ziplineId, { id: made.id, userId, details: details(made) }),
        ],
      });
      return { id: link.id, userId, details: details(link) };
    } catch (error) {
      if (error instanceof ServiceError && error.kind === 'conflict') {
        const name = error.message.startsWith('code') ? code : (fields.vanity ?? code);
        throw new ImportCollision(`${error.message}: ${name}`, 'name', name);
      }
      throw error;
    }
  });
}
