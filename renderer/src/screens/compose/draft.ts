import type { CombineMode } from './matrix.ts';
import type { ModelParamsDraft } from './model-params.ts';
import type { SplitMode } from './split-prompts.ts';

/** What the jobs make: pictures, or videos (video models, their sizes and durations). */
export type ComposeMode = 'image' | 'video';

/** What the person composed: kept by the service as it is typed (compose.saveDraft). */
export interface ComposeDraft {
  mode: ComposeMode;
  text: string;
  split: SplitMode;
  /** Typed values per variable name, one per line. */
  variables: Readonly<Record<string, string>>;
  models: readonly string[];
  /** Typed lists ("256x256, 512x512"; "1, 2"). */
  sizes: string;
  seeds: string;
  ns: string;
  combine: CombineMode;
  quality: string;
  outputFormat: string;
  negativePrompt: string;
  /** key=value lines. */
  extra: string;
  /**
   * Each model's own values, where the person set them (its group in Compose); the fields
   * above are shared by the models that take them.
   */
  perModel: Readonly<Record<string, ModelParamsDraft>>;
  /** An opened or dropped prompt file: it replaces the composed prompts until removed. */
  file: { name: string; text: string } | null;
  /** Video mode's own choices, kept apart so a switch of mode loses neither side. */
  videoModels: readonly string[];
  /** Typed lists: "1280x720, 720x1280"; durations in whole seconds, "4, 8". */
  videoSizes: string;
  seconds: string;
}

export const EMPTY_DRAFT: ComposeDraft = {
  mode: 'image',
  text: '',
  split: 'line',
  variables: {},
  models: [],
  sizes: '',
  seeds: '',
  ns: '',
  combine: 'multiply',
  quality: '',
  outputFormat: '',
  negativePrompt: '',
  extra: '',
  perModel: {},
  file: null,
  videoModels: [],
  videoSizes: '',
  seconds: '',
};

/** Nothing the person would miss if it were replaced (the models alone are not a draft). */
export function isBlank(draft: ComposeDraft): boolean {
  const {
    models: _models,
    videoModels: _videoModels,
    mode: _mode,
    split: _split,
    combine: _combine,
    perModel: _perModel,
    ...rest
  } = draft;
  return Object.entries(rest).every(([key, value]) =>
    key === 'variables'
      ? Object.values(value as Record<string, string>).every((v) => v.trim() === '')
      : value === null || (typeof value === 'string' && value.trim() === ''),
  );
}

const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);

/** A saved draft read back: every field of the right type, or the empty draft's. */
export function draftFrom(saved: Readonly<Record<string, unknown>>): ComposeDraft {
  const variables =
    saved.variables && typeof saved.variables === 'object' && !Array.isArray(saved.variables)
      ? Object.fromEntries(Object.entries(saved.variables).filter(([, v]) => typeof v === 'string'))
      : {};
  const file = saved.file as { name?: unknown; text?: unknown } | null | undefined;
  const list = (value: unknown) =>
    Array.isArray(value) ? value.filter((m): m is string => typeof m === 'string') : [];
  return {
    mode: saved.mode === 'video' ? 'video' : 'image',
    text: text(saved.text, ''),
    split: saved.split === 'paragraph' ? 'paragraph' : 'line',
    variables: variables as Record<string, string>,
    models: list(saved.models),
    sizes: text(saved.sizes, ''),
    seeds: text(saved.seeds, ''),
    ns: text(saved.ns, ''),
    combine: saved.combine === 'zip' ? 'zip' : 'multiply',
    quality: text(saved.quality, ''),
    outputFormat: text(saved.outputFormat, ''),
    negativePrompt: text(saved.negativePrompt, ''),
    extra: text(saved.extra, ''),
    perModel: perModelFrom(saved.perModel),
    file:
      file && typeof file.name === 'string' && typeof file.text === 'string'
        ? { name: file.name, text: file.text }
        : null,
    videoModels: list(saved.videoModels),
    videoSizes: text(saved.videoSizes, ''),
    seconds: text(saved.seconds, ''),
  };
}

const PER_MODEL_FIELDS = ['sizes', 'ns', 'quality', 'outputFormat'] as const;

/** A saved draft's per-model values: string fields of plain objects only. */
function perModelFrom(saved: unknown): Record<string, ModelParamsDraft> {
  if (!saved || typeof saved !== 'object' || Array.isArray(saved)) return {};
  const out: Record<string, ModelParamsDraft> = {};
  for (const [model, values] of Object.entries(saved)) {
    if (!values || typeof values !== 'object') continue;
    const own: ModelParamsDraft = {};
    for (const field of PER_MODEL_FIELDS) {
      const value = (values as Record<string, unknown>)[field];
      if (typeof value === 'string') own[field] = value;
    }
    out[model] = own;
  }
  return out;
}
