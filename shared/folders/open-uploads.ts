import { unauthenticated } from '#shared/errors';
import { findFolder } from '#shared/folders/store';
import { addressSubject } from '#shared/throttle/address';
import { countAttempt } from '#shared/throttle/counter';
import type { UserRecord } from '#shared/users/model';
import { getUser } from '#shared/users/store';

/**
 * Uploads without a token into a folder with `allowUploads` (Zipline's), docs/folders.md: the files
 * are the folder owner's, stored in the owner's partition and counted against the owner's quota; only
 * the owner can delete them. Counted per client address before anything is read or stored: at most
 * `OPEN_UPLOADS_PER_ADDRESS` a throttle window (429 past it). A folder unknown, closed to uploads or
 * being deleted answers as a request without a token does (401), so nobody learns which exist.
 */
export const OPEN_UPLOADS_PER_ADDRESS = 30;

export async function openFolderUploader(folderId: string | null, sourceIp: string): Promise<UserRecord> {
  if (folderId === null) throw unauthenticated();
  await countAttempt({
    scope: 'folder-upload-address',
    subject: addressSubject(sourceIp),
    max: OPEN_UPLOADS_PER_ADDRESS,
  });
  const folder = await findFolder(folderId);
  if (!folder?.allowUploads) throw unauthenticated();
  const owner = await getUser(folder.userId);
  if (!owner || owner.deletingAt) throw unauthenticated();
  return owner;
}
