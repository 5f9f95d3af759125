import * as v from 'valibot';
import { strictMessage } from '#shared/validation/text';

/**
 * `DELETE /api/users/{id}`'s optional body: `delete: true` also removes the stored file contents
 * (see docs/users-api.md). Apart from users.ts's schemas, so the deleting function (the largest
 * bundle without bcrypt: S3 and DynamoDB clients both) does not carry the username and password rules.
 */
export const deleteUserSchema = v.strictObject(
  { delete: v.optional(v.boolean('delete must be a boolean')) },
  strictMessage,
);
