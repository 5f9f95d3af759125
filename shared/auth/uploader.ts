import { authenticate } from '#shared/auth/authenticate';
import { SESSION_COOKIE } from '#shared/auth/session';
import { assertUploadFolder } from '#shared/files/record/folder-membership';
import { openFolderUploader } from '#shared/folders/open-uploads';
import type { HttpRequest } from '#shared/http/request';
import type { UserRecord } from '#shared/users/model';

/**
 * Whose an upload is: the caller's (token or session; `x-zipline-folder` then names one of the
 * caller's open folders, else a 400), or, with neither, the owner of the folder `x-zipline-folder`
 * names if it takes uploads without a token (folders/open-uploads.ts; else the usual 401).
 */
export async function uploaderOf(request: HttpRequest, folderId: string | null): Promise<UserRecord> {
  if (request.headers.authorization === undefined && request.cookies[SESSION_COOKIE] === undefined) {
    return openFolderUploader(folderId, request.sourceIp);
  }
  const { user } = await authenticate(request);
  await assertUploadFolder(user.id, folderId);
  return user;
}
