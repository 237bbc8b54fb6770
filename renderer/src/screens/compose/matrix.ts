/**
 * The matrix: prompts combined with models × sizes × seeds × n (× durations, for videos),
 * either multiplied (every combination) or zipped (prompt i with item i of each list), as
 * InvokeAI's batches do.
 */
export type CombineMode = 'multiply' | 'zip';

export interface Matrix {
  models: readonly string[];
  sizes: readonly string[];
  /** Empty: no seed sent (the model picks one). */
  seeds: readonly number[];
  /** Empty: n = 1. */
  ns: readonly number[];
  /** A video's durations in whole seconds; empty or left out: none sent (the model's default). */
  seconds?: readonly string[];
}

/** One expanded job, before the parameters every job shares. */
export interface PlannedJob {
  prompt: string;
  model: string;
  size?: string;
  seed?: number;
  n: number;
  seconds?: string;
}

export interface JobPlan {
  count: number;
  /** The job at index i (0 ≤ i < count), made on demand so a long plan costs no memory. */
  at(i: number): PlannedJob;
  /** Images (the sum of n) per model. */
  imagesByModel(): Record<string, number>;
}

const LISTS = [
  ['models', 'models'],
  ['sizes', 'sizes'],
  ['seeds', 'seeds'],
  ['ns', 'values of n'],
  ['seconds', 'durations'],
] as const;

/** The plan, or why the lists cannot be combined. */
export function planJobs(
  prompts: readonly string[],
  matrix: Matrix,
  mode: CombineMode,
): { plan: JobPlan } | { error: string } {
  if (matrix.models.length === 0) return { error: 'Choose at least one model.' };
  const lists = {
    models: matrix.models,
    sizes: matrix.sizes.length ? matrix.sizes : [undefined],
    seeds: matrix.seeds.length ? matrix.seeds : [undefined],
    ns: matrix.ns.length ? matrix.ns : [1],
    seconds: matrix.seconds?.length ? matrix.seconds : [undefined],
  };
  if (mode === 'zip') {
    for (const [key, label] of LISTS) {
      const length = lists[key].length;
      if (length > 1 && length !== prompts.length) {
        return {
          error:
            `Zip pairs prompt i with item i of each list: there are ${prompts.length} ` +
            `prompt${prompts.length === 1 ? '' : 's'} but ${length} ${label}. Give ` +
            `${prompts.length} ${label} (or one, used for every prompt), or multiply instead.`,
        };
      }
    }
    const item = <T>(list: readonly T[], i: number): T => list[list.length === 1 ? 0 : i]!;
    return {
      plan: makePlan(prompts.length, (i) =>
        job(
          prompts[i]!,
          item(lists.models, i),
          item(lists.sizes, i),
          item(lists.seeds, i),
          item(lists.ns, i),
          item(lists.seconds, i),
        ),
      ),
    };
  }
  const { models, sizes, seeds, ns, seconds } = lists;
  const per = models.length * sizes.length * seeds.length * ns.length * seconds.length;
  return {
    plan: makePlan(prompts.length * per, (i) => {
      // prompt outermost, n fastest: a prompt's variations sit together in the preview
      const n = ns[i % ns.length]!;
      let rest = Math.floor(i / ns.length);
      const duration = seconds[rest % seconds.length];
      rest = Math.floor(rest / seconds.length);
      const seed = seeds[rest % seeds.length];
      rest = Math.floor(rest / seeds.length);
      const size = sizes[rest % sizes.length];
      rest = Math.floor(rest / sizes.length);
      const model = models[rest % models.length]!;
      return job(prompts[Math.floor(rest / models.length)]!, model, size, seed, n, duration);
    }),
  };
}

function job(
  prompt: string,
  model: string,
  size: string | undefined,
  seed: number | undefined,
  n: number,
  seconds?: string,
): PlannedJob {
  return {
    prompt,
    model,
    n,
    ...(size !== undefined ? { size } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(seconds !== undefined ? { seconds } : {}),
  };
}

function makePlan(count: number, at: (i: number) => PlannedJob): JobPlan {
  return {
    count,
    at,
    imagesByModel() {
      const images: Record<string, number> = {};
      for (let i = 0; i < count; i++) {
        const { model, n } = at(i);
        images[model] = (images[model] ?? 0) + n;
      }
      return images;
    },
  };
}

/** A list typed as "1, 2, 3" or one per line: its items, blanks left out. */
export function parseList(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** Whole numbers from a typed list, or the first item that is not one. */
export function parseWholeNumbers(
  text: string,
  what: string,
  min: number,
  max: number,
): { values: number[] } | { error: string } {
  const values: number[] = [];
  for (const item of parseList(text)) {
    const value = /^-?\d+$/.test(item) ? Number(item) : NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      return { error: `${what} must be whole numbers from ${min} to ${max}; “${item}” is not.` };
    }
    values.push(value);
  }
  return { values };
}
