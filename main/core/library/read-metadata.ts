import { readFile } from 'node:fs/promises';
import { detectImageFormat, type ImageFormat } from './image-format.ts';
import type { ImageMetadata } from './metadata.ts';
import { PNG_XMP_KEYWORD, readPngTextChunks } from './png-chunks.ts';
import { readJpegXmpPackets } from './jpeg-segments.ts';
import { readWebpXmpPackets } from './webp-chunks.ts';
import { imageMetadataSchema } from './metadata-schema.ts';
import { ATELIER_XMP_NAMESPACE, unescapeXml } from './xmp.ts';

export interface EmbeddedMetadata {
  format: ImageFormat | null;
  /** Atelier's metadata, when the file carries it. */
  metadata: ImageMetadata | null;
  /** A1111-style "parameters" text (PNG), as other tools also write it. */
  parameters: string | null;
  /** Every XMP packet found, in file order. */
  xmp: string[];
}

/** Reads the metadata embedded in a PNG, JPEG or WebP file's bytes. Never throws on bad input. */
export function readEmbeddedMetadata(file: Buffer): EmbeddedMetadata {
  const format = detectImageFormat(file);
  let xmp: string[] = [];
  let parameters: string | null = null;
  if (format === 'png') {
    const texts = readPngTextChunks(file);
    xmp = texts.filter((entry) => entry.keyword === PNG_XMP_KEYWORD).map((entry) => entry.text);
    parameters = texts.find((entry) => entry.keyword === 'parameters')?.text ?? null;
  } else if (format === 'jpeg') {
    xmp = readJpegXmpPackets(file);
  } else if (format === 'webp') {
    xmp = readWebpXmpPackets(file);
  }
  let metadata: ImageMetadata | null = null;
  for (const packet of xmp) {
    metadata = parseXmpMetadata(packet);
    if (metadata) break;
  }
  return { format, metadata, parameters, xmp };
}

export async function readEmbeddedMetadataFromFile(path: string): Promise<EmbeddedMetadata> {
  return readEmbeddedMetadata(await readFile(path));
}

/** Atelier's metadata from an XMP packet, or null when the packet has none (or a broken one). */
export function parseXmpMetadata(xmp: string): ImageMetadata | null {
  const match = /<([\w.-]+):metadata>([^<]*)<\/\1:metadata>/.exec(xmp);
  if (!match || !xmp.includes(ATELIER_XMP_NAMESPACE)) return null;
  try {
    const parsed = imageMetadataSchema.safeParse(JSON.parse(unescapeXml(match[2] ?? '')));
    return parsed.success ? (parsed.data as ImageMetadata) : null;
  } catch {
    return null;
  }
}
