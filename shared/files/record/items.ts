import { fileKey } from '#shared/db/keys/files';
import type { FileRecord } from '#shared/files/model';
import { indexAttributes } from '#shared/files/record/indexing';

/** A file's record and its stored item: keys and index attributes added, a null never stored. */

const FILE_ATTRIBUTES = [
  'id',
  'name',
  'originalName',
  'size',
  'type',
  'views',
  'maxViews',
  'favorite',
  'createdAt',
  'updatedAt',
  'deletesAt',
  'downloadAsOriginalName',
  'objectKey',
  'passwordHash',
  'version',
  'thumbnail',
  'folderId',
  'tags',
] as const satisfies readonly (keyof FileRecord)[];

export function fromFileItem(item: Record<string, unknown>): FileRecord {
  const file = Object.fromEntries(FILE_ATTRIBUTES.map((name) => [name, item[name]])) as unknown as FileRecord;
  // Absent means "no limit" / "never": a null is never stored, so conditions can use attribute_not_exists.
  file.maxViews ??= null;
  file.deletesAt ??= null;
  file.passwordHash ??= null;
  file.thumbnail ??= null;
  file.folderId ??= null;
  // A string set (absent when empty), read back in id order: tags are created in that order.
  file.tags = item.tags instanceof Set ? [...(item.tags as Set<string>)].sort() : [];
  return file;
}

/** The stored item of a file: its record, keys and index attributes (also the benchmark's fill). */
export function toFileItem(userId: string, file: FileRecord) {
  const { maxViews, deletesAt, passwordHash, thumbnail, folderId, tags, ...rest } = file;
  return {
    ...fileKey(userId, file.id),
    entity: 'FILE',
    ...rest,
    ...(maxViews === null ? {} : { maxViews }),
    ...(deletesAt === null ? {} : { deletesAt }),
    ...(passwordHash === null ? {} : { passwordHash }),
    ...(thumbnail === null ? {} : { thumbnail }),
    ...(folderId === null ? {} : { folderId }),
    ...(tags.length === 0 ? {} : { tags: new Set(tags) }),
    ...indexAttributes(userId, file),
  };
}
