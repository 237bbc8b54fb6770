import { basename, dirname, extname, join } from 'node:path';
import type { z } from 'zod';
import type { Settings } from '../../../shared/api/schemas/settings.ts';

export type SettingsValue = z.infer<typeof Settings>;

/** A settings file that could not be read and was set aside, never silently wiped. */
export interface RecoveredSettings {
  backupPath: string;
  reason: string;
}

/** Settings files of older versions merged into this one when it was opened. */
export interface MigratedSettings {
  /** The files read, each left beside itself with a `.migrated` suffix. */
  from: string[];
  /** Extra headers found in plain text ("profile: header"), whose values are kept apart now. */
  headers: string[];
}

/** Called when another process changed the settings (another host on the same data folder). */
export type SettingsListener = (next: SettingsValue, previous: SettingsValue) => void;

/**
 * The data folder's settings (`main/core/settings/settings-file.ts`): one file, one schema,
 * whatever the host. Header values are never here: the settings name them by id.
 */
export interface SettingsStore {
  read(): SettingsValue;
  write(settings: SettingsValue): void;
  /** Set when the file was unreadable at start and was backed up. */
  readonly recovered: RecoveredSettings | null;
  /** Set when older settings files were merged into this one at start. */
  readonly migrated: MigratedSettings | null;
  /** Header values older files kept in plain text, by their new ids: taken once. */
  takeMigratedHeaderValues(): Map<string, string>;
  /** Hears changes another process makes to the file; returns what stops listening. */
  subscribe(listener: SettingsListener): () => void;
  /** Stops watching the file. */
  close(): void;
}

/** `settings.corrupt-2025-01-02T03-04-05.678Z.json`: ISO time, colons made file-name safe. */
export function backupPathFor(path: string, at: Date): string {
  const extension = extname(path);
  const stem = basename(path, extension);
  const time = at.toISOString().replaceAll(':', '-');
  return join(dirname(path), `${stem}.corrupt-${time}${extension || '.json'}`);
}
