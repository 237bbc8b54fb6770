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
