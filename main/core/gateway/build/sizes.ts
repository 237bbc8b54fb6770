import type { ImageModelEntry } from '../../../../shared/gateway/catalogue.ts';

/** Named sizes and aspect ratios the advanced entry accepts besides `WxH` (interface 2.2). */
export const ADVANCED_NAMED_SIZES = [
  'square_hd',
  'landscape_4_3',
  'portrait_4_3',
  'landscape_16_9',
  'portrait_16_9',
] as const;
export const ADVANCED_RATIOS = ['1:1', '16:9', '9:16'] as const;

export type ParsedSize =
  | { form: 'pixels'; width: number; height: number }
  | { form: 'named'; value: string }
  | { problem: string };

const PIXELS = /^(\d+)x(\d+)$/;

/**
 * Reads a size as the person wrote it. Only `WxH` with a lowercase x is sent; near misses
 * (the × sign, a capital X, spaces, W*H) are refused with what to write instead.
 */
export function parseSize(size: string, advanced: boolean): ParsedSize {
  const match = PIXELS.exec(size);
  if (match) {
    const width = Number(match[1]);
    const height = Number(match[2]);
    if (width < 1 || height < 1) return { problem: `Size "${size}" has a zero side.` };
    return { form: 'pixels', width, height };
  }
  if (advanced && (ADVANCED_NAMED_SIZES as readonly string[]).includes(size)) {
    return { form: 'named', value: size };
  }
  if (advanced && (ADVANCED_RATIOS as readonly string[]).includes(size)) {
    return { form: 'named', value: size };
  }
  const suggestion = size.replace(/\s+/g, '').replace(/[×X*]/g, 'x');
  const hint = PIXELS.test(suggestion) ? ` Write it as ${suggestion}.` : '';
  if (size.includes('×')) {
    return {
      problem: `Size "${size}" uses the multiplication sign ×; the gateway only accepts a lowercase x, as in 1024x1024.${hint}`,
    };
  }
  if (/\dX\d/.test(size)) {
    return {
      problem: `Size "${size}" uses a capital X; write a lowercase x, as in 1024x1024.${hint}`,
    };
  }
  if (size.includes('*')) {
    return {
      problem: `Size "${size}" uses an asterisk; write WxH with a lowercase x (Atelier converts it for models that need W*H).${hint}`,
    };
  }
  if (/\s/.test(size) && hint) {
    return { problem: `Size "${size}" contains spaces.${hint}` };
  }
  const more = advanced
    ? `, or on the advanced entry one of ${[...ADVANCED_NAMED_SIZES, ...ADVANCED_RATIOS].join(', ')}`
    : '';
  return {
    problem: `Size "${size}" is not of the form WxH (width x height in pixels, e.g. 1024x1024)${more}.`,
  };
}

/** Whether the model offers this size; a message naming the allowed ones when not. */
export function sizeProblem(
  size: ParsedSize,
  entry: ImageModelEntry,
  original: string,
): string | null {
  if ('problem' in size) return size.problem;
  if (size.form === 'named') {
    return entry.sizes === 'any'
      ? null
      : `Model ${entry.id} only offers the sizes ${entry.sizes.join(', ')}; "${original}" is not one of them.`;
  }
  if (entry.sizes !== 'any') {
    return entry.sizes.includes(original)
      ? null
      : `Model ${entry.id} does not offer size ${original}. Choose one of: ${entry.sizes.join(', ')}.`;
  }
  const { width, height } = size;
  if (
    width < entry.minSide ||
    height < entry.minSide ||
    width > entry.maxSide ||
    height > entry.maxSide
  ) {
    return `Size ${original} is outside what model ${entry.id} makes: each side must be from ${entry.minSide} to ${entry.maxSide} pixels.`;
  }
  return null;
}

/** `WxH` → `W*H` for Qwen-style bodies (interface 2.3). */
export function toQwenSize(size: string): string {
  return size.replace('x', '*');
}
