import type { ImageMetadata } from './metadata.ts';

/**
 * How one format's metadata goes into a stream of image bytes: the first `consumed` bytes of
 * the source are replaced by `head`, the rest passes through, and `trailer` follows the end.
 * Planners see only a short prefix, so the image itself is never buffered whole.
 */
export interface EmbedPlan {
  consumed: number;
  head: Buffer;
  trailer: Buffer;
  /** Dimensions read from the header (PNG IHDR, JPEG SOFn, WebP canvas). */
  width: number;
  height: number;
  /** The source length the header declares, when the format has one (WebP's RIFF size). */
  declaredSourceBytes?: number;
  /** Whether the last bytes of the source close the image (PNG IEND, JPEG EOI). */
  isComplete?: (tail: Buffer) => boolean;
}

/** Bytes of the source's end kept for `isComplete`. */
export const TAIL_BYTES = 64;

/** A planner's answer when the prefix is too short: how many bytes it needs at least. */
export interface NeedMoreBytes {
  needBytes: number;
}

export type EmbedPlanner = (prefix: Buffer, metadata: ImageMetadata) => EmbedPlan | NeedMoreBytes;
