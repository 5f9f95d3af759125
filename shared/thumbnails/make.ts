import sharp, { type OutputInfo } from 'sharp';
import { deleteObjects, putObject, readObjectStart } from '#shared/files/bucket/objects';
import { presignDownload } from '#shared/files/bucket/presigned-urls';
import { IMAGE_MAX_INPUT_PIXELS, isDecodedImage } from '#shared/files/images';
import { type ObjectOwner, ownerOfObjectKey, thumbnailObjectKey } from '#shared/files/layout';
import type { Thumbnail } from '#shared/files/model';
import { getFile } from '#shared/files/record/store';
import { recordThumbnail } from '#shared/files/record/thumbnail';
import { uploadReads } from '#shared/files/reservation/pending';
import { THUMBNAIL_PIXELS, THUMBNAIL_SOURCE_MAX_BYTES } from '#shared/thumbnails/limits';
import { firstFrame, videoDemuxerOf } from '#shared/thumbnails/video';
import { FILE_ID } from '#shared/validation/ids';

/** The object exists but its file is not recorded yet (the bytes are stored before the metadata). */
export class FileNotRecordedYet extends Error {
  constructor(key: string) {
    super(`no file records ${key} yet`);
    this.name = 'FileNotRecordedYet';
  }
}

export type ThumbnailOutcome =
  | { made: Thumbnail }
  | { skipped: 'not a file' | 'not yet a file' | 'not an image or video' | 'too large' | 'file gone' }
  | { failed: string };

/**
 * Whether an S3 event on this object says its bytes are a file's now (or are about to be, the
 * metadata being written right after): the object's creation, except for a presigned upload, whose
 * object the client creates, maybe an hour before the completion (or never); its completion retags
 * the object (`ObjectTagging:Put`), and that is its event.
 */
const announcesFile = (owner: ObjectOwner, eventName: string) =>
  'upload' in owner && owner.upload === 'presigned'
    ? eventName === 'ObjectTagging:Put'
    : eventName.startsWith('ObjectCreated:');

/**
 * The id of the file whose bytes are at this object, once it is recorded: a direct upload's key
 * names it; an upload's completion records it beside the file. While an upload is still pending,
 * its completion is under way (`announcesFile`): `FileNotRecordedYet`. Undefined when no file will be.
 */
async function fileIdOf(owner: ObjectOwner, objectKey: string): Promise<string | undefined> {
  if (!('upload' in owner)) return FILE_ID.accepts(owner.fileId) ? owner.fileId : undefined;
  const upload = uploadReads(owner.userId, owner.uploadId);
  const done = await upload.done();
  if (done) return done.fileId;
  if (await upload.pending()) throw new FileNotRecordedYet(objectKey);
  // The completion consumes the upload and records its file in one transaction, which may have
  // committed between the two reads. Still nothing: released (size mismatch, name taken),
  // reclaimed, or completed by a version that kept no record.
  return (await upload.done())?.fileId;
}

/**
 * Makes the WebP thumbnail of the file whose bytes are stored at `objectKey`, on the S3 event that
 * says they are a file's (`announcesFile`: every upload path's, whichever it was): decoded with sharp
 * (EXIF orientation applied, first frame of an animation; a video's frame from its first second,
 * read by ffmpeg: video.ts), fit inside 320×320 without enlarging,
 * stored at `thumbnailObjectKey`, then recorded on the file. A file not recorded yet throws
 * `FileNotRecordedYet` (the invocation is retried); bytes that do not decode (a video ffmpeg cannot
 * read included) are a `failed` outcome, never an error, so never retried: the upload stands, its file
 * just has no thumbnail.
 */
export async function makeThumbnail(objectKey: string, eventName: string): Promise<ThumbnailOutcome> {
  const owner = ownerOfObjectKey(objectKey);
  if (!owner) return { skipped: 'not a file' };
  if (!announcesFile(owner, eventName)) return { skipped: 'not yet a file' };
  const fileId = await fileIdOf(owner, objectKey);
  if (fileId === undefined) return { skipped: 'upload' in owner ? 'file gone' : 'not a file' };
  const file = await getFile(owner.userId, fileId, { consistent: true });
  if (!file) {
    // An upload's file was recorded (its completion record says so) and deleted since.
    if ('upload' in owner) return { skipped: 'file gone' };
    if ((await readObjectStart(objectKey, 1).catch(() => undefined)) === undefined)
      return { skipped: 'file gone' };
    throw new FileNotRecordedYet(objectKey);
  }
  if (file.objectKey !== objectKey) return { skipped: 'file gone' };
  const demuxer = videoDemuxerOf(file.type);
  if (!demuxer && !isDecodedImage(file.type)) return { skipped: 'not an image or video' };
  // A video's size does not matter: ffmpeg reads its index and first second by ranges.
  if (file.size === 0 || (!demuxer && file.size > THUMBNAIL_SOURCE_MAX_BYTES))
    return { skipped: 'too large' };

  let webp: { data: Buffer; info: OutputInfo };
  try {
    const bytes = demuxer
      ? await firstFrame(await presignDownload(objectKey, file.type, file.name), demuxer)
      : await readObjectStart(objectKey, file.size);
    webp = await sharp(bytes, { limitInputPixels: IMAGE_MAX_INPUT_PIXELS })
      .rotate()
      .resize(THUMBNAIL_PIXELS, THUMBNAIL_PIXELS, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 70, effort: 4 })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    return { failed: error instanceof Error ? error.message : String(error) };
  }
  const thumbnailKey = thumbnailObjectKey(objectKey);
  await putObject(thumbnailKey, webp.data, 'image/webp');
  const thumbnail = { width: webp.info.width, height: webp.info.height, size: webp.data.length };
  if (await recordThumbnail(owner.userId, fileId, objectKey, thumbnail)) return { made: thumbnail };
  // Deleted (or replaced) while the thumbnail was made: its thumbnail goes too.
  await deleteObjects([thumbnailKey]);
  return { skipped: 'file gone' };
}
