import { readFile } from 'node:fs/promises';
import { detectImageFormat, type ImageFormat } from './image-format.ts';
import {
  NEGATIVE_PROMPT_LABEL,
  type EmbeddedJson,
  type ImageMetadata,
  type TextInParameters,
} from './metadata.ts';
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
    metadata = parseXmpMetadata(packet, parameters);
    if (metadata) break;
  }
  return { format, metadata, parameters, xmp };
}

export async function readEmbeddedMetadataFromFile(path: string): Promise<EmbeddedMetadata> {
  return readEmbeddedMetadata(await readFile(path));
}

/**
 * Atelier's metadata from an XMP packet, or null when the packet has none (or a broken one).
 * A PNG's packet may leave its long prompt to the `parameters` text: without that text (or
 * with one that does not match) the prompt is the start the packet holds, marked truncated.
 */
export function parseXmpMetadata(
  xmp: string,
  parameters: string | null = null,
): ImageMetadata | null {
  const match = /<([\w.-]+):metadata>([^<]*)<\/\1:metadata>/.exec(xmp);
  if (!match || !xmp.includes(ATELIER_XMP_NAMESPACE)) return null;
  let json: EmbeddedJson;
  try {
    const parsed = imageMetadataSchema.safeParse(JSON.parse(unescapeXml(match[2] ?? '')));
    if (!parsed.success) return null;
    json = parsed.data as EmbeddedJson;
  } catch {
    return null;
  }
  const { textInParameters, ...metadata } = json;
  if (!textInParameters) return metadata;
  const full = textsFromParameters(metadata, textInParameters, parameters);
  return full ? { ...metadata, ...full } : { ...metadata, truncated: true };
}

/** The prompt and negative prompt whole from the parameters text, if it is the one written. */
function textsFromParameters(
  start: ImageMetadata,
  where: TextInParameters,
  parameters: string | null,
): Pick<ImageMetadata, 'prompt' | 'negativePrompt'> | null {
  if (parameters === null || parameters.length < where.prompt) return null;
  const prompt = parameters.slice(0, where.prompt);
  if (!prompt.startsWith(start.prompt)) return null;
  if (where.negativePrompt === undefined) return { prompt };
  const from = where.prompt + NEGATIVE_PROMPT_LABEL.length;
  if (parameters.slice(where.prompt, from) !== NEGATIVE_PROMPT_LABEL) return null;
  const negativePrompt = parameters.slice(from, from + where.negativePrompt);
  if (negativePrompt.length !== where.negativePrompt) return null;
  if (!negativePrompt.startsWith(start.negativePrompt ?? '')) return null;
  return { prompt, negativePrompt };
}
