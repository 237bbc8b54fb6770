import type { OutputOf } from '../../../shared/api/types.ts';
import type { KeyStatus, SettingsPatch, Settings, SliceCreator } from './state.ts';

export type CatalogueEntry = OutputOf<'models', 'catalogue'>['entries'][number];
export type LibraryInfo = OutputOf<'library', 'info'>;
export type ConnectionTest = OutputOf<'key', 'test'>;

/**
 * What the Settings screen loads besides the settings themselves. The key passes through
 * `setKey` to the service and is never kept here: only its status (the last four) is.
 */
export interface SettingsSlice {
  catalogue: readonly CatalogueEntry[] | null;
  libraryInfo: LibraryInfo | null;
  loadCatalogue(): Promise<void>;
  /** Replaces the person's own entries (every one); throws the service's refusal. */
  saveUserModels(entries: readonly unknown[]): Promise<void>;
  loadLibraryInfo(): Promise<void>;
  /** Moves the library; throws the service's refusal (e.g. library-busy). */
  moveLibrary(dir: string): Promise<void>;
  /** The file name a template would give a typical image (the live example). Throws. */
  previewTemplate(template: string): Promise<string>;
  /** Saves a change; when it changes which gateway is used, the frame's info follows. */
  saveSettings(patch: SettingsPatch): Promise<Settings>;
  setKey(key: string): Promise<KeyStatus>;
  clearKey(): Promise<KeyStatus>;
  testConnection(): Promise<ConnectionTest>;
}

export const createSettingsSlice: SliceCreator<SettingsSlice> = (api) => (set, get) => {
  /** The status bar names the gateway in use, which a key or a choice starts or stops. */
  const refreshInfo = async () => set({ info: await api.app.info() });
  // (not awaited: what was saved shows at once; the status bar follows when it can)
  const followInfo = () => void refreshInfo().catch(() => {});
  return {
    catalogue: null,
    libraryInfo: null,

    async loadCatalogue() {
      const { entries } = await api.models.catalogue();
      set({ catalogue: entries });
    },

    async saveUserModels(entries) {
      const catalogue = await api.models.saveUserEntries({ entries: [...entries] });
      set({ catalogue: catalogue.entries });
    },

    async loadLibraryInfo() {
      set({ libraryInfo: await api.library.info() });
    },

    async moveLibrary(dir) {
      const libraryInfo = await api.library.setLocation({ dir });
      set({ libraryInfo, settings: await api.settings.get() });
    },

    async previewTemplate(template) {
      return (await api.library.previewTemplate({ template })).example;
    },

    async saveSettings(patch) {
      const settings = await get().updateSettings(patch);
      if (patch.gateway !== undefined || patch.profiles !== undefined) followInfo();
      return settings;
    },

    async setKey(key) {
      const keyStatus = await api.key.set({ key });
      set({ keyStatus });
      followInfo();
      return keyStatus;
    },

    async clearKey() {
      const keyStatus = await api.key.clear();
      set({ keyStatus });
      followInfo();
      return keyStatus;
    },

    testConnection() {
      return api.key.test();
    },
  };
};
