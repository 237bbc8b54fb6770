import type { ImageModelEntry } from '../../../../shared/gateway/catalogue.ts';
import {
  nMaxOf,
  nProblem,
  outputFormatProblem,
  parseSize,
  qualityProblem,
  sentAdvanced,
  sizeProblem,
} from '../../../../shared/gateway/params.ts';
import type { ModelLists } from './matrix.ts';
import { parseList, parseWholeNumbers } from './matrix.ts';

/**
 * Each model's own parameters in a matrix across models. A model takes what the person set
 * for it (its group in Compose), else the shared values it takes: a size it does not make, an
 * n past its most, a quality or format it lacks, a seed when it takes none are left out for it
 * (said beside its group) and go to the models that take them. Only what no chosen model takes,
 * or what the person set for a model that refuses it, stops the batch, in the words of
 * shared/gateway/params.ts (the service's `batches.check` says the same).
 */

/** What the person typed for one model; a field left out follows the shared value. */
export interface ModelParamsDraft {
  sizes?: string;
  ns?: string;
  quality?: string;
  outputFormat?: string;
}

/** The values shared by every model (the draft's own fields), as typed. */
export interface SharedValues {
  sizes: readonly string[];
  seeds: readonly number[];
  ns: readonly number[];
  quality: string;
  outputFormat: string;
}

/** What one model will get, and why it differs from the shared values. */
export interface ModelParams extends ModelLists {
  /** Shared values left out for this model, each with why ("1536x1024: not one of its sizes"). */
  leftOut: string[];
}

export interface ModelsPlan {
  models: ModelParams[];
  /** Values no chosen model takes, and values set for a model that refuses them. */
  problems: string[];
  /** A typed list that does not read (a bad n in a model's group…). */
  inputErrors: string[];
}

export function modelParams(
  entries: readonly ImageModelEntry[],
  shared: SharedValues,
  own: Readonly<Record<string, ModelParamsDraft>>,
): ModelsPlan {
  const problems = new Set<string>();
  const inputErrors = new Set<string>();
  const withSeed = shared.seeds.length > 0;
  // each shared value with the refusals of the models that do not take it
  const refusedBy = new Map<string, string[]>();
  const refuse = (key: string, problem: string) =>
    refusedBy.set(key, [...(refusedBy.get(key) ?? []), problem]);
  const offered = new Set<string>();

  const models = entries.map((entry): ModelParams => {
    const mine = own[entry.id] ?? {};
    const seeds = withSeed && entry.seed ? shared.seeds : [];
    const advanced = sentAdvanced(entry, seeds.length > 0);
    const leftOut: string[] = [];
    if (withSeed && !entry.seed) leftOut.push('seeds: it takes none');

    let sizes: string[];
    if (mine.sizes !== undefined) {
      sizes = parseList(mine.sizes);
      for (const size of sizes) {
        const problem = sizeProblem(entry, size, advanced);
        if (problem) problems.add(problem);
      }
    } else {
      sizes = [];
      for (const size of shared.sizes) {
        const problem = sizeProblem(entry, size, advanced);
        if (!problem) {
          sizes.push(size);
          offered.add(`size ${size}`);
        } else if ('problem' in parseSize(size, advanced)) problems.add(problem);
        else {
          refuse(`size ${size}`, problem);
          leftOut.push(`${size}: not one of its sizes`);
        }
      }
    }

    let ns: number[];
    if (mine.ns !== undefined) {
      const parsed = parseWholeNumbers(mine.ns, `n for ${entry.id}`, 1, 10_000);
      ns = 'values' in parsed ? parsed.values : [];
      if ('error' in parsed) inputErrors.add(parsed.error);
      for (const n of ns) {
        const problem = nProblem(entry, n, advanced);
        if (problem) problems.add(problem);
      }
    } else {
      // an n outside the model's range becomes its nearest: dall-e-3 still makes one each
      const { min, max } = { min: entry.nMin, max: nMaxOf(entry, advanced) };
      ns = [];
      for (const n of shared.ns) {
        const sent = Math.min(max, Math.max(min, n));
        if (sent !== n)
          leftOut.push(
            `n ${n}: it makes ${min === max ? 'exactly' : sent > n ? 'at least' : 'at most'} ${sent} per request (n ${sent} sent)`,
          );
        if (!ns.includes(sent)) ns.push(sent);
      }
    }

    // a model with no quality or format setting simply gets none (its group shows no field)
    const quality = takesQuality(entry)
      ? pick(mine.quality, shared.quality, (q) => qualityProblem(entry, q))
      : {};
    const formats = entry.outputFormats as readonly string[];
    const outputFormat =
      formats.length > 0
        ? pick(mine.outputFormat, shared.outputFormat, (f) => outputFormatProblem(entry, f))
        : {};
    for (const [what, choice] of [
      ['quality', quality],
      ['format', outputFormat],
    ] as const) {
      if (choice.problem) problems.add(choice.problem);
      if (choice.leftOut) {
        refuse(`${what} ${choice.leftOut}`, choice.why!);
        leftOut.push(`${what} ${choice.leftOut}: it does not take it`);
      } else if (choice.value && choice.shared) offered.add(`${what} ${choice.value}`);
    }
    return {
      model: entry.id,
      sizes,
      seeds,
      ns,
      ...(quality.value ? { quality: quality.value } : {}),
      ...(outputFormat.value ? { outputFormat: outputFormat.value } : {}),
      leftOut,
    };
  });
  // a shared value that no chosen model takes: each model's reason
  for (const [key, reasons] of refusedBy) {
    if (!offered.has(key)) reasons.forEach((r) => problems.add(r));
  }
  if (withSeed && entries.length > 0 && entries.every((e) => !e.seed)) {
    const models = entries.map((e) => e.id).join(', ');
    problems.add(
      entries.length === 1
        ? `Model ${models} does not take a seed: clear the seeds or choose a model that takes one.`
        : `None of ${models} takes a seed: clear the seeds or choose a model that takes one.`,
    );
  }
  return { models, problems: [...problems], inputErrors: [...inputErrors] };
}

const takesQuality = (entry: ImageModelEntry) =>
  entry.quality === 'any' || entry.quality.length > 0;

/**
 * A model's own value (refused with the reason when it does not take it), else the shared one
 * when it takes it (left out for it when not).
 */
function pick(
  own: string | undefined,
  shared: string,
  problemOf: (value: string) => string | null,
): { value?: string; problem?: string; leftOut?: string; why?: string; shared?: boolean } {
  if (own !== undefined) {
    const value = own.trim();
    if (!value) return {};
    const problem = problemOf(value);
    return problem ? { problem } : { value };
  }
  const value = shared.trim();
  if (!value) return {};
  const why = problemOf(value);
  return why ? { leftOut: value, why } : { value, shared: true };
}

/** "1024x1024, 1536x1024 · n 2 · high": what one model gets, in a line. */
export function describeModel(params: ModelParams, defaultSize: string | null): string {
  const parts = [
    params.sizes.length
      ? params.sizes.join(', ')
      : defaultSize
        ? `default ${defaultSize}`
        : 'default size',
    `n ${params.ns.length ? params.ns.join(', ') : 1}`,
  ];
  if (params.seeds.length)
    parts.push(`${params.seeds.length} seed${params.seeds.length === 1 ? '' : 's'}`);
  if (params.quality) parts.push(params.quality);
  if (params.outputFormat) parts.push(params.outputFormat);
  return parts.join(' · ');
}
