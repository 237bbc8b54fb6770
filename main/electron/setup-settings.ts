import { join } from 'node:path';
import { app } from 'electron';
import type { Logger } from '../core/logger.ts';
import { SettingsFile } from '../core/settings/settings-file.ts';

/** electron-store's settings file of older versions, merged into the data folder's once. */
export const OLD_SETTINGS_NAME = 'settings';

/**
 * The desktop's settings: the data folder's `settings.json` through the core, the same file
 * the CLI and `atelier ui` read and write on that folder. The settings older versions kept in
 * electron-store (`<userData>/settings.json`) are merged in once and left as
 * `settings.json.migrated`; a file that cannot be read is set aside and reported, never wiped.
 */
export function setupSettings(dataDir: string, logger?: Logger): SettingsFile {
  return new SettingsFile({
    dataDir,
    legacyFiles: [
      { path: join(app.getPath('userData'), `${OLD_SETTINGS_NAME}.json`), kind: 'app' },
    ],
    ...(logger ? { logger } : {}),
  });
}
