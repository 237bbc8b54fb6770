import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { StoreVersionError } from '../core/store/migrations.ts';
import { openStore, StoreDamagedError, type Store } from '../core/store/store.ts';
import { ConfigError } from './command.ts';

/** Relative to the working directory, like git's: one project folder, one queue. */
export const DEFAULT_DATA_DIR = '.atelier-data';
export const DEFAULT_LIBRARY_DIR = 'atelier-library';

export function databasePath(dataDir: string): string {
  return join(dataDir, 'atelier.db');
}

export function resolveDataDir(flag: string | undefined): string {
  return resolve(flag ?? DEFAULT_DATA_DIR);
}

/** " --data DIR" for suggested commands when the folder is not the default one. */
export function dataFlagSuffix(flag: string | undefined): string {
  if (flag === undefined || resolve(flag) === resolve(DEFAULT_DATA_DIR)) return '';
  return ` --data ${/[\s'"$`\\]/.test(flag) ? `'${flag.replaceAll("'", "'\\''")}'` : flag}`;
}

export function hasDatabase(dataDir: string): boolean {
  return existsSync(databasePath(dataDir));
}

/** Opens (creating when asked) the data folder's database; its problems are the person's to fix. */
export function openDataFolder(dataDir: string): Store {
  try {
    mkdirSync(dataDir, { recursive: true });
    return openStore(databasePath(dataDir));
  } catch (error) {
    if (error instanceof StoreVersionError || error instanceof StoreDamagedError) {
      throw new ConfigError(error.message);
    }
    const { code, message } = error as { code?: string; message: string };
    if (code === 'EACCES' || code === 'EEXIST' || code === 'ENOTDIR' || code === 'EROFS') {
      throw new ConfigError(
        `Cannot use the data folder ${dataDir}: ${message}. Choose another one with --data DIR.`,
      );
    }
    if (/Cannot open the database|not a database/i.test(message)) throw new ConfigError(message);
    throw error;
  }
}
