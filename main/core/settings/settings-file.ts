import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  unwatchFile,
  watchFile,
} from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { Settings } from '../../../shared/api/schemas/settings.ts';
import { NEW_FOLDER_TEMPLATE } from '../../../shared/library/templates.ts';
import { AppError } from '../app/app-error.ts';
import { writeFileAtomic } from '../app/atomic-file.ts';
import {
  backupPathFor,
  type MigratedSettings,
  type RecoveredSettings,
  type SettingsListener,
  type SettingsStore,
  type SettingsValue,
} from '../app/settings-store.ts';
import type { Logger } from '../logger.ts';
import {
  mergeSettings,
  readLegacy,
  type LegacyFile,
  type LegacySettings,
} from './legacy-settings.ts';
import { PARSE_ONCE } from '../../../shared/api/define.ts';

export const SETTINGS_FILE = 'settings.json';
/** The CLI's own file before the data folder had one settings file. */
const CLI_SETTINGS_FILE = 'cli-settings.json';
/** The file's shape; a file without it is an older version's, read once and migrated. */
export const SETTINGS_VERSION = 2;

const SettingsFileSchema = Settings.extend({ version: z.literal(SETTINGS_VERSION) });

export interface SettingsFileOptions {
  dataDir: string;
  /** Older settings files outside the data folder (the desktop's electron-store file). */
  legacyFiles?: readonly LegacyFile[];
  /** A new data folder's values where the host's differ from the schema's defaults. */
  seed?: Partial<SettingsValue>;
  /** Reads only: nothing is migrated, set aside or written (status, a read-only disk). */
  readOnly?: boolean;
  /** How often the file is checked for another process's changes; 0 never (default 500 ms). */
  watchIntervalMs?: number;
  logger?: Logger;
  now?: () => Date;
}

/**
 * The data folder's settings: `<data>/settings.json`, one schema for every host, written whole
 * (temp file, fsync, rename) and readable by its owner only. At open, the files older versions
 * wrote are merged in once (the newer file wins, by modification time) and left with a
 * `.migrated` suffix; a file that cannot be read is set aside (`settings.corrupt-<time>.json`),
 * never wiped. Another process's change (the CLI and `atelier ui` on one folder) is noticed by
 * polling the file's stat, so the SQLite log's writes beside it cost nothing, and reaches
 * `subscribe`rs; this process's own writes are told apart by their text.
 */
export class SettingsFile implements SettingsStore {
  readonly path: string;
  readonly recovered: RecoveredSettings | null;
  readonly migrated: MigratedSettings | null;
  private current: SettingsValue;
  /** The file's text as last read or written here: a change to anything else is another's. */
  private text: string | null;
  private migratedValues: Map<string, string>;
  private readonly listeners = new Set<SettingsListener>();
  private readonly options: SettingsFileOptions;
  private watching = false;
  private debounce: NodeJS.Timeout | null = null;

  constructor(options: SettingsFileOptions) {
    this.options = options;
    this.path = join(options.dataDir, SETTINGS_FILE);
    const opened = this.open();
    this.current = opened.settings;
    this.text = opened.text;
    this.recovered = opened.recovered;
    this.migrated = opened.migrated;
    this.migratedValues = opened.values;
  }

  read(): SettingsValue {
    return structuredClone(this.current);
  }

  /** Whether any settings were ever saved for this data folder (in this file or older ones). */
  get saved(): boolean {
    return this.text !== null || this.migrated !== null;
  }

  write(settings: SettingsValue): void {
    const valid = Settings.parse(settings, PARSE_ONCE);
    if (this.options.readOnly) {
      throw new AppError('disk', `The settings in ${this.path} are open read-only here.`);
    }
    const text = render(valid);
    try {
      mkdirSync(this.options.dataDir, { recursive: true });
      writeFileAtomic(this.path, text);
    } catch (error) {
      throw new AppError(
        'disk',
        `Cannot save the settings to ${this.path}: ${(error as Error).message}. Make the data ` +
          'folder writable, then try again.',
      );
    }
    this.text = text;
    this.current = valid;
  }

