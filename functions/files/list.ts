import { authenticate } from '#shared/auth/authenticate';
import { invalid, notFound } from '#shared/errors';
import { type ListOptions, listFiles, searchFiles } from '#shared/files/listing/listing';
import { toFileResource } from '#shared/files/model';
import { folderPage } from '#shared/folders/listing';
import { defineHandler } from '#shared/http/handler';
import { validate } from '#shared/http/request';
import { json } from '#shared/http/response';
import { userWhoseFilesToList } from '#shared/users/file-owner';
import { listQuerySchema } from '#shared/validation/files/schemas';
import { FOLDER_ID } from '#shared/validation/folders/schemas';
import { USER_ID } from '#shared/validation/ids';

/**
 * The caller's files; with `?id=<user id>` (Zipline's), an administrator lists a user it may act on
 * as `/api/users/{id}` allows (anyone else: 404), each file's `url` following that owner's settings.
 */
export const handler = defineHandler(async (request) => {
  const { user: caller } = await authenticate(request);
  const query = validate(listQuerySchema, request.query);
  if (query.id !== undefined && !USER_ID.accepts(query.id)) throw notFound(USER_ID.notFound);
  const user = query.id === undefined ? caller : await userWhoseFilesToList(caller, query.id);
  const options: ListOptions = {
    sortBy: query.sortBy,
    order: query.order,
    filter: query.filter,
    favoriteOnly: query.favorite,
    perpage: query.perpage,
    page: query.page,
  };
  if (query.folder !== undefined) {
    if (!FOLDER_ID.accepts(query.folder)) throw notFound(FOLDER_ID.notFound);
    const { nextCursor, ...page } = await folderPage(user.id, query.folder, {
      ...options,
      cursor: query.cursor,
      searchQuery: query.searchQuery?.trim(),
    });
    return json(200, page, { headers: nextCursor ? { 'x-next-cursor': nextCursor } : {} });
  }
  const searchQuery = query.searchQuery?.trim();
  if (searchQuery) {
    if (query.cursor !== undefined) throw invalid('cursor cannot be combined with searchQuery');
    const found = await searchFiles(user.id, { ...options, field: query.searchField, query: searchQuery });
    return json(200, {
      page: found.files.map((file) => toFileResource(file)),
      total: found.total,
      pages: Math.ceil(found.total / options.perpage),
      search: { field: query.searchField, query: searchQuery },
    });
  }
  const result = await listFiles(user.id, { ...options, cursor: query.cursor });
  return json(
    200,
    {
      page: result.files.map((file) => toFileResource(file)),
      total: result.total,
      pages: Math.ceil(result.total / options.perpage),
    },
    { headers: result.nextCursor ? { 'x-next-cursor': result.nextCursor } : {} },
  );
});
