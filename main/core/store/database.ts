import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { accessSync, constants, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  MIGRATIONS,
  assertKnownVersion,
  latestVersion,
  migrate,
  StoreVersionError,
  userVersion,
  type Migration,
} from './migrations.ts';
import { NEW_FILE_SCHEMA } from './schema/new-file.ts';
import { StoreOpenError } from './store-errors.ts';

/** SQLite's own checkpoint, by the committing connection, once the WAL has this many pages. */
export const AUTOCHECKPOINT_PAGES = 4000;

/**
 * The WAL file is cut back to this size when it starts over: it otherwise stays as large as it
 * once grew (10-40 MB after a 1,000-image run), and closing the database deletes it, which
 * frees every block on the spot (8-28 ms at the end of a run, against 3-4 ms at 4 MB).
 */
export const WAL_SIZE_LIMIT = 4 * 1024 * 1024;

export interface OpenDatabaseOptions {
  /** Replaces the app's migrations (tests). */
  migrations?: readonly Migration[];
  /** How long a writer waits for another connection's lock before failing. */
  busyTimeoutMs?: number;
  /**
   * Only to read it (status on a read-only volume): nothing is written, not even a migration,
   * and an existing file is required.
   */
  readOnly?: boolean;
}

/** The databases openDatabase made (a new, empty file given the schema), not found on disk. */
const madeNow = new WeakSet<Database>();

/** Whether openDatabase made this database's file and schema itself, just now. */
export function madeByThisOpen(db: Database): boolean {
  return madeNow.has(db);
}

/**
 * Opens (or creates) the database file, refuses one from a newer Atelier, then sets the
 * pragmas the store relies on and migrates it to the latest schema.
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Database {
  const migrations = options.migrations ?? MIGRATIONS;
  if (options.readOnly) return openToRead(file, migrations);
  let db: Database;
  try {
    db = new BetterSqlite3(file);
  } catch (error) {
    throw openFailure(file, error);
  }
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    assertKnownVersion(db, file, migrations);
    const created = db.pragma('page_count', { simple: true }) === 0;
    // with WAL, NORMAL loses at most the last commits on power loss, never consistency. A new,
    // empty file gets its header and schema without fsyncs (5 of them: 2-5 ms before a first
    // run's first request); NORMAL then applies, and the first checkpoint syncs the file.
    db.pragma(created ? 'synchronous = OFF' : 'synchronous = NORMAL');
    // WAL: readers (gallery, status) never block the engine's writes
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    // the scheduler's indexes and the hot pages stay in memory (the default cache is 2 MB);
    // a larger cache is no faster and raises the run's peak memory
    db.pragma('cache_size = -8192');
    db.pragma('temp_store = MEMORY');
    // checkpoint less often: fewer fsyncs while a batch runs
    db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
    // (the snapshot of the app's own migrations only: tests give others)
    migrate(db, migrations, options.migrations ? null : NEW_FILE_SCHEMA);
    if (created) {
      db.pragma('synchronous = NORMAL');
      madeNow.add(db);
    }
    return db;
  } catch (error) {
    db.close();
    throw openFailure(file, error);
  }
}

/**
 * Opens an existing database without writing to it. A database in WAL mode on a read-only
 * volume cannot be opened in place once its -shm file is gone (a clean close removes it):
 * then it is read from a copy in memory.
 */
function openToRead(file: string, migrations: readonly Migration[]): Database {
  let db: Database | null = null;
  try {
    db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    userVersion(db);
  } catch (error) {
    db?.close();
    db = null;
    if ((error as { code?: string }).code !== 'SQLITE_CANTOPEN') throw openFailure(file, error);
  }
  try {
    db ??= new BetterSqlite3(inMemoryCopy(file), { readonly: true });
    assertKnownVersion(db, file, migrations);
    if (userVersion(db) < latestVersion(migrations)) {
      throw new StoreOpenError(
        'read-only',
        `The database ${file} was written by an older Atelier and needs an upgrade, which ` +
          'means writing to it, but its folder is read-only. Make it writable, then run again.',
      );
    }
    return db;
  } catch (error) {
    db?.close();
    throw openFailure(file, error);
  }
}

/** The file's bytes, marked as a rollback-journal database: memory databases cannot do WAL. */
function inMemoryCopy(file: string): Buffer {
  const bytes = readFileSync(file);
  // (bytes 18 and 19 of the header: the read and write format versions, 2 for WAL)
  if (bytes.length >= 20 && bytes[18] === 2 && bytes[19] === 2) bytes[18] = bytes[19] = 1;
  return bytes;
}

/** What went wrong opening the file, said so that the person can fix it; never a bug. */
function openFailure(file: string, error: unknown): unknown {
  if (error instanceof StoreVersionError || error instanceof StoreOpenError) return error;
  const { code, message } = error as { code?: string; message?: string };
  const dir = dirname(file);
  switch (code) {
    case 'SQLITE_NOTADB':
      return new StoreOpenError(
        'not-a-database',
        `${file} is not an Atelier database (it is not SQLite, or its first page is damaged). ` +
          'Move it away, or choose another data folder (--data DIR). The file was left as it is.',
        error,
      );
    case 'SQLITE_CORRUPT':
      return new StoreOpenError(
        'damaged',
        `The database ${file} is damaged (${message}). Restore it from a backup, or choose ` +
          'another data folder (--data DIR). The file was left as it is.',
        error,
      );
    case 'SQLITE_FULL':
      return new StoreOpenError(
        'cannot-open',
        `The disk holding the data folder ${dir} is full (${code}). Free some space on it, ` +
          'or choose another data folder (--data DIR).',
        error,
      );
  }
  const unwritable = folderNotWritable(dir);
  if (unwritable) {
    return new StoreOpenError(
      'read-only',
      `The data folder ${dir} ${unwritable}, and Atelier must write its queue there. Make it ` +
        'writable, or choose another data folder (--data DIR).',
      error,
    );
  }
  if (code?.startsWith('SQLITE_')) {
    return new StoreOpenError(
      'cannot-open',
      `Cannot open the database ${file}: ${message} (${code}). Check that the data folder ` +
        'exists and is writable, or choose another one (--data DIR).',
      error,
    );
  }
  return error;
}

/** Why files cannot be written in `dir` ("is on a read-only volume (EROFS)"), or null. */
function folderNotWritable(dir: string): string | null {
  try {
    accessSync(dir, constants.W_OK);
    return null;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'EROFS') return `is on a read-only volume (${code})`;
    if (code === 'EACCES' || code === 'EPERM') return `is not writable by this user (${code})`;
    return null;
  }
}
