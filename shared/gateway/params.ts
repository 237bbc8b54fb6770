import {
  OUTPUT_FORMATS,
  type ImageModelEntry,
  type ModelEntry,
  type VideoModelEntry,
} from './catalogue.ts';

/**
 * What a model takes, in the words the person reads: the one set of rules that Compose checks
 * as the person types and the service checks before anything is sent (`batches.check`, the
 * CLI's import, the gateway client), so both say the same sentence for the same mistake.
 */

export const SEED_MAX = 4_294_967_295;
/** The advanced entry's own ceiling on n, whatever the model allows (interface 2.2). */
export const ADVANCED_N_MAX = 10;
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

/**
 * Whether a generation goes to the advanced entry: the model's own entry, or a seed for an
 * OpenAI-style model also offered there (only the advanced entry carries one for them).
 */
export function sentAdvanced(entry: ImageModelEntry, withSeed: boolean): boolean {
  return (
    entry.protocol === 'advanced' || (entry.protocol === 'openai' && entry.advanced && withSeed)
  );
}

/** Whether the model makes this size (`advanced`: sent on the advanced entry); why not, if not. */
export function sizeProblem(
  entry: ImageModelEntry,
  size: string,
  advanced: boolean,
): string | null {
  const parsed = parseSize(size, advanced);
  if ('problem' in parsed) return parsed.problem;
  if (parsed.form === 'named') {
    return entry.sizes === 'any'
      ? null
      : `Model ${entry.id} only offers the sizes ${entry.sizes.join(', ')}; "${size}" is not one of them.`;
  }
  if (entry.sizes !== 'any') {
    return entry.sizes.includes(size)
      ? null
      : `Model ${entry.id} does not offer size ${size}. Choose one of: ${entry.sizes.join(', ')}.`;
  }
  const { width, height } = parsed;
  if (
    width < entry.minSide ||
    height < entry.minSide ||
    width > entry.maxSide ||
    height > entry.maxSide
  ) {
    return `Size ${size} is outside what model ${entry.id} makes: each side must be from ${entry.minSide} to ${entry.maxSide} pixels.`;
  }
  return null;
}

/** The most images one request may ask of the model (on the advanced entry: at most 10). */
export function nMaxOf(entry: ImageModelEntry, advanced: boolean): number {
  return advanced ? Math.min(entry.nMax, ADVANCED_N_MAX) : entry.nMax;
}

export function nProblem(entry: ImageModelEntry, n: number, advanced: boolean): string | null {
  const max = nMaxOf(entry, advanced);
  if (Number.isInteger(n) && n >= entry.nMin && n <= max) return null;
  return entry.nMin === max
    ? `Model ${entry.id} makes exactly ${max} image${max === 1 ? '' : 's'} per request; n = ${n} was asked.`
    : `The number of images (n) must be a whole number from ${entry.nMin} to ${max} for ${entry.id}; ${n} was asked.`;
}

export function seedProblem(entry: ImageModelEntry, seed: number): string | null {
  if (!entry.seed) return `Model ${entry.id} does not take a seed; remove it.`;
  if (!Number.isInteger(seed) || seed < 0 || seed > SEED_MAX) {
    return `The seed must be a whole number from 0 to ${SEED_MAX}; ${seed} was given.`;
  }
  return null;
}

export function qualityProblem(entry: ImageModelEntry, quality: string): string | null {
  if (entry.quality === 'any') return null;
  if (entry.quality.length === 0) return `Model ${entry.id} has no quality setting; remove it.`;
  return entry.quality.includes(quality)
    ? null
    : `Model ${entry.id} takes quality ${orList(entry.quality)}; "${quality}" is not one of them.`;
}

export function outputFormatProblem(entry: ImageModelEntry, format: string): string | null {
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
    return `The output format must be png, jpeg or webp; "${format}" is not one of them.`;
  }
  if (entry.outputFormats.length === 0) {
    return `Model ${entry.id} always makes PNG images; remove the output format.`;
  }
  return (entry.outputFormats as readonly string[]).includes(format)
    ? null
    : `Model ${entry.id} makes ${orList(entry.outputFormats)} images, not ${format}.`;
}

/**
 * The size a model makes when none is given: the first it lists, or 1024x1024 kept within its
 * sides; null for a model that takes no size.
 */
export function defaultSize(entry: ModelEntry): string | null {
  if (entry.kind === 'text') return null;
  if (entry.kind === 'video') return entry.sizes[0] ?? null;
  if (entry.sizes !== 'any') return entry.sizes[0] ?? null;
  const side = Math.min(Math.max(1024, entry.minSide), entry.maxSide);
  return `${side}x${side}`;
}

/** A duration the video model's entry does not list (none listed: any is sent). */
export function videoSecondsProblem(entry: VideoModelEntry, seconds: string): string | null {
  return entry.seconds.length === 0 || entry.seconds.includes(seconds)
    ? null
    : `${entry.id} makes videos of ${entry.seconds.join(', ')} seconds; ${seconds} was asked.`;
}

/** A size written with ×, or one the video model's entry does not list. */
export function videoSizeProblem(entry: VideoModelEntry, size: string): string | null {
  if (size.includes('×')) {
    return `Size "${size}" uses the multiplication sign ×; write a lowercase x, as in 1280x720.`;
  }
  return entry.sizes.length === 0 || entry.sizes.includes(size)
    ? null
    : `${entry.id} makes videos of size ${entry.sizes.join(', ')}; ${size} was asked.`;
}

export function orList(values: readonly string[]): string {
  return values.length <= 1
    ? (values[0] ?? '')
    : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}
