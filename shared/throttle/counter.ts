import { createHash } from 'node:crypto';
import { config } from '#shared/config/service';
import { isConditionFailure, unlessConditionFails } from '#shared/db/expressions/conditions';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { throttleKey } from '#shared/db/keys/instance';
import { deleteItem, updateItem } from '#shared/db/table-calls';
import { ServiceError } from '#shared/errors';

/** What is being limited, e.g. login attempts for one username. */
export interface Limit {
  scope:
    | 'login-username'
    | 'login-address'
    | 'setup-address'
    | 'token-reset-user'
    | 'file-password'
    | 'file-password-address'
    | 'file-password-throttled-name'
    | 'rename-user'
    | 'link-password'
    | 'register-address'
    | 'folder-upload-address';
  subject: string;
  /** Attempts allowed per window. */
  max: number;
}

/** A counted attempt; the caller can give it back (`refund`) or clear its counter (`reset`). */
export interface Attempt {
  key: { pk: string; sk: string };
}

export const TOO_MANY_ATTEMPTS = 'too many attempts, try again later';

/**
 * Counts an attempt against a limit before the work it guards is done, in one conditional
 * UpdateItem (ADD): of any number of concurrent attempts exactly `max` per window get through, and
 * a refused attempt writes nothing. Refused: 429 with `Retry-After` = seconds until the window ends.
 * The item expires (TTL) after its window; the window in the key, not the TTL, decides.
 */
export async function countAttempt(limit: Limit, now = Date.now()): Promise<Attempt> {
  const windowSeconds = config().throttle.windowSeconds;
  const nowSeconds = Math.floor(now / 1000);
  const windowStart = nowSeconds - (nowSeconds % windowSeconds);
  const windowEnd = windowStart + windowSeconds;
  // Hashed: bounded key size, and no typed-in usernames (or passwords typed as one) stored in the clear.
  const subjectHash = createHash('sha256').update(limit.subject).digest('base64url');
  const key = throttleKey(limit.scope, subjectHash, windowStart);
  try {
    const count = new UpdateBuilder().addUpTo('attempts', 1, limit.max).set('expiresAt', windowEnd);
    await updateItem(key, count.build());
  } catch (error) {
    if (isConditionFailure(error)) {
      throw new ServiceError('rate_limited', TOO_MANY_ATTEMPTS, {
        'retry-after': String(Math.max(1, windowEnd - nowSeconds)),
      });
    }
    throw error;
  }
  return { key };
}

/** Takes a counted attempt back (it turned out not to be abuse, e.g. a successful login). */
export async function refundAttempt(attempt: Attempt): Promise<void> {
  const refund = new UpdateBuilder().add('attempts', -1);
  // Never recreate a counter that has expired meanwhile.
  refund.when(`attribute_exists(${refund.name('attempts')})`);
  await unlessConditionFails(updateItem(attempt.key, refund.build()));
}

/** Clears the counter an attempt was counted on (e.g. a username's failures after a good login). */
export async function resetCounter(attempt: Attempt): Promise<void> {
  await deleteItem(attempt.key);
}
