import type {
  RecoveredSettings,
  SettingsStore,
  SettingsValue,
} from '../core/app/settings-store.ts';

/**
 * The data folder's settings with one command's flags over them (`--demo`, `--gateway URL`),
 * for this run only: a command that only asks something of the service never rewrites what
 * the app saved.
 */
export class SettingsOverlay implements SettingsStore {
  private readonly base: SettingsStore;
  private readonly patch: Partial<SettingsValue>;

  constructor(base: SettingsStore, patch: Partial<SettingsValue>) {
    this.base = base;
    this.patch = patch;
  }

  get recovered(): RecoveredSettings | null {
    return this.base.recovered;
  }

  read(): SettingsValue {
    return { ...this.base.read(), ...this.patch };
  }

  write(): void {
    throw new Error('These settings are read for one command and are not saved.');
  }
}
