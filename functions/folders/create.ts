import { authenticate } from '#shared/auth/authenticate';
import { BULK_BODY_BYTES, changeFiles } from '#shared/files/bulk';
import { toFolderResource } from '#shared/folders/model';
import { createFolder, requireFolder } from '#shared/folders/store';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { createFolderSchema } from '#shared/validation/folders/schemas';

/** Creates a folder; Zipline's `files` are moved into it as a bulk move would (ids not the caller's: skipped). */
export const handler = defineHandler(
  async (request) => {
    const { user } = await authenticate(request);
    const body = readJson(request, createFolderSchema);
    const folder = await createFolder(user.id, {
      name: body.name,
      public: body.isPublic,
      allowUploads: body.allowUploads,
    });
    if (!body.files) return json(200, toFolderResource(folder));
    await changeFiles(user.id, body.files, { folder: folder.id });
    return json(200, toFolderResource(await requireFolder(user.id, folder.id)));
  },
  { bodyLimit: BULK_BODY_BYTES },
);
