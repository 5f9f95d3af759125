import type { FileRecord } from '#shared/files/model';
import { isFileId } from '#shared/files/names';
import { findNameClaim } from '#shared/files/record/name-claims';
import { getFile } from '#shared/files/record/store';

/**
 * The caller's own file that a path's `{id}` names: its id or, as Zipline's routes take it, its
 * public name. The id is tried first (a name may have an id's shape, then the name is looked up
 * too); a name another user published is not found, as an unknown one is.
 */
export async function findOwnFile(userId: string, idOrName: string): Promise<FileRecord | undefined> {
  const byId = isFileId(idOrName) ? await getFile(userId, idOrName) : undefined;
  if (byId) return byId;
  const claim = await findNameClaim(idOrName);
  return claim?.userId === userId ? getFile(userId, claim.fileId) : undefined;
}
