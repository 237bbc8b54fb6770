import type { ImageModelEntry } from '../../../../shared/gateway/catalogue.ts';
import {
  ADVANCED_NAMED_SIZES,
  ADVANCED_RATIOS,
  nMaxOf,
  sentAdvanced,
} from '../../../../shared/gateway/params.ts';

/**
 * Which parameters a model takes, from its catalogue entry, and what it would refuse: the rules
 * of shared/gateway/params.ts, the service's own (`batches.check` has the last word; this
 * answers at once while the person types, in the same words).
 */

type SizeRule =
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

/** What the model takes; `withSeed`: the jobs carry seeds (which may send it to the advanced entry). */
export function visibilityOf(entry: ImageModelEntry, withSeed = false): Visibility {
  const advanced = sentAdvanced(entry, withSeed);
  return {
    size:
      entry.sizes === 'any'
        ? {
            kind: 'any',
            minSide: entry.minSide,
            maxSide: entry.maxSide,
            named: advanced || entry.advanced ? [...ADVANCED_NAMED_SIZES, ...ADVANCED_RATIOS] : [],
          }
        : { kind: 'list', sizes: entry.sizes },
    quality: entry.quality === 'any' || entry.quality.length > 0 ? entry.quality : null,
    outputFormats: entry.outputFormats,
    seed: entry.seed,
    negativePrompt: entry.negativePrompt,
    extra: entry.extra,
    n: { min: entry.nMin, max: nMaxOf(entry, advanced) },
  };
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
