import { renameSync } from 'node:fs';
import { Settings } from '../../shared/api/schemas/settings.ts';
import {
  backupPathFor,
  type RecoveredSettings,
  type SettingsStore,
  type SettingsValue,
} from '../core/app/settings-store.ts';

/** What conf (and electron-store, which extends it) offers that this module uses. */
export interface JsonFileStore {
  readonly path: string;
  store: Record<string, unknown>;
}

export interface OpenSettingsOptions<F extends JsonFileStore> {
  /** Where the file is: known before opening, since a file that fails to open names nothing. */
  path: string;
  /** Opens the store; must be built with `clearInvalidConfig: false`, so a bad file throws. */
  open: () => F;
  now?: () => Date;
}

/**
 * Opens the settings file, or, when it cannot be read (not JSON, rejected by a schema, or
 * valid JSON that is not the contract's `Settings`), renames it to
 * `settings.corrupt-<time>.json` beside it and opens a fresh one with the defaults. The
 * person's file is never wiped: `recovered` says where it went and why, for the app to show.
 */
export function openSettingsFile<F extends JsonFileStore>(
  options: OpenSettingsOptions<F>,
): { file: F; settings: SettingsValue; recovered: RecoveredSettings | null } {
  let reason: string;
  try {
    const file = options.open();
    const parsed = Settings.safeParse(file.store);
    if (parsed.success) return { file, settings: parsed.data, recovered: null };
    reason = `its settings are not valid (${parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || 'file'}: ${i.message}`)
      .join('; ')})`;
  } catch (error) {
    if (!isUnreadableFile(error)) throw error;
    reason =
      (error as Error).name === 'SyntaxError' ? 'it is not valid JSON' : 'a schema check failed';
  }
  const backupPath = backupPathFor(options.path, (options.now ?? (() => new Date()))());
  renameSync(options.path, backupPath);
  const file = options.open();
  return {
    file,
    settings: Settings.parse(file.store),
    recovered: { backupPath, reason: `The settings file could not be read: ${reason}.` },
  };
}

/** conf's errors for a file it cannot read: not JSON, or failing its JSON schema. */
export function isUnreadableFile(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'SyntaxError' || error.message.startsWith('Config schema violation'))
  );
}

export { backupPathFor } from '../core/app/settings-store.ts';

/**
 * A `SettingsStore` over a conf-like file: read from memory (checked once at open), every
 * write checked with the contract's schema before it reaches the file.
 */
export class FileSettingsStore implements SettingsStore {
  readonly recovered: RecoveredSettings | null;
  private readonly file: JsonFileStore;
  private current: SettingsValue;

  constructor(opened: ReturnType<typeof openSettingsFile>) {
    this.file = opened.file;
    this.current = opened.settings;
    this.recovered = opened.recovered;
  }

  read(): SettingsValue {
    return structuredClone(this.current);
  }

  write(settings: SettingsValue): void {
    const checked = Settings.parse(settings);
    this.file.store = checked as Record<string, unknown>;
    this.current = checked;
  }
}
