import { avatarChunkKey, userKey } from '#shared/db/keys/users';
import { deleteIn, putIn, queryItems } from '#shared/db/table-calls';
import type { Avatar } from '#shared/users/model';

/**
 * Avatar storage: an avatar is kept as chunk items in its user's partition (`AVATAR#<n>`), written
 * in the transaction that creates or changes the user, so a failed change leaves the old one.
 */

/** An avatar (≤ 1 MiB) is split over at most this many items, each well inside DynamoDB's 400 KB. */
export const AVATAR_CHUNK_BYTES = 350_000;
export const MAX_AVATAR_BYTES = 1024 * 1024;
const AVATAR_CHUNKS = Math.ceil(MAX_AVATAR_BYTES / AVATAR_CHUNK_BYTES);

/** The transaction items that replace the user's avatar (null: remove it). */
export function avatarWrites(userId: string, avatar: Avatar | null) {
  const chunks: Buffer[] = [];
  for (let offset = 0; avatar && offset < avatar.bytes.length; offset += AVATAR_CHUNK_BYTES) {
    chunks.push(avatar.bytes.subarray(offset, offset + AVATAR_CHUNK_BYTES));
  }
  // Always write every slot: new chunks replace old ones and leftover old chunks are deleted.
  return Array.from({ length: AVATAR_CHUNKS }, (_, index) => {
    const chunk = chunks[index];
    return chunk
      ? putIn({ ...avatarChunkKey(userId, index), data: chunk, chunks: chunks.length, mime: avatar?.mime })
      : deleteIn(avatarChunkKey(userId, index));
  });
}

export async function getAvatar(userId: string): Promise<Avatar | undefined> {
  const result = await queryItems({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': userKey(userId).pk, ':prefix': 'AVATAR#' },
  });
  const items = (result.Items ?? []).sort((a, b) => String(a.sk).localeCompare(String(b.sk)));
  const first = items[0];
  if (!first || items.length !== first.chunks) return undefined;
  return {
    mime: String(first.mime),
    bytes: Buffer.concat(items.map((item) => Buffer.from(item.data as Uint8Array))),
  };
}
