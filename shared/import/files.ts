import { createHash } from 'node:crypto';
import { getItem } from '#shared/db/client';
import { fileNameKey } from '#shared/db/keys/files';
import { invalid, ServiceError } from '#shared/errors';
import { presignUpload, uploadHeaders } from '#shared/files/bucket/presigned-urls';
import { UPLOAD_URL_SECONDS, uploadObjectKey } from '#shared/files/layout';
import type { FileRecord } from '#shared/files/model';
import { membershipWrites } from '#shared/files/record/memberships';
import { abandon } from '#shared/files/reservation/give-back';
import type { UploadOptions } from '#shared/files/reservation/options';
import { type PendingUpload, uploadReads } from '#shared/files/reservation/pending';
import { type CarriedOver, pendingUpload, reserveWrite } from '#shared/files/reservation/reservation';
import { write } from '#shared/files/reservation/writer';
import { completeUpload } from '#shared/files/upload/presigned';
import { ImportCollision } from '#shared/import/collision';
import {
  claimMapping,
  findMapping,
  type Imported,
  importedOwner,
  importOnce,
  requireMapping,
} from '#shared/import/mapping';
import { quotaLimits } from '#shared/quota';

/**
 * Files of a Zipline import (issue 40), through the presigned upload path: the start reserves the
 * file (outside the owner's quota: it exists already) and signs a PUT for its bytes; the completion
 * checks the object's size and records the file with everything it keeps of Zipline (its public
 * name, views, dates, favourite, folder, tags) and the mapping claim, in the upload's transaction.
 */
export interface ZiplineFile {
  owner: string;
  name: string;
  originalName: string;
  type: string;
  size: number;
  views: number;
  maxViews: number | null;
  deletesAt: string | null;
  favorite: boolean;
  /** The hash to keep (a locked one for a Zipline password: docs/migrate-from-zipline.md), or null. */
  passwordHash: string | null;
  folder: string | null;
  tags: string[];
  createdAt: string;
}

/** What the pending upload keeps of the Zipline file until its completion. */
interface CarriedFile {
  name: string;
  views: number;
  favorite: boolean;
  createdAt: string;
  tags: string[];
}
type ImportUpload = PendingUpload & { zipline?: CarriedFile };

/**
 * The pending upload of a Zipline file has an id of its own derived from the Zipline id, so a
 * restarted import finds (and replaces) the upload an interrupted one left.
 */
const uploadIdOf = (ziplineId: string) =>
  createHash('sha256').update(`zipline-file:${ziplineId}`).digest('hex').slice(0, 32);

export type FileStart =
  | { done: Imported }
  | { upload: { url: string; method: 'PUT'; headers: Record<string, string>; expiresAt: string } };

const nameTaken = (name: string) => new ImportCollision(`a file named ${name} already exists`, 'name', name);

/** A reference to an imported folder or tag of the same owner: its id here (400 otherwise). */
async function ownedBy(kind: 'folders' | 'tags', ziplineId: string, userId: string): Promise<string> {
  const found = await requireMapping(kind, ziplineId);
  if (found.userId !== userId) throw invalid(`${kind.slice(0, -1)} ${ziplineId} belongs to another user`);
  return found.id;
}

export async function startImportedFile(ziplineId: string, input: ZiplineFile): Promise<FileStart> {
  const existing = await findMapping('files', ziplineId);
  if (existing) return { done: { ...existing, created: false } };
  const userId = await importedOwner(input.owner);
  const folderId = input.folder === null ? null : await ownedBy('folders', input.folder, userId);
  const tags = await Promise.all(input.tags.map((tag) => ownedBy('tags', tag, userId)));
  if (await getItem(fileNameKey(input.name), { consistent: true })) throw nameTaken(input.name);
  const id = uploadIdOf(ziplineId);
  const earlier = await uploadReads(userId, id).pending();
  if (earlier) await abandon(userId, earlier);
  const options: UploadOptions = {
    format: 'name',
    filename: input.name,
    extension: null,
    extensionless: true,
    maxViews: input.maxViews,
    deletesAt: input.deletesAt,
    downloadAsOriginalName: false,
    passwordHash: input.passwordHash,
    folderId,
  };
  const now = Date.now();
  const objectKey = uploadObjectKey(userId, id);
  const { originalName, size, type } = input;
  const upload: ImportUpload = {
    ...pendingUpload({ id, originalName, size, type, objectKey }, options, now),
    zipline: {
      name: input.name,
      views: input.views,
      favorite: input.favorite,
      createdAt: input.createdAt,
      tags,
    },
  };
  await write(userId, reserveWrite(userId, upload, quotaLimits(null)));
  return {
    upload: {
      url: await presignUpload(objectKey, size, type),
      method: 'PUT',
      headers: uploadHeaders(type),
      expiresAt: new Date(now + UPLOAD_URL_SECONDS * 1000).toISOString(),
    },
  };
}

/** What the recorded file keeps of Zipline, and the claim and tag memberships in its transaction. */
function carriedOver(ziplineId: string, userId: string, upload: ImportUpload): CarriedOver {
  const kept = upload.zipline;
  if (!kept) throw invalid('this upload is not an import');
  return {
    describe: (file: FileRecord) => ({
      ...file,
      name: kept.name,
      views: kept.views,
      favorite: kept.favorite,
      createdAt: kept.createdAt,
      tags: kept.tags,
    }),
    extra: (file: FileRecord) => [
      // Its tags' memberships; the folder's member item comes with the recording (joinFolderItems).
      ...membershipWrites(userId, undefined, { ...file, folderId: null }),
      claimMapping('files', ziplineId, { id: file.id, userId, details: { name: file.name } }),
    ],
  };
}

export function completeImportedFile(ziplineId: string, owner: string): Promise<Imported> {
  return importOnce('files', ziplineId, async () => {
    const userId = await importedOwner(owner);
    const id = uploadIdOf(ziplineId);
    const name = ((await uploadReads(userId, id).pending()) as ImportUpload | undefined)?.zipline?.name;
    try {
      const file = await completeUpload({ id: userId, quota: null }, id, (upload) =>
        carriedOver(ziplineId, userId, upload),
      );
      return { id: file.id, userId, details: { name: file.name } };
    } catch (error) {
      // The name was taken since the start (the upload is dropped): a collision, not a bad request.
      const refused = error instanceof ServiceError && error.kind === 'invalid' && name !== undefined;
      if (refused && (await getItem(fileNameKey(name), { consistent: true }))) throw nameTaken(name);
      throw error;
    }
  });
}
