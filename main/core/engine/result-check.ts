import type { GatewayFailure, GeneratedImage, Success } from '../../../shared/gateway/outcome.ts';
import type { ImageResult } from '../../../shared/gateway/outcome.ts';
import { classifyFailure } from '../gateway/classify/classify.ts';
import type { GatewayContext } from '../gateway/context.ts';
import { inspectImageHeader } from '../library/verify-image.ts';
import { LibraryWriteError } from '../library/write-error.ts';

/** An answer's images that can be written, each with its bytes decoded once. */
export interface CheckedImages {
  kept: Array<{ image: GeneratedImage; bytes: Buffer | undefined }>;
  /** Why each of the others is no image ("image 2 is not an image Atelier can use (…)"). */
  refused: string[];
}

/**
 * Decodes each base64 image and keeps those whose header makes them images Atelier can write
 * (format, size, pixel limit), before the answer counts as a success; a body broken after its
 * header fails when it is written, as a download that gave no image.
 * Bytes that are no image, but come with a link, keep the link: the download decides.
 */
export function checkImages(images: readonly GeneratedImage[], maxPixels: number): CheckedImages {
  const checked: CheckedImages = { kept: [], refused: [] };
  images.forEach((image, i) => {
    const bytes = image.b64Json ? Buffer.from(image.b64Json, 'base64') : undefined;
    const problem = bytes ? problemOf(bytes, maxPixels) : null;
    if (problem === null) return checked.kept.push({ image, bytes });
    if (image.url) return checked.kept.push({ image, bytes: undefined });
    checked.refused.push(`image ${i + 1} is not an image Atelier can use (${problem})`);
  });
  return checked;
}

function problemOf(bytes: Buffer, maxPixels: number): string | null {
  try {
    inspectImageHeader(bytes, { maxPixels });
    return null;
  } catch (error) {
    if (error instanceof LibraryWriteError) return error.message;
    throw error;
  }
}

/**
 * The answer held no image at all: a failed generation of its own kind, not retried by
 * itself (it may have been charged), with the request id kept for support.
 */
export function notAnImageFailure(
  context: GatewayContext,
  outcome: Success<ImageResult>,
  refused: readonly string[],
): GatewayFailure {
  return classifyFailure(
    {
      kind: 'not-an-image',
      status: outcome.status,
      detail: refused.join('; '),
      requestIds: outcome.requestIds,
    },
    {
      requestIdHeader: context.profile.requestIdHeader,
      maxRetryAfterMs: context.profile.maxRetryAfterMs,
      nowMs: context.now(),
    },
  );
}
