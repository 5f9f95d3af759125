import * as v from 'valibot';
import { strictMessage } from '#shared/validation/text';

/** Zipline 4.4's bounds of `GET /api/user/recent?take=`: 1 to 100, 3 when absent. */
export const RECENT_TAKE = { default: 3, max: 100 } as const;

const TAKE_MESSAGE = `take must be an integer from 1 to ${RECENT_TAKE.max}`;

/** `GET /api/user/recent` query (strings, as API Gateway passes them); other parameters ignored. */
export const recentQuerySchema = v.object({
  take: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, TAKE_MESSAGE),
      v.transform(Number),
      v.minValue(1, TAKE_MESSAGE),
      v.maxValue(RECENT_TAKE.max, TAKE_MESSAGE),
    ),
    String(RECENT_TAKE.default),
  ),
});

/** A session's id as `GET /api/user/sessions` lists it (newSessionId: 20 random bytes, base64url). */
const SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * `DELETE /api/user/sessions` (Zipline's body): `all: true` ends every session but the caller's,
 * else `sessionId` names the one to end.
 */
export const endSessionsSchema = v.pipe(
  v.strictObject(
    {
      sessionId: v.optional(
        v.pipe(v.string('sessionId must be a string'), v.regex(SESSION_ID, 'sessionId must be a session id')),
      ),
      all: v.optional(v.boolean('all must be a boolean')),
    },
    strictMessage,
  ),
  v.check(
    (body) => body.all === true || body.sessionId !== undefined,
    'give sessionId (the session to end) or all: true (every session but this one)',
  ),
);
