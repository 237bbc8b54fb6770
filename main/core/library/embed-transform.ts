import { Transform, type TransformCallback } from 'node:stream';
import {
  detectImageFormat,
  FORMAT_MAGIC_BYTES,
  mayStartImage,
  type ImageFormat,
} from './image-format.ts';
import type { ImageMetadata } from './metadata.ts';
import { TAIL_BYTES, type EmbedPlan, type EmbedPlanner } from './embed-plan.ts';
import { planPngEmbed } from './png-chunks.ts';
import { planJpegEmbed } from './jpeg-segments.ts';
import { planWebpEmbed } from './webp-chunks.ts';
import { LibraryWriteError } from './write-error.ts';

const PLANNERS: Record<ImageFormat, EmbedPlanner> = {
  png: planPngEmbed,
  jpeg: planJpegEmbed,
  webp: planWebpEmbed,
};

/** Leading JPEG APPn segments are at most 64 KB each; more than this is not an image header. */
const MAX_PREFIX_BYTES = 512 * 1024;

export interface EmbedTransformOptions {
  metadata: ImageMetadata;
  /** The format the target expects; null accepts any of ours. */
  expectedFormat: ImageFormat | null;
  /** The source length announced beforehand (Content-Length), when known. */
  expectedSourceBytes?: number;
  /** Most pixels (width × height) a header may claim; more fails as 'too-many-pixels'. */
  maxPixels?: number;
}

/** What the transform learnt about the source, readable once it has finished. */
export interface EmbedStats {
  format: ImageFormat | null;
  sourceBytes: number;
  /** From the image header; 0 until it has been read. */
  width: number;
  height: number;
}

/** The embedding as plain calls: bytes in, bytes out, synchronously. */
export interface Embedder {
  /** Takes the next chunk of the source; returns what may be written so far. */
  write(chunk: Buffer): Buffer[];
  /** The source has ended: returns the rest, or throws when the image is incomplete. */
  end(): Buffer[];
  stats: EmbedStats;
}

/**
 * Embeds the metadata into image bytes as they come, holding back only the header (up to the
 * insertion point), and fails with a LibraryWriteError when the source is not the expected
 * format or ends before the image does.
 */
export function createEmbedder(options: EmbedTransformOptions): Embedder {
  const stats: EmbedStats = { format: null, sourceBytes: 0, width: 0, height: 0 };
  // The header collected so far; joined only once it is long enough for the next step, so
  // tiny chunks do not make the copying quadratic.
  let pending: Buffer[] | null = [];
  let pendingBytes = 0;
  let needBytes = FORMAT_MAGIC_BYTES;
  let plan: EmbedPlan | null = null;
  let tail: Buffer<ArrayBufferLike> = Buffer.alloc(0);

  return {
    stats,
    write(chunk) {
      stats.sourceBytes += chunk.length;
      tail = keepTail(tail, chunk);
      if (pending === null) return [chunk];
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes < needBytes) return [];
      const prefix = Buffer.concat(pending);
      pending = [prefix];
      stats.format ??= checkFormat(prefix, options.expectedFormat);
      const answer = PLANNERS[stats.format](prefix, options.metadata);
      if ('needBytes' in answer) {
        needBytes = answer.needBytes;
        if (needBytes > MAX_PREFIX_BYTES) {
          throw new LibraryWriteError('corrupt', 'The image header is implausibly long.');
        }
        return [];
      }
      checkPixels(answer, stats.format, options.maxPixels);
      plan = answer;
      stats.width = plan.width;
      stats.height = plan.height;
      pending = null;
      const rest = prefix.subarray(plan.consumed);
      return rest.length > 0 ? [plan.head, rest] : [plan.head];
    },
    end() {
      checkEnd(plan, pending && Buffer.concat(pending), stats, tail, options);
      return plan.trailer.length > 0 ? [plan.trailer] : [];
    },
  };
}

