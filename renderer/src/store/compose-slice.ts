import type { InputOf, OutputOf } from '../../../shared/api/types.ts';
import type { CombineMode } from '../screens/compose/matrix.ts';
import type { SplitMode } from '../screens/compose/split-prompts.ts';
import { errorMessage } from './error-message.ts';
import type { SliceCreator } from './state.ts';

export type CatalogueEntry = OutputOf<'models', 'catalogue'>['entries'][number];
export type BatchCheck = OutputOf<'batches', 'check'>;
export type CheckInput = InputOf<'batches', 'check'>;
export type CreateInput = InputOf<'batches', 'create'>;
export type CreatedBatch = OutputOf<'batches', 'create'>;

/** What the person composed, kept in the store so it survives leaving Compose and a run. */
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
  file: null,
};

export interface ComposeSlice {
  composeDraft: ComposeDraft;
  /** The next batch's name (apart from the draft: typing it changes no job). */
  composeName: string;
  /** The model catalogue (built-in and the person's entries); null until loaded. */
  composeModels: readonly CatalogueEntry[] | null;
  composeModelsError: string | null;
  editDraft(patch: Partial<ComposeDraft>): void;
  setComposeName(name: string): void;
  loadComposeModels(): Promise<void>;
  /** The service's check of a source, as the run would do it. Throws. */
  checkComposed(input: CheckInput): Promise<BatchCheck>;
  /** Creates the batch. Throws (a bad row: `prompt-file` with details). */
  runComposed(input: CreateInput): Promise<CreatedBatch>;
}

export const createComposeSlice: SliceCreator<ComposeSlice> = (api) => (set, get) => ({
  composeDraft: EMPTY_DRAFT,
  composeName: '',
  composeModels: null,
  composeModelsError: null,

  editDraft(patch) {
    set({ composeDraft: { ...get().composeDraft, ...patch } });
  },

  setComposeName(composeName) {
    set({ composeName });
  },

  async loadComposeModels() {
    try {
      const { entries } = await api.models.catalogue();
      set({ composeModels: entries, composeModelsError: null });
    } catch (error) {
      set({ composeModelsError: errorMessage(error) });
    }
  },

  checkComposed: (input) => api.batches.check(input),
  runComposed: (input) => api.batches.create(input),
});
