import { join } from 'node:path';
import { app } from 'electron';
import ElectronStore from 'electron-store';
import { FileSettingsStore, openSettingsFile } from './settings-file.ts';

export const SETTINGS_NAME = 'settings';

/**
 * The desktop's settings: `<userData>/settings.json` through electron-store, checked with the
 * contract's `Settings` schema. A file that cannot be read is set aside and reported, never
 * cleared (`clearInvalidConfig: false`).
 */
export function setupSettings(): FileSettingsStore {
  const dir = app.getPath('userData');
  return new FileSettingsStore(
    openSettingsFile({
      path: join(dir, `${SETTINGS_NAME}.json`),
      open: () =>
        new ElectronStore<Record<string, unknown>>({
          name: SETTINGS_NAME,
          cwd: dir,
          clearInvalidConfig: false,
        }),
    }),
  );
}
