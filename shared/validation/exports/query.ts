import { invalid, notFound } from '#shared/errors';
import { isExportId } from '#shared/exports/model';
import { EXPORT_NOT_FOUND } from '#shared/exports/store';

/**
 * Zipline's `?id=` of the export routes. A value that cannot be an export id names nothing (404,
 * before anything reads storage with it); `required` (DELETE) refuses its absence with a 400.
 */
export function exportIdOf(query: Record<string, string>, required: boolean): string | undefined {
  const id = query.id;
  if (id === undefined || id === '') {
    if (required) throw invalid('id is required: the export to delete');
    return undefined;
  }
  if (!isExportId(id)) throw notFound(EXPORT_NOT_FOUND);
  return id;
}
