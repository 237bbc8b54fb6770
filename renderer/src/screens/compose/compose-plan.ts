import {
  permissiveEntry,
  type ImageModelEntry,
  type ModelEntry,
} from '../../../../shared/gateway/catalogue.ts';
import type { ComposeDraft } from './draft.ts';
import { parseList, parseWholeNumbers, planJobs, type JobPlan } from './matrix.ts';
import { modelParams, type ModelParams } from './model-params.ts';
import { SEED_MAX } from '../../../../shared/gateway/params.ts';
import { parseExtra } from './params.ts';
import { MAX_JOBS, type SharedParams } from './source.ts';
import { expandPrompts, valuesOf, type ExpandedPrompts } from './template.ts';

/** The fields every chosen model shares, and which of them take each (for "only X" labels). */
export interface FieldsShown {
  seed: string[] | null;
  negativePrompt: string[] | null;
  extra: string[] | null;
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
  /** What each chosen model gets (its group in Compose, its line in the estimate). */
  perModel: ModelParams[];
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
  const models = modelParams(
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
  inputErrors.push(...models.inputErrors);
  if (!draft.file && expanded.count > MAX_JOBS) {
    inputErrors.push(
      `The prompts make ${expanded.count.toLocaleString('en-US')} jobs; the most in one batch is ${MAX_JOBS.toLocaleString('en-US')}.`,
    );
  }
  let plan: JobPlan | null = null;
  if (!draft.file && expanded.errors.length === 0 && expanded.prompts.length > 0) {
    const planned = planJobs(expanded.prompts, { models: models.models }, draft.combine);
    if ('error' in planned) inputErrors.push(planned.error);
    else if (planned.plan.count > MAX_JOBS) {
      inputErrors.push(
        `The matrix makes ${planned.plan.count.toLocaleString('en-US')} jobs; the most in one batch is ${MAX_JOBS.toLocaleString('en-US')}: use fewer combinations.`,
      );
    } else plan = planned.plan;
  }
  const shared: SharedParams = {
    negativePrompt: draft.negativePrompt.trim() || undefined,
    extra: 'extra' in extra ? extra.extra : undefined,
  };
  return {
    expanded,
    plan,
    inputErrors,
    refusals: models.problems,
    shared,
    fields: fieldsOf(entries),
    perModel: models.models,
    entries,
    lookup,
  };
}

const isImage = (e: ModelEntry): e is ImageModelEntry => e.kind === 'image';

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
