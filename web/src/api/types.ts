/**
 * The API's resources, straight from the server's own types (type-only imports: nothing of the
 * server is bundled), so the dashboard and the API cannot drift apart.
 */
import type { FileResource, SearchField, SortField } from '../../../shared/files/model.ts';
import type { Quota, Role, UserResource, ViewSettings } from '../../../shared/users/model.ts';

export type { FileResource, Quota, Role, SearchField, SortField, UserResource, ViewSettings };

/** `GET /api/user`, `PATCH /api/user`. */
export interface CurrentUser {
  user: UserResource;
  token: string;
}

/** `GET /api/user/files`: a listing, or a search (which has no total). */
export interface FileListing {
  page: FileResource[];
  total?: number;
  pages?: number;
  search?: { field: SearchField; query: string };
}

/** `POST /api/upload` and `POST /api/user/files/uploads/{id}/complete`. */
export interface UploadResult {
  files: { id: string; name: string; type: string; url: string }[];
}

/** `POST /api/user/files/uploads`. */
export interface PresignedUpload {
  id: string;
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
  expiresAt: string;
}

export const ROLES_BELOW: Record<Role, Role[]> = {
  SUPERADMIN: ['ADMIN', 'USER'],
  ADMIN: ['USER'],
  USER: [],
};
