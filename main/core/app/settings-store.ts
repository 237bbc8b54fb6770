import { basename, dirname, extname, join } from 'node:path';
import type { z } from 'zod';
import type { Settings } from '../../../shared/api/schemas/settings.ts';

export type SettingsValue = z.infer<typeof Settings>;

/** A settings file that could not be read and was set aside, never silently wiped. */
export interface RecoveredSettings {
  backupPath: string;
  reason: string;
}

/**
 * Where the person's settings are kept: electron-store on the desktop, a JSON file in the
 * data folder for the browser host. Both validate with the contract's `Settings` schema.
 */
export interface SettingsStore {
  read(): SettingsValue;
  write(settings: SettingsValue): void;
  /** Set when the file was unreadable at start and was backed up. */
  readonly recovered: RecoveredSettings | null;
}

/** `settings.corrupt-2025-01-02T03-04-05.678Z.json`: ISO time, colons made file-name safe. */
export function backupPathFor(path: string, at: Date): string {
  const extension = extname(path);
  const stem = basename(path, extension);
  const time = at.toISOString().replaceAll(':', '-');
  return join(dirname(path), `${stem}.corrupt-${time}${extension || '.json'}`);
}
