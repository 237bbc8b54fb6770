import { createHash } from 'node:crypto';
import { createEmbedder, type EmbedTransformOptions } from './embed-transform.ts';
import { checkDimensions, type ImageFacts } from './verify-image.ts';

export interface FinishOptions extends EmbedTransformOptions {
  /** The dimensions requested; a different image fails as 'wrong-size'. */
  expectedSize?: { width: number; height: number } | undefined;
}

export interface FinishedImage extends ImageFacts {
  /** The file's bytes: the source with Atelier's metadata embedded. */
  out: Buffer;
  /** sha256 (hex) of `out`. */
  sha256: string;
  /** Bytes of the source (the gateway's image without our metadata). */
  sourceBytes: number;
}

/**
 * An image already in memory (decoded base64) made into its file's bytes: metadata embedded in
 * one go (the stream machinery costs more than the write itself for small images), the header
 * checked, the result hashed. Throws a LibraryWriteError for a bad image, before any write.
 */
export function finishImageBytes(source: Uint8Array, options: FinishOptions): FinishedImage {
  const embedder = createEmbedder(options);
  const whole = Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  const out = Buffer.concat([...embedder.write(whole), ...embedder.end()]);
  const { stats } = embedder;
  const image: ImageFacts = { format: stats.format!, width: stats.width, height: stats.height };
  checkDimensions(image, options.expectedSize);
  return {
    out,
    sha256: createHash('sha256').update(out).digest('hex'),
    sourceBytes: stats.sourceBytes,
    ...image,
  };
}
