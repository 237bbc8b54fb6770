/** What Atelier embeds in every image it writes, and reads back from it. */
export interface ImageMetadata {
  prompt: string;
  negativePrompt?: string | null;
  model: string;
  /** As requested, e.g. "1024x1024". */
  size: string;
  seed?: number | null;
  /** Position of the image in its job's result (0-based). */
  index: number;
  /** The batch's name or id. */
  batch: string;
  requestId?: string | null;
  /** The request's other parameters (quality, extra...), as sent. */
  parameters?: Record<string, unknown>;
  /** ISO 8601. */
  createdAt: string;
  /** Always "Atelier" when written by Atelier. */
  software?: string;
  /** Set when the prompt had to be shortened to fit the format (JPEG XMP is at most 64 KB). */
  truncated?: boolean;
}

export const SOFTWARE_NAME = 'Atelier';

/**
 * Where a PNG's XMP JSON copy finds its full prompt and negative prompt when it holds only
 * their start: the "parameters" chunk, which begins with the prompt (`prompt` UTF-16 units),
 * followed by "\nNegative prompt: " and the negative prompt (`negativePrompt` units) if any.
 * So a long prompt is written at full length once, not in both chunks.
 */
export interface TextInParameters {
  prompt: number;
  negativePrompt?: number;
}

/** The JSON copy as embedded in the XMP packet. */
export type EmbeddedJson = ImageMetadata & { textInParameters?: TextInParameters };

/** The label a1111Parameters puts before the negative prompt. */
export const NEGATIVE_PROMPT_LABEL = '\nNegative prompt: ';

/** A prompt longer than this is shown cut in the XMP description and in a PNG's JSON copy. */
export const PROMPT_PREVIEW_CHARS = 200;

/** The first `length` UTF-16 units of `text`, never splitting a surrogate pair. */
export function cutAt(text: string, length: number): string {
  if (length <= 0) return '';
  if (length >= text.length) return text;
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/** The prompt as the XMP description shows it: whole, or its start and "…". */
export function promptPreview(prompt: string): string {
  return prompt.length <= PROMPT_PREVIEW_CHARS ? prompt : `${cutAt(prompt, PROMPT_PREVIEW_CHARS)}…`;
}

/** The metadata as embedded: software stamped, absent optionals left out. */
export function withSoftware(metadata: ImageMetadata): ImageMetadata {
  return { ...metadata, software: SOFTWARE_NAME };
}

/**
 * The A1111 "parameters" text many image tools read from PNGs:
 * the prompt, a "Negative prompt:" line, then "Key: value" pairs on one line.
 */
export function a1111Parameters(metadata: ImageMetadata): string {
  // Built by concatenation rather than arrays and joins: this runs for every PNG written.
  let text = metadata.prompt;
  if (metadata.negativePrompt) text += `${NEGATIVE_PROMPT_LABEL}${metadata.negativePrompt}`;
  text += '\n';
  if (metadata.seed !== undefined && metadata.seed !== null) text += `Seed: ${metadata.seed}, `;
  text += `Size: ${metadata.size}, Model: ${oneLine(metadata.model)}`;
  const parameters = metadata.parameters ?? {};
  for (const key of Object.keys(parameters)) {
    const value = parameters[key];
    if (value === undefined || value === null) continue;
    const valueText = typeof value === 'string' ? value : JSON.stringify(value);
    text += `, ${oneLine(key)}: ${oneLine(valueText)}`;
  }
  return `${text}, Software: ${SOFTWARE_NAME}`;
}

/** Line breaks folded into spaces; most values have none, so test before replacing. */
function oneLine(text: string): string {
  return text.includes('\n') || text.includes('\r') ? text.replace(/[\r\n]+/g, ' ') : text;
}
