import type { ImageModelEntry } from '../../../../shared/gateway/catalogue.ts';

/**
 * Which parameters a model takes, from its catalogue entry, and what it would refuse. The
 * service's `batches.check` has the last word; this answers at once while the person types.
 */
export const SEED_MAX = 4_294_967_295;
/** The advanced entry's own ceiling on n (interface 2.2). */
const ADVANCED_N_MAX = 10;
/** Named sizes and ratios the advanced entry takes besides WxH. */
export const ADVANCED_SIZES = [
  'square_hd',
  'landscape_4_3',
  'portrait_4_3',
  'landscape_16_9',
  'portrait_16_9',
  '1:1',
  '16:9',
  '9:16',
] as const;

export type SizeRule =
  | { kind: 'list'; sizes: readonly string[] }
  | { kind: 'any'; minSide: number; maxSide: number; named: readonly string[] };

export interface Visibility {
  size: SizeRule;
  /** Accepted quality values, 'any' when unchecked, null when the model takes none. */
  quality: readonly string[] | 'any' | null;
  /** Empty when the model always makes PNG. */
  outputFormats: readonly string[];
  seed: boolean;
  negativePrompt: boolean;
  extra: boolean;
  n: { min: number; max: number };
}

export function visibilityOf(entry: ImageModelEntry): Visibility {
  return {
    size:
      entry.sizes === 'any'
        ? {
            kind: 'any',
            minSide: entry.minSide,
            maxSide: entry.maxSide,
            named: entry.advanced ? ADVANCED_SIZES : [],
          }
        : { kind: 'list', sizes: entry.sizes },
    quality: entry.quality === 'any' || entry.quality.length > 0 ? entry.quality : null,
    outputFormats: entry.outputFormats,
    seed: entry.seed,
    negativePrompt: entry.negativePrompt,
    extra: entry.extra,
    n: {
      min: entry.nMin,
      max: entry.protocol === 'advanced' ? Math.min(entry.nMax, ADVANCED_N_MAX) : entry.nMax,
    },
  };
}

/** Why a model would refuse a size, or null. */
export function sizeProblem(entry: ImageModelEntry, size: string): string | null {
  const rule = visibilityOf(entry).size;
  if (rule.kind === 'list') {
    return rule.sizes.includes(size)
      ? null
      : `${entry.id} offers the sizes ${rule.sizes.join(', ')}; not ${size}.`;
  }
  if (rule.named.includes(size)) return null;
  const match = /^(\d+)x(\d+)$/.exec(size);
  if (!match) {
    const fixed = size.replace(/\s+/g, '').replace(/[×X*]/g, 'x');
    return /^\d+x\d+$/.test(fixed)
      ? `Size “${size}”: write it as ${fixed} (a lowercase x).`
      : `Size “${size}” is not WxH in pixels, like 1024x1024.`;
  }
  const [w, h] = [Number(match[1]), Number(match[2])];
  return Math.min(w, h) < rule.minSide || Math.max(w, h) > rule.maxSide
    ? `${entry.id} makes sides from ${rule.minSide} to ${rule.maxSide} pixels; not ${size}.`
    : null;
}

export function nProblem(entry: ImageModelEntry, n: number): string | null {
  const { min, max } = visibilityOf(entry).n;
  if (n >= min && n <= max) return null;
  return min === max
    ? `${entry.id} makes exactly ${max} image${max === 1 ? '' : 's'} per request; not n = ${n}.`
    : `${entry.id} takes n from ${min} to ${max}; not ${n}.`;
}

/** What the composer asks of every job (the matrix) and what it shares with all of them. */
export interface ComposedParams {
  sizes: readonly string[];
  seeds: readonly number[];
  ns: readonly number[];
  quality?: string | undefined;
  outputFormat?: string | undefined;
}

/**
 * Every reason one of the chosen models would refuse the composed parameters, once each.
 * Quality, format, negative prompt and extra fields go only to the models that take them.
 */
export function composeProblems(
  entries: readonly ImageModelEntry[],
  params: ComposedParams,
): string[] {
  const problems = new Set<string>();
  for (const entry of entries) {
    for (const size of params.sizes) {
      const p = sizeProblem(entry, size);
      if (p) problems.add(p);
    }
    for (const n of params.ns) {
      const p = nProblem(entry, n);
      if (p) problems.add(p);
    }
    if (params.seeds.length > 0 && !entry.seed) {
      problems.add(`${entry.id} takes no seed: clear the seeds or leave that model out.`);
    }
    const quality = visibilityOf(entry).quality;
    if (params.quality && Array.isArray(quality) && !quality.includes(params.quality)) {
      problems.add(`${entry.id} takes quality ${quality.join(', ')}; not ${params.quality}.`);
    }
  }
  return [...problems];
}

/** Extra fields typed as `key=value`, one per line: values read as JSON when they parse. */
export function parseExtra(text: string): { extra: Record<string, unknown> } | { error: string } {
  const extra: Record<string, unknown> = {};
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const eq = line.indexOf('=');
    const key = eq > 0 ? line.slice(0, eq).trim() : '';
    if (!/^[A-Za-z_][\w.-]*$/.test(key)) {
      return { error: `Extra fields, line ${i + 1}: write key=value (e.g. guidance=3.5).` };
    }
    const value = line.slice(eq + 1).trim();
    try {
      extra[key] = JSON.parse(value);
    } catch {
      extra[key] = value;
    }
  }
  return { extra };
}
