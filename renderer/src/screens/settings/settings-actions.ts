import type { InputOf } from '../../../../shared/api/types.ts';
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

/** A key, for a gateway profile (its own) or shared by those without one (profile null). */
export function useSetKey() {
  const { api, queries } = useData();
  return useAction<{ key: string; profile: string | null }, KeyStatus>({
    run: async ({ key, profile }) => {
      const status = await api.key.set(profile === null ? { key } : { key, profile });
      queries.setQueryData(statusKey(profile), status);
      return status;
    },
    what: 'set the key',
  });
}

export function useClearKey() {
  const { api, queries } = useData();
  return useAction<string | null, KeyStatus>({
    run: async (profile) => {
      const status = await api.key.clear(profile === null ? {} : { profile });
      queries.setQueryData(statusKey(profile), status);
      return status;
    },
    what: 'remove the key',
  });
}

const statusKey = (profile: string | null) =>
  profile === null ? keys.keyStatus() : keys.profileKeyStatus(profile);

/** Models the connection test found, added to the catalogue from the form's fields. */
export function useAddModels() {
  const { api, queries } = useData();
  return useAction<InputOf<'models', 'addEntries'>['entries'], unknown>({
    run: async (entries) => {
      const catalogue = await api.models.addEntries({ entries, replace: false });
      queries.setQueryData(keys.catalogue(), catalogue.entries);
      return catalogue;
    },
    done: (_, entries) =>
      `Added ${entries.length === 1 ? entries[0]!.id : `${entries.length} models`} to the catalogue`,
    what: 'add the models',
  });
}
