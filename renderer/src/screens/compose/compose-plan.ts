import {
  permissiveEntry,
  type ImageModelEntry,
  type ModelEntry,
} from '../../../../shared/gateway/catalogue.ts';
import type { ComposeDraft } from './draft.ts';
import { parseList, parseWholeNumbers, planJobs, type JobPlan } from './matrix.ts';
import { SEED_MAX } from '../../../../shared/gateway/params.ts';
import { composeProblems, parseExtra, visibilityOf } from './params.ts';
import { MAX_JOBS, type SharedParams } from './source.ts';
import { expandPrompts, valuesOf, type ExpandedPrompts } from './template.ts';

/** The fields the chosen models take, and which of them take each (for "only X" labels). */
export interface FieldsShown {
  /** Suggested sizes: the listed sizes of the chosen models, and the advanced names. */
  sizeChoices: string[];
  /** Free sizes allowed: "any WxH, sides 16 to 2048". */
  sizeHint: string | null;
  quality: { values: string[] | 'any'; takers: string[] } | null;
  outputFormat: { values: string[]; takers: string[] } | null;
  seed: string[] | null;
  negativePrompt: string[] | null;
  extra: string[] | null;
  n: { min: number; max: number };
}

/** Everything the screen derives from the draft, pure so it is tested without a browser. */
export interface ComposePlan {
  expanded: ExpandedPrompts;
  plan: JobPlan | null;
  /** Why the lists or fields cannot make jobs (a bad seed list, a zip of unequal lists…). */
  inputErrors: string[];
  /** What the chosen models would refuse, with the reason. */
  refusals: string[];
  shared: SharedParams;
  fields: FieldsShown;
  entries: ImageModelEntry[];
  lookup: (model: string) => ImageModelEntry;
}

export function composePlan(draft: ComposeDraft, catalogue: readonly ModelEntry[]): ComposePlan {
  const byId = new Map(catalogue.filter(isImage).map((e) => [e.id, e]));
  const lookup = (model: string) => byId.get(model) ?? permissiveEntry(model);
  const entries = draft.models.map(lookup);
  const vars = Object.fromEntries(
    Object.entries(draft.variables).map(([name, text]) => [name, valuesOf(text)]),
  );
  const expanded = expandPrompts(draft.text, draft.split, vars, MAX_JOBS);
  const inputErrors: string[] = [];
  const seeds = parseWholeNumbers(draft.seeds, 'Seeds', 0, SEED_MAX);
  const ns = parseWholeNumbers(draft.ns, 'n', 1, 10_000);
  const extra = parseExtra(draft.extra);
  for (const parsed of [seeds, ns, extra]) if ('error' in parsed) inputErrors.push(parsed.error);
  const matrix = {
    models: draft.models,
    sizes: parseList(draft.sizes),
    seeds: 'values' in seeds ? seeds.values : [],
    ns: 'values' in ns ? ns.values : [],
  };
  if (!draft.file && expanded.count > MAX_JOBS) {
    inputErrors.push(
      `The prompts make ${expanded.count.toLocaleString('en-US')} jobs; the most in one batch is ${MAX_JOBS.toLocaleString('en-US')}.`,
    );
  }
  let plan: JobPlan | null = null;
  if (!draft.file && expanded.errors.length === 0 && expanded.prompts.length > 0) {
    const planned = planJobs(expanded.prompts, matrix, draft.combine);
    if ('error' in planned) inputErrors.push(planned.error);
    else if (planned.plan.count > MAX_JOBS) {
      inputErrors.push(
        `The matrix makes ${planned.plan.count.toLocaleString('en-US')} jobs; the most in one batch is ${MAX_JOBS.toLocaleString('en-US')}: use fewer combinations.`,
      );
    } else plan = planned.plan;
  }
  const shared: SharedParams = {
    quality: draft.quality || undefined,
    outputFormat: draft.outputFormat || undefined,
    negativePrompt: draft.negativePrompt.trim() || undefined,
    extra: 'extra' in extra ? extra.extra : undefined,
  };
  const refusals = composeProblems(entries, { ...matrix, quality: shared.quality });
  return {
    expanded,
    plan,
    inputErrors,
    refusals,
    shared,
    fields: fieldsOf(entries, matrix.seeds.length > 0),
    entries,
    lookup,
  };
}

const isImage = (e: ModelEntry): e is ImageModelEntry => e.kind === 'image';

function fieldsOf(entries: readonly ImageModelEntry[], withSeed: boolean): FieldsShown {
  const views = entries.map((e) => ({ id: e.id, v: visibilityOf(e, withSeed) }));
  const takers = (test: (v: ReturnType<typeof visibilityOf>) => boolean) => {
    const ids = views.filter(({ v }) => test(v)).map(({ id }) => id);
    return ids.length ? ids : null;
  };
  const sizeChoices = new Set<string>();
  const free: string[] = [];
  for (const { v } of views) {
    if (v.size.kind === 'list') v.size.sizes.forEach((s) => sizeChoices.add(s));
    else {
      free.push(`any WxH with sides from ${v.size.minSide} to ${v.size.maxSide} px`);
      v.size.named.forEach((s) => sizeChoices.add(s));
    }
  }
  const qualityTakers = takers((v) => v.quality !== null);
  const qualityValues = views.some(({ v }) => v.quality === 'any')
    ? 'any'
    : [...new Set(views.flatMap(({ v }) => (Array.isArray(v.quality) ? v.quality : [])))];
  const formatTakers = takers((v) => v.outputFormats.length > 0);
  return {
    sizeChoices: [...sizeChoices],
    sizeHint: free.length ? [...new Set(free)].join('; ') : null,
    quality: qualityTakers ? { values: qualityValues, takers: qualityTakers } : null,
    outputFormat: formatTakers
      ? {
          values: [...new Set(views.flatMap(({ v }) => [...v.outputFormats]))],
          takers: formatTakers,
        }
      : null,
    seed: takers((v) => v.seed),
    negativePrompt: takers((v) => v.negativePrompt),
    extra: takers((v) => v.extra),
    n: views.length
      ? {
          min: Math.max(...views.map(({ v }) => v.n.min)),
          max: Math.min(...views.map(({ v }) => v.n.max)),
        }
      : { min: 1, max: 10 },
  };
}
