import { authenticate } from '#shared/auth/authenticate';
import { invalid, notFound } from '#shared/errors';
import { listTagged } from '#shared/files/listing/by-tag';
import { type ListOptions, listFiles, searchFiles } from '#shared/files/listing/listing';
import { type FileRecord, toFileResource } from '#shared/files/model';
import { withCountedViews } from '#shared/files/serve/popular-views';
import { folderPage } from '#shared/folders/listing';
import { defineHandler } from '#shared/http/handler';
import { validate } from '#shared/http/request';
import { json } from '#shared/http/response';
import { requireTag, tagLookup } from '#shared/tags/store';
import { userWhoseFilesToList } from '#shared/users/file-owner';
import { listQuerySchema } from '#shared/validation/files/schemas';
import { FOLDER_ID } from '#shared/validation/folders/schemas';
import { USER_ID } from '#shared/validation/ids';
import { readTagQuery } from '#shared/validation/tags/schemas';

/**
 * The caller's files; with `?id=<user id>` (Zipline's), an administrator lists a user it may act on
 * as `/api/users/{id}` allows (anyone else: 404), each file's `url` following that owner's settings.
 * `searchField=tags&searchQuery=<ids>` lists the files having every one of those tags (Zipline's),
 * paged by `page` or the `x-next-cursor` cursor, without a total (docs/tags.md).
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
    cursor: query.cursor,
  };
  const resources = async (files: FileRecord[]) => {
    const [tags, counted] = await Promise.all([tagLookup(user.id, files), withCountedViews(files)]);
    return counted.map((file) => toFileResource(file, tags));
  };
  const next = (cursor: string | undefined): { headers: Record<string, string> } => ({
    headers: cursor ? { 'x-next-cursor': cursor } : {},
  });
  if (query.folder !== undefined) {
    if (!FOLDER_ID.accepts(query.folder)) throw notFound(FOLDER_ID.notFound);
    const { nextCursor, files, ...counts } = await folderPage(user.id, query.folder, {
      ...options,
      cursor: query.cursor,
      searchQuery: query.searchQuery?.trim(),
    });
    return json(200, { page: await resources(files), ...counts }, next(nextCursor));
  }
  const searchQuery = query.searchQuery?.trim();
  const field = query.searchField;
  if (searchQuery && field === 'tags') {
    const tagIds = readTagQuery(searchQuery);
    // Zipline's 400 for a tag that is not the owner's.
    await Promise.all(tagIds.map((id) => requireTag(user.id, id))).catch(() => {
      throw invalid('invalid tag somewhere');
    });
    const found = await listTagged(user.id, tagIds, options);
    return json(
      200,
      { page: await resources(found.files), search: { field: 'tags', query: tagIds } },
      next(found.nextCursor),
    );
  }
  if (searchQuery && field !== 'tags') {
    if (query.cursor !== undefined) throw invalid('cursor cannot be combined with searchQuery');
    const found = await searchFiles(user.id, { ...options, field, query: searchQuery });
    return json(200, {
      page: await resources(found.files),
      total: found.total,
      pages: Math.ceil(found.total / options.perpage),
      search: { field, query: searchQuery },
    });
  }
  const result = await listFiles(user.id, options);
  return json(
    200,
    {
      page: await resources(result.files),
      total: result.total,
      pages: Math.ceil(result.total / options.perpage),
    },
    next(result.nextCursor),
  );
});
