/**
 * What the thumbnail function takes on, in one place for the Lambda function (`make.ts`) and the
 * local runner that runs it in its own process (docs/files.md#thumbnails has the measurements).
 */

/** The longer side of a thumbnail, in pixels. */
export const THUMBNAIL_PIXELS = 320;

/**
 * Larger images are not read (memory and time of one invocation); their files keep `thumbnail: null`.
 * The pixel limit is every decoder's: `IMAGE_MAX_INPUT_PIXELS` (files/images.ts).
 */
export const THUMBNAIL_SOURCE_MAX_BYTES = 50 * 1024 * 1024;

/**
 * Videos (shared/thumbnails/video.ts): ffmpeg looks at the first second only, for its most
 * representative frame, scaled to fit inside this box before the filter holds it, and is killed past
 * the time limit (the function's own is 30 s: room to store the thumbnail after).
 */
export const THUMBNAIL_VIDEO_SECONDS = 1;
export const THUMBNAIL_VIDEO_FRAME_PIXELS = 640;
export const THUMBNAIL_VIDEO_TIME_LIMIT_MS = 20_000;
