import { defineHandler } from '#shared/http/handler';
import { FOLDER_ID } from '#shared/validation/folders/schemas';
import { folderNotFound, folderPage } from '#shared/view/folder-page';

/** A public folder's page: server-rendered, no script; a folder that is not public is a 404. */
export const handler = defineHandler(async (request) => {
  const id = request.pathParameters.id ?? '';
  return FOLDER_ID.accepts(id) ? folderPage(request, id) : folderNotFound(request);
});