/** createEmbedder as a stream Transform, for sources that arrive in chunks. */
export function createEmbedTransform(options: EmbedTransformOptions): {
  transform: Transform;
  stats: EmbedStats;
} {
  const embedder = createEmbedder(options);
  const pass = (stream: Transform, run: () => Buffer[], callback: TransformCallback) => {
    try {
      for (const piece of run()) stream.push(piece);
      callback();
    } catch (error) {
      callback(error as Error);
    }
  };
  const transform = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      pass(this, () => embedder.write(chunk), callback);
    },
    flush(callback: TransformCallback) {
      pass(this, () => embedder.end(), callback);
    },
  });
  return { transform, stats: embedder.stats };
}

function keepTail(tail: Buffer, chunk: Buffer): Buffer {
  if (chunk.length >= TAIL_BYTES) return Buffer.from(chunk.subarray(chunk.length - TAIL_BYTES));
  const joined = Buffer.concat([tail, chunk]);
  return joined.subarray(Math.max(0, joined.length - TAIL_BYTES));
}

function checkFormat(head: Buffer, expected: ImageFormat | null): ImageFormat {
  const detected = detectImageFormat(head);
  if (detected === null) {
    throw new LibraryWriteError(
      'wrong-format',
      `It is not a PNG, JPEG or WebP image (it starts with ${describeStart(head)}): ` +
        'the gateway may have sent an error page or a text instead.',
    );
  }
  if (expected !== null && detected !== expected) {
    throw new LibraryWriteError(
      'wrong-format',
      `Expected a ${expected.toUpperCase()} image but received a ${detected.toUpperCase()}.`,
      { detectedFormat: detected },
    );
  }
  return detected;
}

/** Checked at the header, before the rest is read: a claim no decoder could honour. */
function checkPixels(
  header: { width: number; height: number },
  format: ImageFormat,
  maxPixels: number | undefined,
): void {
  const pixels = header.width * header.height;
  if (maxPixels === undefined || pixels <= maxPixels) return;
  throw new LibraryWriteError(
    'too-many-pixels',
    `Its ${format.toUpperCase()} header claims ${header.width}x${header.height} pixels ` +
      `(${megapixels(pixels)} megapixels), more than the ${megapixels(maxPixels)}-megapixel limit.`,
  );
}

function megapixels(pixels: number): string {
  return String(Math.round((pixels / 1e6) * 10) / 10);
}

function describeStart(head: Buffer): string {
  const start = head.subarray(0, 32);
  const printable = /^[\x20-\x7e\t\r\n]*$/.test(start.toString('latin1'));
  return printable ? JSON.stringify(start.toString('latin1')) : `bytes ${start.toString('hex')}`;
}

/** Everything that must hold once the source has ended. */
function checkEnd(
  plan: EmbedPlan | null,
  prefix: Buffer | null,
  stats: EmbedStats,
  tail: Buffer,
  options: EmbedTransformOptions,
): asserts plan is EmbedPlan {
  const received = stats.sourceBytes;
  if (received === 0) throw new LibraryWriteError('truncated', 'The download was empty.');
  if (plan === null) {
    if (stats.format === null && prefix !== null) {
      // Too short to tell: a fragment of an image, or a short error text.
      if (!mayStartImage(prefix)) checkFormat(prefix, options.expectedFormat);
    }
    throw new LibraryWriteError(
      'truncated',
      `The download ended after ${received} bytes, before the image header was complete.`,
    );
  }
  const expected = options.expectedSourceBytes;
  if (expected !== undefined && received < expected) {
    throw new LibraryWriteError(
      'truncated',
      `The download ended after ${received} of ${expected} bytes; retry the download.`,
    );
  }
  if (expected !== undefined && received > expected) {
    throw new LibraryWriteError(
      'corrupt',
      `The download sent ${received} bytes, more than the ${expected} announced.`,
    );
  }
  const declared = plan.declaredSourceBytes;
  if (declared !== undefined && received < declared) {
    throw new LibraryWriteError(
      'truncated',
      `The image ended after ${received} of the ${declared} bytes its header declares.`,
    );
  }
  if (declared !== undefined && received > declared) {
    throw new LibraryWriteError(
      'corrupt',
      `The image has ${received - declared} unexpected bytes after its end.`,
    );
  }
  if (plan.isComplete && !plan.isComplete(tail)) {
    throw new LibraryWriteError(
      'truncated',
      `The image data ends after ${received} bytes without its end marker; it was cut short.`,
    );
  }
}
