import { unlessConditionFails } from '#shared/db/expressions/conditions';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { uploadKey } from '#shared/db/keys';
import { updateIn, updateItem } from '#shared/db/table-calls';
import type { TransactItem } from '#shared/db/transact';
import { notFound } from '#shared/errors';
import type { FileRecord } from '#shared/files/model';
import { getFile } from '#shared/files/record/store';
import {
  type ChunkProgress,
  getUpload,
  type PendingUpload,
  uploadedFile,
} from '#shared/files/reservation/pending';

/**
 * A chunked upload's session: its pending item, read through `readSession` and written only here
 * (the progress a chunk moves on, the completion's claim), and once completed the file it became.
 * The reservation's own writes (reserve, record, release) stay in `reservation/`; the completion
 * itself is `assembly.ts`'s.
 */

export const unknownUpload = () =>
  notFound('no chunked upload has this x-zipline-p-identifier (never opened, completed, or expired)');

/** The caller's chunked upload of this id, while it is pending. */
export async function readSession(userId: string, uploadId: string): Promise<PendingUpload | undefined> {
  const upload = await getUpload(userId, uploadId);
  return upload?.chunked ? upload : undefined;
}

/** The file a completed chunked upload of `size` bytes became, while it exists. */
export async function completedFile(
  userId: string,
  uploadId: string,
  size: number,
): Promise<FileRecord | undefined> {
  const done = await uploadedFile(userId, uploadId);
  if (done?.size !== size) return undefined;
  return getFile(userId, done.fileId, { consistent: true });
}

/** The one shape of a write to the session's item: an update on its condition. */
const sessionUpdate = (update: UpdateBuilder, condition: string) => ({
  ...update.build(),
  ConditionExpression: condition,
});

/** Writes the session's item on its own; false when the condition does not hold. */
async function writeSession(
  userId: string,
  uploadId: string,
  update: UpdateBuilder,
  condition: string,
): Promise<boolean> {
  const written = await unlessConditionFails(
    updateItem(uploadKey(userId, uploadId), sessionUpdate(update, condition)),
  );
  return written !== undefined;
}

/**
 * The transaction item recording a chunked upload's progress `next` (and its reservation extended to
 * `reservedUntil`), on condition that no other request moved it on from `received` meanwhile.
 */
export function progressUpdate(
  userId: string,
  uploadId: string,
  next: ChunkProgress,
  reservedUntil: string,
  received: number,
): TransactItem {
  const update = new UpdateBuilder().set('chunked', next).set('reservedUntil', reservedUntil);
  const condition = `${update.name('chunked')}.${update.name('received')} = ${update.value(received)}`;
  return updateIn(uploadKey(userId, uploadId), sessionUpdate(update, condition));
}

/**
 * Claims the completion of a chunked upload whose bytes are all in, as `claim` until `until`;
 * false while another claim holds (one that lapsed before `now` does not).
 */
export function claimCompletion(
  userId: string,
  upload: PendingUpload,
  claim: string,
  until: Date,
  now: Date,
): Promise<boolean> {
  const update = new UpdateBuilder()
    .set('completingUntil', until.toISOString())
    .set('completionClaim', claim);
  const [received, completingUntil] = [
    `${update.name('chunked')}.${update.name('received')}`,
    update.name('completingUntil'),
  ];
  const condition = `${received} = ${update.value(upload.size)} AND (attribute_not_exists(${completingUntil}) OR ${completingUntil} < ${update.value(now.toISOString())})`;
  return writeSession(userId, upload.id, update, condition);
}

/** Gives a completion's `claim` back (if it still holds it), so the last chunk sent again tries at once. */
export async function releaseCompletionClaim(userId: string, uploadId: string, claim: string): Promise<void> {
  const update = new UpdateBuilder().remove('completingUntil').remove('completionClaim');
  await writeSession(userId, uploadId, update, `${update.name('completionClaim')} = ${update.value(claim)}`);
}