  takeMigratedHeaderValues(): Map<string, string> {
    const values = this.migratedValues;
    this.migratedValues = new Map();
    return values;
  }

  subscribe(listener: SettingsListener): () => void {
    this.listeners.add(listener);
    this.watch();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.close();
    };
  }

  close(): void {
    this.listeners.clear();
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = null;
    if (this.watching) unwatchFile(this.path, this.onStat);
    this.watching = false;
  }

  private watch(): void {
    const interval = this.options.watchIntervalMs ?? 500;
    if (this.watching || interval <= 0) return;
    this.watching = true;
    watchFile(this.path, { interval, persistent: false }, this.onStat);
  }

  /** A stat changed: read the file once things are quiet (a rename can come in two steps). */
  private readonly onStat = (): void => {
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => this.reload(), 50);
    this.debounce.unref();
  };

  /** Takes another process's change; one that cannot be read is left for that process to fix. */
  private reload(): void {
    this.debounce = null;
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return; // removed, or being replaced: the next change is read
    }
    if (text === this.text) return;
    let parsed: SettingsValue | string;
    try {
      parsed = parseFile(text);
    } catch (error) {
      parsed = (error as Error).message;
    }
    if (typeof parsed === 'string') {
      this.options.logger?.warn(
        `${this.path} was changed by another program and cannot be used (${parsed}); ` +
          'the settings stay as they were.',
      );
      return;
    }
    const previous = this.current;
    this.text = text;
    this.current = parsed;
    for (const listener of this.listeners) listener(this.read(), previous);
  }

  private open(): {
    settings: SettingsValue;
    text: string | null;
    recovered: RecoveredSettings | null;
    migrated: MigratedSettings | null;
    values: Map<string, string>;
  } {
    const now = this.options.now ?? (() => new Date());
    let recovered: RecoveredSettings | null = null;
    const setAside = (path: string, reason: string) => {
      const backupPath = this.options.readOnly ? path : backupPathFor(path, now());
      if (!this.options.readOnly) renameSync(path, backupPath);
      this.options.logger?.warn(
        `${path} could not be read (${reason}); set aside as ${backupPath}.`,
      );
      recovered ??= { backupPath, reason: `The settings file could not be read: ${reason}.` };
    };

    let current: { settings: SettingsValue; text: string; mtimeMs: number } | null = null;
    const legacy: Array<LegacyFile & { read: LegacySettings; mtimeMs: number }> = [];
    const consider = (file: LegacyFile, json: unknown, mtimeMs: number) => {
      const read = readLegacy(file.kind, json);
      if (typeof read === 'string') setAside(file.path, read);
      else legacy.push({ ...file, read, mtimeMs });
    };

    if (existsSync(this.path)) {
      const text = readFileSync(this.path, 'utf8');
      const mtimeMs = statSync(this.path).mtimeMs;
      const read = parseJson(text);
      if (typeof read === 'string') setAside(this.path, read);
      else if (isObject(read.json) && 'version' in read.json) {
        const parsed = parseFile(text);
        if (typeof parsed === 'string') setAside(this.path, parsed);
        else current = { settings: parsed, text, mtimeMs };
      } else consider({ path: this.path, kind: 'app' }, read.json, mtimeMs);
    }
    const others: LegacyFile[] = [
      { path: join(this.options.dataDir, CLI_SETTINGS_FILE), kind: 'cli' },
      ...(this.options.legacyFiles ?? []),
    ];
    for (const file of others) {
      if (!existsSync(file.path)) continue;
      const read = parseJson(readFileSync(file.path, 'utf8'));
      if (typeof read === 'string') setAside(file.path, read);
      else consider(file, read.json, statSync(file.path).mtimeMs);
    }

    if (legacy.length === 0) {
      if (current) return { ...current, recovered, migrated: null, values: new Map() };
      // a new data folder names its files by model and size too; an older one keeps its names
      const fresh = { template: NEW_FOLDER_TEMPLATE, ...this.options.seed };
      return {
        settings: Settings.parse(recovered ? {} : fresh, PARSE_ONCE),
        text: null,
        recovered,
        migrated: null,
        values: new Map(),
      };
    }

    // the newer wins: each file is written whole at every change, so its time is its last one's
    const sources = [
      ...(current
        ? [{ fields: current.settings as Partial<SettingsValue>, mtimeMs: current.mtimeMs }]
        : []),
      ...legacy.map((file) => ({ fields: file.read.fields, mtimeMs: file.mtimeMs })),
    ].sort((a, b) => a.mtimeMs - b.mtimeMs);
    const settings = mergeSettings(
      sources.map((s) => s.fields),
      current ? {} : (this.options.seed ?? {}),
    );
    const ids = new Set(settings.profiles.flatMap((p) => p.headers.map((h) => h.id)));
    const values = new Map<string, string>();
    const headers: string[] = [];
    for (const file of legacy) {
      for (const [id, value] of file.read.values) {
        if (!ids.has(id)) continue;
        values.set(id, value);
        const profile = settings.profiles.find((p) => p.headers.some((h) => h.id === id))!;
        headers.push(`${profile.name}: ${profile.headers.find((h) => h.id === id)!.name}`);
      }
    }
    const migrated = { from: legacy.map((file) => file.path), headers };
    if (this.options.readOnly) {
      return { settings, text: null, recovered, migrated, values };
    }
    const text = render(settings);
    try {
      // the old file named like the new one is copied first: a crash leaves it to migrate again
      const inPlace = legacy.find((file) => file.path === this.path);
      if (inPlace) copyFileSync(this.path, migratedPathFor(this.path, now()));
      mkdirSync(this.options.dataDir, { recursive: true });
      writeFileAtomic(this.path, text);
      for (const file of legacy) {
        if (file !== inPlace) renameSync(file.path, migratedPathFor(file.path, now()));
      }
    } catch (error) {
      // (a read-only data folder: the merged settings serve this run; the next one tries again)
      this.options.logger?.warn(
        `The older settings files could not be moved into ${this.path}: ` +
          `${(error as Error).message}. They are read again next time.`,
      );
      return { settings, text: null, recovered, migrated, values };
    }
    this.options.logger?.info(
      `Settings from ${migrated.from.join(', ')} were merged into ${this.path} (the newer ` +
        'file wins where they differ); the old files are kept with a .migrated suffix.',
    );
    return { settings, text, recovered, migrated, values };
  }
}

