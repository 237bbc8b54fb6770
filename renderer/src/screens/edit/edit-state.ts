import { createStore } from 'zustand/vanilla';
import { storeContext } from '../../views/store-context.ts';
import { readBrush, type BrushSettings } from './brush.ts';
import type { MaskLayer } from './mask-layer.ts';

/** What the edit asks besides its pictures and mask: kept between editors, as typed. */
export interface EditForm {
  /** One a line: with one picture, a job each; with several, one prompt for all. */
  prompts: string;
  /** Null: the starting choice (see edit-form.ts). */
  model: string | null;
  n: number;
  /** '' leaves it to the model (usually the picture's own size). */
  size: string;
  quality: string;
  outputFormat: string;
  keepOutsideMask: boolean;
}

export const EMPTY_FORM: EditForm = {
  prompts: '',
  model: null,
  n: 1,
  size: '',
  quality: '',
  outputFormat: '',
  keepOutsideMask: false,
};

/** The mask painted last, kept when the editor closes: reopened on the same picture, it is back. */
export interface KeptMask {
  /** The picture it was painted over: its id and natural size. */
  key: string;
  layer: MaskLayer;
}

export interface EditUi {
  /** The gallery images being edited; null while the editor is closed. */
  editing: readonly number[] | null;
  brush: BrushSettings;
  form: EditForm;
  kept: KeptMask | null;
  /** Opens the editor on these images (one to paint a mask over, or many for one prompt). */
  open(ids: readonly number[]): void;
  close(): void;
  setBrush(patch: Partial<BrushSettings>): void;
  setForm(patch: Partial<EditForm>): void;
  /** Keeps this layer (the one kept before is let go). */
  keep(kept: KeptMask): void;
}

const BRUSH_KEY = 'atelier.edit.brush';
const FORM_KEY = 'atelier.edit.form';

/** What the window remembers across restarts: the brush, and the model and its settings. */
function remembered<T>(key: string, read: (value: unknown) => T): T {
  try {
    return read(JSON.parse(localStorage.getItem(key) ?? 'null'));
  } catch {
    return read(null);
  }
}

function remember(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or refused: remembered for this window only
  }
}

/** The remembered part of the form; a prompt is not kept across restarts. */
function readForm(value: unknown): EditForm {
  const given = (value && typeof value === 'object' ? value : {}) as Partial<EditForm>;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    ...EMPTY_FORM,
    model: typeof given.model === 'string' && given.model ? given.model : null,
    n: typeof given.n === 'number' && Number.isInteger(given.n) && given.n >= 1 ? given.n : 1,
    size: text(given.size),
    quality: text(given.quality),
    outputFormat: text(given.outputFormat),
    keepOutsideMask: given.keepOutsideMask === true,
  };
}

/** The editor's UI state: which images it edits, the brush, the form, the mask kept. */
export const createEditUi = () =>
  createStore<EditUi>()((set, get) => ({
    editing: null,
    brush: remembered(BRUSH_KEY, readBrush),
    form: remembered(FORM_KEY, readForm),
    kept: null,
    open: (ids) => set({ editing: ids.length > 0 ? [...ids] : null }),
    close: () => set({ editing: null }),
    setBrush(patch) {
      const brush = { ...get().brush, ...patch };
      set({ brush });
      remember(BRUSH_KEY, brush);
    },
    setForm(patch) {
      const form = { ...get().form, ...patch };
      set({ form });
      const { prompts: _prompts, ...kept } = form;
      remember(FORM_KEY, kept);
    },
    keep(kept) {
      const old = get().kept;
      if (old && old.layer !== kept.layer) old.layer.dispose();
      set({ kept });
    },
  }));

export const editUi = storeContext<EditUi>('The image editor');
