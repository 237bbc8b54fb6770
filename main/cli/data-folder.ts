import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { folderProblem, type FolderProblem } from '../core/library/library-folder.ts';
import { StoreVersionError } from '../core/store/migrations.ts';
import { StoreOpenError } from '../core/store/store-errors.ts';
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

/** Opens (creating it when missing) the data folder's database to run its queue. */
export function openDataFolder(dataDir: string): Store {
  const problem = folderProblem(dataDir);
  if (problem) {
    throw new ConfigError(
      `The data folder ${dataDir} ${problem.problem} (${problem.code}), and Atelier must ` +
        `write its queue there. ${problem.remedy} with --data DIR.`,
    );
  }
  try {
    return openStore(databasePath(dataDir));
  } catch (error) {
    throw explainOpenFailure(error);
  }
}

/**
 * Opens an existing data folder to read it (status), read-only when its volume is:
 * `readOnly` says so.
 */
export function openDataFolderToRead(dataDir: string): { store: Store; readOnly: boolean } {
  try {
    return { store: openStore(databasePath(dataDir)), readOnly: false };
  } catch (error) {
    if (!(error instanceof StoreOpenError && error.problem === 'read-only')) {
      throw explainOpenFailure(error);
    }
  }
  try {
    return { store: openStore(databasePath(dataDir), { readOnly: true }), readOnly: true };
  } catch (error) {
    throw explainOpenFailure(error);
  }
}

/** A database the person must fix (newer, damaged, not SQLite, unwritable): exit 2, not a bug. */
function explainOpenFailure(error: unknown): unknown {
  if (
    error instanceof StoreVersionError ||
    error instanceof StoreDamagedError ||
    error instanceof StoreOpenError
  ) {
    return new ConfigError(error.message);
  }
  return error;
}

/** The refusal of a library folder that cannot take images, with the flag that changes it. */
export function libraryRefusal(folder: string, problem: FolderProblem): ConfigError {
  return new ConfigError(
    `The library folder ${folder} ${problem.problem} (${problem.code}), so no image could be ` +
      `saved there. ${problem.remedy} with --out DIR.`,
  );
}

/** Before a run imports anything: the library must take files (as Engine.start checks). */
export function requireUsableLibrary(folder: string): void {
  const problem = folderProblem(folder);
  if (problem) throw libraryRefusal(folder, problem);
}
