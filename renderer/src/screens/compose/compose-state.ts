import { createStore } from 'zustand/vanilla';
import { storeContext } from '../../views/store-context.ts';
import { draftFrom, EMPTY_DRAFT, type ComposeDraft } from './draft.ts';

type Saved = { draft: Record<string, unknown>; name: string };

/** The Compose draft, the next batch's name, and what a replacement replaced (for undo). */
export interface ComposeUi {
  draft: ComposeDraft;
  name: string;
  /** The saved draft was read (or there was none): typing may start. */
  ready: boolean;
  /**
   * What Re-run, "Generate again" or prompt help replaced, until undone or edited over;
   * `what` names the change for the Undo button ("expand line 2").
   */
  replaced: { draft: ComposeDraft; name: string; what: string | null } | null;
  edit(patch: Partial<ComposeDraft>): void;
  setName(name: string): void;
  /** Another draft in place of this one; `undo` brings this one back. */
  replace(draft: ComposeDraft): void;
  /** A change made for the person (prompt help's prompts); `undo` brings the draft before it back. */
  revise(patch: Partial<ComposeDraft>, what: string): void;
  undo(): void;
  /** The saved draft, once read. */
  load(saved: Saved | null): void;
}

/**
 * Compose's state, saved through `save` as it changes: one save at a time, the newest state
 * sent when the one under way ends (no timer, nothing lost, never two writes racing).
 */
export function createComposeUi(save: (saved: Saved) => Promise<unknown>) {
  let saving = false;
  let dirty = false;
  const store = createStore<ComposeUi>()((set, get) => {
    const changed = (patch: Partial<ComposeUi>) => {
      set(patch);
      dirty = true;
      void flush();
    };
    return {
      draft: EMPTY_DRAFT,
      name: '',
      ready: false,
      replaced: null,
      edit: (patch) => changed({ draft: { ...get().draft, ...patch }, replaced: null }),
      setName: (name) => changed({ name }),
      replace(draft) {
        const { draft: old, name } = get();
        changed({ draft, name: '', replaced: { draft: old, name, what: null } });
      },
      revise(patch, what) {
        const { draft: old, name } = get();
        changed({ draft: { ...old, ...patch }, replaced: { draft: old, name, what } });
      },
      undo() {
        const { replaced } = get();
        if (replaced) changed({ draft: replaced.draft, name: replaced.name, replaced: null });
      },
      load(saved) {
        if (get().ready) return;
        set(
          saved
            ? { draft: draftFrom(saved.draft), name: saved.name, ready: true }
            : { ready: true },
        );
      },
    };
  });
  async function flush(): Promise<void> {
    if (saving || !dirty || !store.getState().ready) return;
    saving = true;
    dirty = false;
    const { draft, name } = store.getState();
    try {
      await save({ draft: { ...draft }, name });
    } catch {
      // kept in the window; the next change tries again
    } finally {
      saving = false;
      void flush();
    }
  }
  return store;
}

export const composeUi = storeContext<ComposeUi>('Compose');
