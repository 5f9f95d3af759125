/**
 * What the thumbnail function takes on, in one place for the Lambda function (`make.ts`) and the
 * local runner that runs it in its own process (docs/files.md#thumbnails has the measurements).
 */

/** The longer side of a thumbnail, in pixels. */
export const THUMBNAIL_PIXELS = 320;

/** Larger images are not read (memory and time of one invocation); their files keep `thumbnail: null`. */
export const THUMBNAIL_SOURCE_MAX_BYTES = 50 * 1024 * 1024;

/**
 * Decoding stops before it starts past this many pixels (sharp's `limitInputPixels`, checked on the
 * image's header): a small file can claim a huge canvas. 50 megapixels takes a 50 MP phone photo
 * (8160×6120) and an 8K screenshot; decoding the worst such PNG (16-bit RGBA, interlaced, so held
 * whole) took about 480 MB above the process's own, within the function's 1024 MB.
 */
export const THUMBNAIL_MAX_INPUT_PIXELS = 50_000_000;
