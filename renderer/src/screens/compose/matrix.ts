/**
 * The matrix: prompts combined with models, each with its own sizes × seeds × n (× durations,
 * for videos), either multiplied (every combination) or zipped (prompt i with item i of each list), as InvokeAI's
 * batches do.
 */
export type CombineMode = 'multiply' | 'zip';

/** One model's lists and fields (model-params.ts decides them from the draft). */
export interface ModelLists {
  model: string;
  /** Empty: the model's default size. */
  sizes: readonly string[];
  /** Empty: no seed sent (the model picks one). */
  seeds: readonly number[];
  /** Empty: n = 1. */
  ns: readonly number[];
  /** A video's durations in whole seconds; empty or left out: none sent (the model's default). */
  seconds?: readonly string[];
  quality?: string;
  outputFormat?: string;
}

export interface Matrix {
  models: readonly ModelLists[];
}

/** One expanded job, before the parameters every job shares. */
export interface PlannedJob {
  prompt: string;
  model: string;
  size?: string;
  seed?: number;
  n: number;
  seconds?: string;
  quality?: string;
  outputFormat?: string;
}

export interface JobPlan {
  count: number;
  /** The job at index i (0 ≤ i < count), made on demand so a long plan costs no memory. */
  at(i: number): PlannedJob;
  /** Images (the sum of n) per model. */
  imagesByModel(): Record<string, number>;
}

const LISTS = [
  ['sizes', 'sizes'],
  ['seeds', 'seeds'],
  ['ns', 'values of n'],
  ['seconds', 'durations'],
] as const;

interface Lists {
  lists: ModelLists;
  sizes: readonly (string | undefined)[];
  seeds: readonly (number | undefined)[];
  ns: readonly number[];
  seconds: readonly (string | undefined)[];
  /** Jobs per prompt when multiplied. */
  per: number;
}

const listsOf = (lists: ModelLists): Lists => {
  const sizes = lists.sizes.length ? lists.sizes : [undefined];
  const seeds = lists.seeds.length ? lists.seeds : [undefined];
  const ns = lists.ns.length ? lists.ns : [1];
  const seconds = lists.seconds?.length ? lists.seconds : [undefined];
  const per = sizes.length * seeds.length * ns.length * seconds.length;
  return { lists, sizes, seeds, ns, seconds, per };
};

/** The plan, or why the lists cannot be combined. */
export function planJobs(
  prompts: readonly string[],
  matrix: Matrix,
  mode: CombineMode,
): { plan: JobPlan } | { error: string } {
  if (matrix.models.length === 0) return { error: 'Choose at least one model.' };
  const models = matrix.models.map(listsOf);
  if (mode === 'zip') {
    const count = prompts.length;
    const unequal = (length: number) => length > 1 && length !== count;
    const zipError = (length: number, label: string, of = '') =>
      `Zip pairs prompt i with item i of each list: there are ${count} ` +
      `prompt${count === 1 ? '' : 's'} but ${length} ${label}${of}. Give ` +
      `${count} ${label} (or one, used for every prompt), or multiply instead.`;
    if (unequal(models.length)) return { error: zipError(models.length, 'models') };
    for (const { lists } of models) {
      for (const [key, label] of LISTS) {
        const length = lists[key]?.length ?? 0;
        if (unequal(length)) {
          return { error: zipError(length, label, models.length > 1 ? ` for ${lists.model}` : '') };
        }
      }
    }
    const item = <T>(list: readonly T[], i: number): T => list[list.length === 1 ? 0 : i]!;
    return {
      plan: makePlan(count, (i) => {
        const m = item(models, i);
        const at = { size: item(m.sizes, i), seed: item(m.seeds, i), seconds: item(m.seconds, i) };
        return job(prompts[i]!, m.lists, at, item(m.ns, i));
      }),
    };
  }
  const block = models.reduce((sum, m) => sum + m.per, 0);
  return {
    plan: makePlan(prompts.length * block, (i) => {
      // prompt outermost, then model, n fastest: a prompt's variations sit together
      let rest = i % block;
      let m = models[0]!;
      for (const next of models) {
        m = next;
        if (rest < next.per) break;
        rest -= next.per;
      }
      const n = m.ns[rest % m.ns.length]!;
      rest = Math.floor(rest / m.ns.length);
      const seconds = m.seconds[rest % m.seconds.length];
      rest = Math.floor(rest / m.seconds.length);
      const seed = m.seeds[rest % m.seeds.length];
      const size = m.sizes[Math.floor(rest / m.seeds.length)];
      return job(prompts[Math.floor(i / block)]!, m.lists, { size, seed, seconds }, n);
    }),
  };
}

function job(
  prompt: string,
  lists: ModelLists,
  { size, seed, seconds }: { size?: string; seed?: number; seconds?: string },
  n: number,
): PlannedJob {
  return {
    prompt,
    model: lists.model,
    n,
    ...(size !== undefined ? { size } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(seconds !== undefined ? { seconds } : {}),
    ...(lists.quality ? { quality: lists.quality } : {}),
    ...(lists.outputFormat ? { outputFormat: lists.outputFormat } : {}),
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
