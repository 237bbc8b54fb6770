import type { ModelEntry } from '../../../../shared/gateway/catalogue.ts';
import { useAction } from '../../data/action.ts';
import { useApi, useData } from '../../data/data-context.ts';
import { keys } from '../../data/keys.ts';
import type { KeyStatus, Settings, SettingsPatch } from '../../data/types.ts';

/**
 * One hook per change of the settings. Forms use `attempt` (a refusal is shown beside the field
 * it concerns); the `settings.changed` and `key.changed` events bring every window up to date.
 * Where the answer is the data itself (every setting, the key's status), this window shows it
 * at once rather than waiting for the event.
 */

export function useSaveSettings() {
  const { api, queries } = useData();
  return useAction<{ patch: SettingsPatch; saved?: string | null }, Settings>({
    run: async ({ patch }) => {
      const settings = await api.settings.update(patch);
      queries.setQueryData(keys.settings(), settings);
      return settings;
    },
    done: (_, { saved }) => (saved === undefined ? 'Settings saved' : saved),
    what: 'save the settings',
  });
}

/** A change of settings for a form: the refusal as text (null when saved). */
export function useSave(): (patch: SettingsPatch, saved?: string) => Promise<string | null> {
  const save = useSaveSettings();
  return async (patch, saved) => {
    const result = await save.attempt({ patch, ...(saved === undefined ? {} : { saved }) });
    return result.ok ? null : result.message;
  };
}

export function useSaveUserModels() {
  const { api, queries } = useData();
  return useAction<{ entries: readonly ModelEntry[]; saved: string }, unknown>({
    run: async ({ entries }) => {
      const catalogue = await api.models.saveUserEntries({ entries: [...entries] });
      queries.setQueryData(keys.catalogue(), catalogue.entries);
      return catalogue;
    },
    done: (_, { saved }) => saved,
    what: 'save the models',
  });
}

export function useMoveLibrary() {
  const api = useApi();
  return useAction<string, unknown>({
    run: (dir) => api.library.setLocation({ dir }),
    done: () => 'Library folder changed',
    what: 'move the library',
  });
}

export function useSetKey() {
  const { api, queries } = useData();
  return useAction<string, KeyStatus>({
    run: async (key) => {
      const status = await api.key.set({ key });
      queries.setQueryData(keys.keyStatus(), status);
      return status;
    },
    what: 'set the key',
  });
}

export function useClearKey() {
  const { api, queries } = useData();
  return useAction<void, KeyStatus>({
    run: async () => {
      const status = await api.key.clear();
      queries.setQueryData(keys.keyStatus(), status);
      return status;
    },
    what: 'remove the key',
  });
}
