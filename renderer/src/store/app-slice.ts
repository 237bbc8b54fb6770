import { errorMessage } from './error-message.ts';
import type { AppSlice, SliceCreator } from './state.ts';

export const createAppSlice: SliceCreator<AppSlice> = (api) => (set, get) => ({
  info: null,
  keyStatus: null,
  settings: null,
  settingsStale: false,
  appError: null,

  async loadApp() {
    try {
      const info = await api.app.info();
      set({ info, appError: null });
    } catch (error) {
      set({ appError: errorMessage(error) });
      return;
    }
    await get().loadSettings();
  },

  async loadSettings() {
    set({ settingsStale: false });
    try {
      const [settings, keyStatus] = await Promise.all([api.settings.get(), api.key.status()]);
      set({ settings, keyStatus });
    } catch (error) {
      set({ appError: errorMessage(error) });
    }
  },

  async updateSettings(patch) {
    const settings = await api.settings.update(patch);
    set({ settings });
    return settings;
  },
});
