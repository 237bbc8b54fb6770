import { createStore } from 'zustand/vanilla';
import { storeContext } from '../../../views/store-context.ts';
import type { PromptBlock } from './prompt-text.ts';
import type { RowEdit, Suggestion } from './suggestions.ts';

export type PromptStyle = 'prose' | 'tags';

/** An expansion or variations of a prompt of the box, until the answer is placed there. */
export interface Transform {
  kind: 'expand' | 'vary';
  requestId: string;
  source: PromptBlock;
}

/** Prompt help's panel and its rows: the person's questions and their working copy. */
export interface PromptHelpUi {
  open: boolean;
  theme: string;
  /** As typed (1–100). */
  count: string;
  style: PromptStyle;
  /** The text model asked; null: the one chosen in Settings. */
  model: string | null;
  /** How many variations a prompt's "Variations" asks for, as typed. */
  variations: string;
  /** Rows kept from earlier requests, shown before the streaming request's prompts. */
  kept: Suggestion[];
  /** The request whose prompts stream into the rows (or the last one). */
  requestId: string | null;
  /** The person's edits and ticks on that request's prompts, by index. */
  edits: Record<number, RowEdit>;
  transform: Transform | null;
  set(
    patch: Partial<
      Pick<PromptHelpUi, 'open' | 'theme' | 'count' | 'style' | 'model' | 'variations'>
    >,
  ): void;
  /** A new request streams in after `kept` (its rows start unedited). */
  follow(requestId: string, kept: Suggestion[]): void;
  editRow(key: string, patch: RowEdit): void;
  clearRows(): void;
  setTransform(transform: Transform | null): void;
}

export function createPromptHelpUi() {
  return createStore<PromptHelpUi>()((set, get) => ({
    open: false,
    theme: '',
    count: '5',
    style: 'prose',
    model: null,
    variations: '3',
    kept: [],
    requestId: null,
    edits: {},
    transform: null,
    set: (patch) => set(patch),
    follow: (requestId, kept) => set({ requestId, kept, edits: {} }),
    editRow(key, patch) {
      const { kept, edits, requestId } = get();
      if (kept.some((row) => row.key === key)) {
        set({ kept: kept.map((row) => (row.key === key ? { ...row, ...patch } : row)) });
        return;
      }
      const prefix = `${requestId}:`;
      if (!key.startsWith(prefix)) return;
      const index = Number(key.slice(prefix.length));
      set({ edits: { ...edits, [index]: { ...edits[index], ...patch } } });
    },
    clearRows: () => set({ kept: [], requestId: null, edits: {} }),
    setTransform: (transform) => set({ transform }),
  }));
}

export const promptHelpUi = storeContext<PromptHelpUi>('Prompt help');
