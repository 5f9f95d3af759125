import { UpdateBuilder } from '#shared/db/expressions/update';
import { TOTP_STATE_ATTRIBUTES, type UserRecord } from '#shared/users/model';
import { tryUpdateUserItem } from '#shared/users/store';

/**
 * The TOTP attributes of the user item, each write one conditional UpdateItem: no read-then-write,
 * so of two requests presenting the same code, or the same recovery code, exactly one succeeds.
 */

/** What a request proves it holds: a code of a time step, or a recovery code (by its hash). */
export type SecondFactorProof = { kind: 'code'; step: number } | { kind: 'recovery'; hash: string };

/**
 * The condition that the proof is still good against the user item as it is now: TOTP still on with
 * the very secret the code was checked against, and the code's step later than any step accepted
 * before (a replay, or an older code, fails) or the recovery code still unused.
 */
function proofCondition(update: UpdateBuilder, sealedSecret: string, proof: SecondFactorProof): string {
  const parts = [
    `attribute_not_exists(${update.name('deletingAt')})`,
    `${update.name('totpSecret')} = ${update.value(sealedSecret)}`,
  ];
  if (proof.kind === 'code') {
    const lastStep = update.name('totpLastStep');
    parts.push(`(attribute_not_exists(${lastStep}) OR ${lastStep} < ${update.value(proof.step)})`);
  } else {
    parts.push(`attribute_exists(${update.ref(['totpRecovery', proof.hash])})`);
  }
  return parts.join(' AND ');
}

export interface Enrolment {
  sealedSecret: string;
  /** Hash → 1 for each recovery code. */
  recoveryHashes: Record<string, number>;
  /** The step of the code that confirmed the enrolment: it is used up. */
  step: number | undefined;
  /** The enrolment count the offered secret was derived from; the write requires it unchanged. */
  enrolments: number;
}

/** Turns TOTP on, while it is off and no other enrolment happened since the offer; undefined otherwise. */
export async function writeEnrolment(userId: string, enrolment: Enrolment): Promise<UserRecord | undefined> {
  const update = new UpdateBuilder()
    .set('totpSecret', enrolment.sealedSecret)
    .set('totpRecovery', enrolment.recoveryHashes)
    .set('totpEnrolments', enrolment.enrolments + 1)
    .set('updatedAt', new Date().toISOString());
  if (enrolment.step !== undefined) update.set('totpLastStep', enrolment.step);
  const secret = update.name('totpSecret');
  const count = update.name('totpEnrolments');
  const condition = [
    `attribute_exists(${update.name('pk')})`,
    `attribute_not_exists(${update.name('deletingAt')})`,
    // Users created before TOTP existed hold `totpSecret: null`.
    `(attribute_not_exists(${secret}) OR attribute_type(${secret}, ${update.value('NULL')}))`,
    enrolment.enrolments === 0
      ? `attribute_not_exists(${count})`
      : `${count} = ${update.value(enrolment.enrolments)}`,
  ].join(' AND ');
  return tryUpdateUserItem(userId, update.when(condition));
}

/**
 * Uses up a proof: records the code's step as the last one accepted (and re-seals the secret under
 * the current key when given), or removes the recovery code. False when it was used already.
 */
export async function consumeProof(
  userId: string,
  sealedSecret: string,
  proof: SecondFactorProof,
  resealedSecret?: string,
): Promise<boolean> {
  const update = new UpdateBuilder();
  if (proof.kind === 'code') update.set('totpLastStep', proof.step);
  else update.remove(['totpRecovery', proof.hash]);
  if (resealedSecret !== undefined) update.set('totpSecret', resealedSecret);
  return (
    (await tryUpdateUserItem(userId, update.when(proofCondition(update, sealedSecret, proof)))) !== undefined
  );
}

/** Turns TOTP off with a proof the user gave; undefined when the proof no longer holds. */
export async function removeTotpWithProof(
  userId: string,
  sealedSecret: string,
  proof: SecondFactorProof,
): Promise<UserRecord | undefined> {
  const update = new UpdateBuilder().set('updatedAt', new Date().toISOString());
  for (const attribute of TOTP_STATE_ATTRIBUTES) update.remove(attribute);
  return tryUpdateUserItem(userId, update.when(proofCondition(update, sealedSecret, proof)));
}
