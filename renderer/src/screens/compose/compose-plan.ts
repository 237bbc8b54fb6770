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
  type ModelLists,
  type PlannedJob,
} from './matrix.ts';
import { modelParams, type ModelParams } from './model-params.ts';
import {
  SEED_MAX,
  videoSecondsProblem,
  videoSizeProblem,
} from '../../../../shared/gateway/params.ts';
import { parseExtra } from './params.ts';
import { MAX_JOBS, rowOf, videoRowOf, type PromptRow, type SharedParams } from './source.ts';
import { expandPrompts, valuesOf, type ExpandedPrompts } from './template.ts';

/** The fields every chosen model shares, and which of them take each (for "only X" labels). */
export interface FieldsShown {
  seed: string[] | null;
  negativePrompt: string[] | null;
  extra: string[] | null;
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
  /** What each chosen image model gets (its group in Compose, its line in the estimate). */
  perModel: ModelParams[];
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
  const images = modelParams(
    entries,
    {
      sizes: parseList(draft.sizes),
      seeds: 'values' in seeds ? seeds.values : [],
      ns: 'values' in ns ? ns.values : [],
      quality: draft.quality,
      outputFormat: draft.outputFormat,
    },
    draft.perModel,
  );
  inputErrors.push(...images.inputErrors);
  // a video model's own sizes and durations are checked against its entry (videoProblems)
  const videoLists: ModelLists[] = draft.videoModels.map((model) => ({
    model,
    sizes: parseList(draft.videoSizes),
    seeds: [],
    ns: [],
    seconds: 'values' in seconds ? seconds.values.map(String) : [],
  }));
  const models: readonly ModelLists[] = video ? videoLists : images.models;
  if (!draft.file && expanded.count > MAX_JOBS) {
    inputErrors.push(
      `The prompts make ${expanded.count.toLocaleString('en-US')} jobs; the most in one batch is ${MAX_JOBS.toLocaleString('en-US')}.`,
    );
  }
  let plan: JobPlan | null = null;
  if (!draft.file && expanded.errors.length === 0 && expanded.prompts.length > 0) {
    const planned = planJobs(expanded.prompts, { models }, draft.combine);
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
        negativePrompt: draft.negativePrompt.trim() || undefined,
        extra: 'extra' in extra ? extra.extra : undefined,
      };
  const videoEntries = new Map(catalogue.filter(isVideo).map((e) => [e.id, e]));
  return {
    expanded,
    plan,
    inputErrors,
    refusals: video ? videoProblems(videoLists, videoEntries) : images.problems,
    shared,
    fields: fieldsOf(entries),
    video: video ? videoFieldsOf(draft.videoModels, videoEntries) : null,
    perModel: video ? [] : images.models,
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
  models: readonly ModelLists[],
  entries: ReadonlyMap<string, VideoModelEntry>,
): string[] {
  const problems = new Set<string>();
  for (const { model, sizes, seconds } of models) {
    const entry = entries.get(model);
    if (!entry) {
      problems.add(
        `${model} is not a video model here: add it to your models (Settings › Models) as a video entry, or leave it out.`,
      );
      continue;
    }
    for (const size of sizes) {
      const problem = videoSizeProblem(entry, size);
      if (problem) problems.add(problem);
    }
    for (const duration of seconds ?? []) {
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

function fieldsOf(entries: readonly ImageModelEntry[]): FieldsShown {
  const takers = (test: (e: ImageModelEntry) => boolean) => {
    const ids = entries.filter(test).map((e) => e.id);
    return ids.length ? ids : null;
  };
  return {
    seed: takers((e) => e.seed),
    negativePrompt: takers((e) => e.negativePrompt),
    extra: takers((e) => e.extra),
  };
}
