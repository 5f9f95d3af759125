import { createHash } from 'node:crypto';
import { isConditionFailure } from '#shared/db/expressions/conditions';
import { webauthnChallengeKey } from '#shared/db/keys/users';
import { deleteItem, putItem } from '#shared/db/table-calls';

/**
 * WebAuthn challenges, kept server-side: each is stored (by its hash) with what it was issued for
 * and when it expires, and is consumed by a conditional delete that checks both, so it answers at
 * most one ceremony, within its lifetime, and nothing is read first to decide. DynamoDB's TTL
 * (`expiresAt`) removes the ones never answered; the expiry is checked here too because the TTL
 * deletes hours late (and DynamoDB Local never).
 */

/** A registration is tied to the signed-in user who asked for its options; a sign-in to nobody. */
export type ChallengePurpose = { registerFor: string } | 'sign-in';

/** As long as the browser's ceremony may take (the options' `timeout`), and a little more. */
export const CHALLENGE_SECONDS = 300;

const hashOf = (challenge: string) => createHash('sha256').update(challenge).digest('base64url');

const purposeAttributes = (purpose: ChallengePurpose) =>
  purpose === 'sign-in'
    ? { purpose: 'sign-in', userId: '-' }
    : { purpose: 'register', userId: purpose.registerFor };

export async function storeChallenge(challenge: string, purpose: ChallengePurpose): Promise<void> {
  await putItem(
    {
      ...webauthnChallengeKey(hashOf(challenge)),
      ...purposeAttributes(purpose),
      expiresAt: Math.floor(Date.now() / 1000) + CHALLENGE_SECONDS,
    },
    { ConditionExpression: 'attribute_not_exists(pk)' },
  );
}

/**
 * Consumes the challenge: true only when it was issued for this purpose (and user), has not expired
 * and was not consumed before. Consumed even when the ceremony then fails: a challenge is one try.
 */
export async function consumeChallenge(challenge: string, purpose: ChallengePurpose): Promise<boolean> {
  const { purpose: kind, userId } = purposeAttributes(purpose);
  try {
    await deleteItem(webauthnChallengeKey(hashOf(challenge)), {
      ConditionExpression:
        'attribute_exists(pk) AND purpose = :purpose AND userId = :userId AND expiresAt > :now',
      ExpressionAttributeValues: {
        ':purpose': kind,
        ':userId': userId,
        ':now': Math.floor(Date.now() / 1000),
      },
    });
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
