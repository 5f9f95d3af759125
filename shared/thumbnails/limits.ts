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
