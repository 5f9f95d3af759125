import { defineHandler } from '#shared/http/handler';
import { validate } from '#shared/http/request';
import { FOLDER_ID, folderPageQuerySchema } from '#shared/validation/folders/schemas';
import { folderNotFound, folderPage } from '#shared/view/folder-page';

/**
 * A public folder's page: server-rendered, no script, a page of files shown as their view pages
 * show them, older pages by `?after=`; a folder that is not public is a 404.
 */
export const handler = defineHandler(async (request) => {
  const id = request.pathParameters.id ?? '';
  const { after } = validate(folderPageQuerySchema, request.query);
  return FOLDER_ID.accepts(id) ? folderPage(request, id, after) : folderNotFound(request);
});
