import { megabytes } from '../gateway/classify/classify.ts';
import { WILL_RETRY } from '../gateway/classify/retry-wording.ts';
import { LibraryWriteError } from '../library/write-error.ts';

/** What a gateway's answers may cost at most: bytes per file, waiting per read, pixels. */
export interface DownloadLimits {
  /** Most bytes one image download may bring; more fails as 'too-large', not retried. */
  maxImageBytes: number;
  /** The same for a video. */
  maxVideoBytes: number;
  /** Longest wait for the next bytes of a body; longer fails as 'stalled', retried. */
  idleMs: number;
  /** Most pixels an image's header may claim; more is not an image Atelier can use. */
  maxImagePixels: number;
}

/**
 * 100 MB holds any image a gateway makes (a 4096×4096 PNG is 20–50 MB), 2 GB a long video;
 * 30 s without a byte is a stalled connection, not a slow one. 100 megapixels is 10000×10000,
 * beyond any model's output, while a header claiming more makes any decoder (thumbnails, the
 * gallery) allocate gigabytes.
 */
export const DEFAULT_DOWNLOAD_LIMITS: DownloadLimits = {
  maxImageBytes: 100 * 2 ** 20,
  maxVideoBytes: 2 * 2 ** 30,
  idleMs: 30_000,
  maxImagePixels: 100_000_000,
};

/** The engine's options as limits, defaults where not given. */
export function downloadLimitsOf(options: {
  maxImageBytes?: number | undefined;
  maxVideoBytes?: number | undefined;
  downloadIdleMs?: number | undefined;
  maxImagePixels?: number | undefined;
}): DownloadLimits {
  const defaults = DEFAULT_DOWNLOAD_LIMITS;
  return {
    maxImageBytes: options.maxImageBytes ?? defaults.maxImageBytes,
    maxVideoBytes: options.maxVideoBytes ?? defaults.maxVideoBytes,
    idleMs: options.downloadIdleMs ?? defaults.idleMs,
    maxImagePixels: options.maxImagePixels ?? defaults.maxImagePixels,
  };
}

export type DownloadKind = 'image' | 'video';

/** The flag that raises each cap, for the message that says how. */
const RAISE_WITH: Record<DownloadKind, string> = {
  image: '--max-image-mb',
  video: '--max-video-mb',
};

/**
 * More than the cap, announced or arrived: final, since the same link brings the same bytes.
 * The person may raise the cap and retry the downloads.
 */
export function tooLarge(
  kind: DownloadKind,
  limitBytes: number,
  announcedBytes: number | null,
): LibraryWriteError {
  const size =
    announcedBytes === null
      ? `The ${kind} is larger than the ${megabytes(limitBytes)} limit for one ${kind}, so the download was stopped there`
      : `The link announces ${megabytes(announcedBytes)} for this ${kind}, larger than the ${megabytes(limitBytes)} limit for one ${kind}, so it was not downloaded`;
  return new LibraryWriteError(
    'too-large',
    `${size}. Atelier does not retry it: if the ${kind} really is that large, raise the limit ` +
      `(${RAISE_WITH[kind]}) and retry the downloads.`,
  );
}

/** No data for `idleMs` after `received` bytes: the download stalled (retried). */
export function stalled(idleMs: number, received: number): LibraryWriteError {
  const wait = idleMs < 1000 ? `${idleMs} ms` : `${Math.round(idleMs / 100) / 10} s`;
  return new LibraryWriteError(
    'stalled',
    `No data arrived for ${wait} (after ${received} bytes): the download stalled; ${WILL_RETRY}.`,
  );
}

/**
 * The body of a download, held to its limits: past `maxBytes` it fails as 'too-large', and
 * after `idleMs` without data as 'stalled'; either way the body is canceled, which releases
 * the connection. A body that never ends, or never sends, costs a bounded disk and time.
 */
export function limitBody(
  body: ReadableStream<Uint8Array>,
  limits: { kind: DownloadKind; maxBytes: number; idleMs: number },
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let received = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: NodeJS.Timeout | undefined;
      const idle = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(stalled(limits.idleMs, received)), limits.idleMs);
        timer.unref();
      });
      try {
        const { done, value } = await Promise.race([reader.read(), idle]);
        if (done) return controller.close();
        received += value.byteLength;
        if (received > limits.maxBytes) throw tooLarge(limits.kind, limits.maxBytes, null);
        controller.enqueue(value);
      } catch (error) {
        reader.cancel(error).catch(() => {});
        controller.error(error);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
