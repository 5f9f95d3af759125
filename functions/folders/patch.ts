import { authenticate } from '#shared/auth/authenticate';
import { toFolderResource } from '#shared/folders/model';
import { requireFolder, updateFolder } from '#shared/folders/store';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { FOLDER_ID, patchFolderSchema } from '#shared/validation/folders/schemas';
import { pathId } from '#shared/validation/ids';

/** Renames a folder, makes it public or private, opens or closes it to uploads without a token. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const body = readJson(request, patchFolderSchema);
  const folderId = pathId(request, 'id', FOLDER_ID);
  const changes = { name: body.name, public: body.isPublic, allowUploads: body.allowUploads };
  if (Object.values(changes).every((value) => value === undefined)) {
    return json(200, toFolderResource(await requireFolder(user.id, folderId)));
  }
  return json(200, toFolderResource(await updateFolder(user.id, folderId, changes)));
});
