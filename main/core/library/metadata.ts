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
  if (metadata.negativePrompt) text += `\nNegative prompt: ${metadata.negativePrompt}`;
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
