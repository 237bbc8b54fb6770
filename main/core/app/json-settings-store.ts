import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { Settings } from '../../../shared/api/schemas/settings.ts';
import { writeFileAtomic } from './atomic-file.ts';
import {
  backupPathFor,
  type RecoveredSettings,
  type SettingsStore,
  type SettingsValue,
} from './settings-store.ts';

export const SETTINGS_FILE = 'settings.json';

/**
 * The browser host's settings: `<data>/settings.json`, validated with the contract's schema,
 * written whole (temp file, fsync, rename). A file that cannot be read or fails the schema
 * is renamed aside (`settings.corrupt-<time>.json`) and reported, never silently wiped.
 */
export class JsonSettingsStore implements SettingsStore {
  readonly recovered: RecoveredSettings | null;
  private readonly path: string;
  private current: SettingsValue;

  constructor(dataDir: string, now: () => Date = () => new Date()) {
    this.path = join(dataDir, SETTINGS_FILE);
    const loaded = load(this.path);
    if (loaded.ok) {
      this.current = loaded.settings;
      this.recovered = null;
    } else {
      const backupPath = backupPathFor(this.path, now());
      renameSync(this.path, backupPath);
      this.current = Settings.parse({});
      this.recovered = { backupPath, reason: loaded.reason };
    }
  }

  read(): SettingsValue {
    return this.current;
  }

  write(settings: SettingsValue): void {
    const valid = Settings.parse(settings);
    writeFileAtomic(this.path, `${JSON.stringify(valid, null, 2)}\n`);
    this.current = valid;
  }
}

function load(path: string): { ok: true; settings: SettingsValue } | { ok: false; reason: string } {
  if (!existsSync(path)) return { ok: true, settings: Settings.parse({}) };
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return { ok: false, reason: `it is not valid JSON (${(error as Error).message})` };
  }
  const parsed = Settings.safeParse(json);
  if (parsed.success) return { ok: true, settings: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { ok: false, reason: `${issue.path.join('.') || 'the file'}: ${issue.message}` };
}
