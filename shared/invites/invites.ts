import { randomInt, randomUUID } from 'node:crypto';
import { getItem } from '#shared/db/client';
import { isConditionFailure } from '#shared/db/expressions/conditions';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { INVITES_PARTITION, inviteKey } from '#shared/db/keys/instance';
import { deleteItem, putItem, queryPages, updateIn } from '#shared/db/table-calls';
import type { TransactItem } from '#shared/db/transact';
import { notFound } from '#shared/errors';

/**
 * Invites (issue 38), as Zipline 4.4's: a code that lets one register while registration is closed,
 * up to `maxUses` times (null: no limit) until `expiresAt` (null: never). The inviter is kept as it
 * was when the invite was made.
 */
export interface Invite {
  id: string;
  code: string;
  uses: number;
  maxUses: number | null;
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
  inviterId: string;
  inviter: { id: string; username: string; role: string };
}

export const INVITE_NOT_FOUND = 'invite not found';
/** Every refused code reads the same: unknown, expired and used up are not told apart. */
export const INVITE_REFUSED = 'this invite is not valid: it may have expired or been used up';

/** Letters and digits without look-alikes (0/O, 1/l/I). */
const CODE_ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const newCode = (length: number) =>
  Array.from({ length }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');

const inviteOf = (item: Record<string, unknown>): Invite => {
  const { pk: _pk, sk: _sk, ...invite } = item;
  return invite as unknown as Invite;
};

export interface NewInvite {
  inviter: Invite['inviter'];
  codeLength: number;
  maxUses: number | null;
  expiresAt: string | null;
}

/** A new invite; its code is claimed by a conditional put (a collision draws another). */
export async function createInvite(input: NewInvite): Promise<Invite> {
  const now = new Date().toISOString();
  for (let attempt = 0; ; attempt++) {
    const invite: Invite = {
      id: randomUUID(),
      code: newCode(input.codeLength),
      uses: 0,
      maxUses: input.maxUses,
      expiresAt: input.expiresAt,
      createdAt: now,
      updatedAt: now,
      inviterId: input.inviter.id,
      inviter: input.inviter,
    };
    try {
      await putItem(
        { ...inviteKey(invite.code), ...invite },
        { ConditionExpression: 'attribute_not_exists(pk)' },
      );
      return invite;
    } catch (error) {
      if (!isConditionFailure(error) || attempt >= 3) throw error;
    }
  }
}

/** Every invite, newest first. */
export async function listInvites(): Promise<Invite[]> {
  const invites: Invite[] = [];
  const pages = queryPages({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': INVITES_PARTITION },
    ConsistentRead: true,
  });
  for await (const page of pages) invites.push(...(page.Items ?? []).map(inviteOf));
  return invites.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** An invite by its id or its code (Zipline's route takes either); 404 when none. */
export async function findInvite(idOrCode: string): Promise<Invite> {
  const byCode = await getItem(inviteKey(idOrCode), { consistent: true });
  const invite = byCode ? inviteOf(byCode) : (await listInvites()).find((each) => each.id === idOrCode);
  if (!invite) throw notFound(INVITE_NOT_FOUND);
  return invite;
}

export async function deleteInvite(idOrCode: string): Promise<Invite> {
  const invite = await findInvite(idOrCode);
  await deleteItem(inviteKey(invite.code));
  return invite;
}

/** Whether a code opens registration now (a cheap refusal before bcrypt; the use itself decides). */
export async function isUsable(code: string, now = new Date()): Promise<boolean> {
  const item = await getItem(inviteKey(code));
  if (!item) return false;
  const invite = inviteOf(item);
  const fresh = invite.expiresAt === null || invite.expiresAt > now.toISOString();
  return fresh && (invite.maxUses === null || invite.uses < invite.maxUses);
}

/**
 * One use of an invite, as an item of the new user's transaction: counted only if the invite exists,
 * has not expired and has a use left, so of any number of concurrent registrations with one code
 * exactly `maxUses` get an account, and one refused for its username uses nothing.
 */
export function inviteUse(code: string, now = new Date()): TransactItem {
  const at = now.toISOString();
  const update = new UpdateBuilder().add('uses', 1).set('updatedAt', at);
  const [expiresAt, maxUses, uses, never] = [
    update.name('expiresAt'),
    update.name('maxUses'),
    update.name('uses'),
    update.value(null),
  ];
  update.when(
    `attribute_exists(pk) AND (${expiresAt} = ${never} OR ${expiresAt} > ${update.value(at)}) AND (${maxUses} = ${never} OR ${uses} < ${maxUses})`,
  );
  return updateIn(inviteKey(code), update.build());
}
