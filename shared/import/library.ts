import { ServiceError } from '#shared/errors';
import { createFolder, type FolderFields } from '#shared/folders/store';
import { ImportCollision } from '#shared/import/collision';
import { claimMapping, type Imported, importedOwner, importOnce } from '#shared/import/mapping';
import { createTag, TAG_EXISTS } from '#shared/tags/store';

/** Folders and tags of a Zipline import (issue 40): each created once, with its mapping claim. */

export interface ZiplineFolder extends FolderFields {
  owner: string;
  createdAt: string;
}

export function importFolder(ziplineId: string, input: ZiplineFolder): Promise<Imported> {
  return importOnce('folders', ziplineId, async () => {
    const userId = await importedOwner(input.owner);
    const { owner: _, createdAt, ...fields } = input;
    const folder = await createFolder(userId, fields, {
      createdAt,
      extra: (made) => [claimMapping('folders', ziplineId, { id: made.id, userId, details: {} })],
    });
    return { id: folder.id, userId, details: {} };
  });
}

export interface ZiplineTag {
  owner: string;
  name: string;
  color: string;
  createdAt: string;
}

export function importTag(ziplineId: string, input: ZiplineTag): Promise<Imported> {
  return importOnce('tags', ziplineId, async () => {
    const userId = await importedOwner(input.owner);
    try {
      const tag = await createTag(userId, input.name, input.color, {
        createdAt: input.createdAt,
        extra: (made) => [claimMapping('tags', ziplineId, { id: made.id, userId, details: {} })],
      });
      return { id: tag.id, userId, details: {} };
    } catch (error) {
      if (error instanceof ServiceError && error.message === TAG_EXISTS) {
        throw new ImportCollision(`${TAG_EXISTS}: ${input.name}`, 'name', input.name);
      }
      throw error;
    }
  });
}
