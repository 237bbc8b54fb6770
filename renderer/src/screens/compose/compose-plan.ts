import {
  permissiveEntry,
  type ImageModelEntry,
  type ModelEntry,
  type VideoModelEntry,
} from '../../../../shared/gateway/catalogue.ts';
import type { ComposeDraft } from './draft.ts';
import {
  parseList,
  parseWholeNumbers,
  planJobs,
  type JobPlan,
  type Matrix,
  type PlannedJob,
} from './matrix.ts';
import {
  SEED_MAX,
  videoSecondsProblem,
  videoSizeProblem,
} from '../../../../shared/gateway/params.ts';
import { composeProblems, parseExtra, visibilityOf } from './params.ts';
import { MAX_JOBS, rowOf, videoRowOf, type PromptRow, type SharedParams } from './source.ts';
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

/** Video mode's choices: the chosen video models' sizes and durations. */
export interface VideoFields {
  sizeChoices: string[];
  secondsChoices: string[];
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
  /** Video mode's sizes and durations; null in image mode. */
  video: VideoFields | null;
  entries: ImageModelEntry[];
  lookup: (model: string) => ImageModelEntry;
  /** One planned job as the service reads it (the fields its model takes). */
  row: (job: PlannedJob) => PromptRow;
}

export function composePlan(draft: ComposeDraft, catalogue: readonly ModelEntry[]): ComposePlan {
  const byId = new Map(catalogue.filter(isImage).map((e) => [e.id, e]));
  const lookup = (model: string) => byId.get(model) ?? permissiveEntry(model);
  const video = draft.mode === 'video';
  const entries = video ? [] : draft.models.map(lookup);
  const vars = Object.fromEntries(
    Object.entries(draft.variables).map(([name, text]) => [name, valuesOf(text)]),
  );
  const expanded = expandPrompts(draft.text, draft.split, vars, MAX_JOBS);
  const inputErrors: string[] = [];
  const seeds = parseWholeNumbers(video ? '' : draft.seeds, 'Seeds', 0, SEED_MAX);
  const ns = parseWholeNumbers(video ? '' : draft.ns, 'n', 1, 10_000);
  const seconds = parseWholeNumbers(video ? draft.seconds : '', 'Durations', 1, 3600);
  const extra = parseExtra(video ? '' : draft.extra);
  for (const parsed of [seeds, ns, seconds, extra]) {
    if ('error' in parsed) inputErrors.push(parsed.error);
  }
  const matrix: Matrix = {
    models: video ? draft.videoModels : draft.models,
    sizes: parseList(video ? draft.videoSizes : draft.sizes),
    seeds: 'values' in seeds ? seeds.values : [],
    ns: 'values' in ns ? ns.values : [],
    seconds: 'values' in seconds ? seconds.values.map(String) : [],
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
  const shared: SharedParams = video
    ? {}
    : {
        quality: draft.quality || undefined,
        outputFormat: draft.outputFormat || undefined,
        negativePrompt: draft.negativePrompt.trim() || undefined,
        extra: 'extra' in extra ? extra.extra : undefined,
      };
  const videoEntries = new Map(catalogue.filter(isVideo).map((e) => [e.id, e]));
  const refusals = video
    ? videoProblems(draft.videoModels, videoEntries, matrix)
    : composeProblems(entries, { ...matrix, quality: shared.quality });
  return {
    expanded,
    plan,
    inputErrors,
    refusals,
    shared,
    fields: fieldsOf(entries, matrix.seeds.length > 0),
    video: video ? videoFieldsOf(draft.videoModels, videoEntries) : null,
    entries,
    lookup,
    row: video ? videoRowOf : (job) => rowOf(job, shared, lookup),
  };
}

const isImage = (e: ModelEntry): e is ImageModelEntry => e.kind === 'image';
const isVideo = (e: ModelEntry): e is VideoModelEntry => e.kind === 'video';

/**
 * What the chosen video models would refuse (the service's words): a size or a duration its
 * entry does not list, or a model the catalogue no longer has as a video model (the service
 * would send it to the image endpoint).
 */
function videoProblems(
  models: readonly string[],
  entries: ReadonlyMap<string, VideoModelEntry>,
  matrix: Matrix,
): string[] {
  const problems = new Set<string>();
  for (const model of models) {
    const entry = entries.get(model);
    if (!entry) {
      problems.add(
        `${model} is not a video model here: add it to your models (Settings › Models) as a video entry, or leave it out.`,
      );
      continue;
    }
    for (const size of matrix.sizes) {
      const problem = videoSizeProblem(entry, size);
      if (problem) problems.add(problem);
    }
    for (const duration of matrix.seconds ?? []) {
      const problem = videoSecondsProblem(entry, duration);
      if (problem) problems.add(problem);
    }
  }
  return [...problems];
}

function videoFieldsOf(
  models: readonly string[],
  entries: ReadonlyMap<string, VideoModelEntry>,
): VideoFields {
  const chosen = models.flatMap((id) => entries.get(id) ?? []);
  return {
    sizeChoices: [...new Set(chosen.flatMap((e) => e.sizes))],
    secondsChoices: [...new Set(chosen.flatMap((e) => e.seconds))].sort(
      (a, b) => Number(a) - Number(b),
    ),
  };
}

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
