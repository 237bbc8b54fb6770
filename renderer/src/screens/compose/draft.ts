import type { CombineMode } from './matrix.ts';
import type { ModelParamsDraft } from './model-params.ts';
import type { SplitMode } from './split-prompts.ts';

/** What the person composed: kept by the service as it is typed (compose.saveDraft). */
export interface ComposeDraft {
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
}

export const EMPTY_DRAFT: ComposeDraft = {
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
};

/** Nothing the person would miss if it were replaced (the models alone are not a draft). */
export function isBlank(draft: ComposeDraft): boolean {
  const { models: _models, split: _split, combine: _combine, perModel: _perModel, ...rest } = draft;
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
  return {
    text: text(saved.text, ''),
    split: saved.split === 'paragraph' ? 'paragraph' : 'line',
    variables: variables as Record<string, string>,
    models: Array.isArray(saved.models) ? saved.models.filter((m) => typeof m === 'string') : [],
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