function render(settings: SettingsValue): string {
  return `${JSON.stringify({ version: SETTINGS_VERSION, ...settings }, null, 2)}\n`;
}

/** `cli-settings.json.migrated`, or with the time when one is there already. */
function migratedPathFor(path: string, at: Date): string {
  const plain = `${path}.migrated`;
  return existsSync(plain) ? `${plain}-${at.toISOString().replaceAll(':', '-')}` : plain;
}

/** The JSON in a file, or why it is not JSON. */
function parseJson(text: string): { json: unknown } | string {
  try {
    return { json: JSON.parse(text) as unknown };
  } catch (error) {
    return `it is not valid JSON (${(error as Error).message})`;
  }
}

/** The file's text as settings, or why it cannot be used. */
function parseFile(text: string): SettingsValue | string {
  const read = parseJson(text);
  if (typeof read === 'string') return read;
  const { json } = read;
  if (isObject(json) && typeof json.version === 'number' && json.version > SETTINGS_VERSION) {
    throw new AppError(
      'settings-invalid',
      'The settings were written by a newer Atelier: update Atelier to use this data folder.',
    );
  }
  const parsed = SettingsFileSchema.safeParse(json, PARSE_ONCE);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return `${issue.path.join('.') || 'the file'}: ${issue.message}`;
  }
  const { version: _version, ...settings } = parsed.data;
  return settings;
}

function isObject(json: unknown): json is Record<string, unknown> {
  return typeof json === 'object' && json !== null && !Array.isArray(json);
}
