import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { MIGRATIONS, assertKnownVersion, migrate, type Migration } from './migrations.ts';

/** SQLite's own checkpoint, by the committing connection, once the WAL has this many pages. */
export const AUTOCHECKPOINT_PAGES = 4000;

export interface OpenDatabaseOptions {
  /** Replaces the app's migrations (tests). */
  migrations?: readonly Migration[];
  /** How long a writer waits for another connection's lock before failing. */
  busyTimeoutMs?: number;
}

/**
 * Opens (or creates) the database file, refuses one from a newer Atelier, then sets the
 * pragmas the store relies on and migrates it to the latest schema.
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Database {
  const migrations = options.migrations ?? MIGRATIONS;
  let db: Database;
  try {
    db = new BetterSqlite3(file);
  } catch (error) {
    throw new Error(
      `Cannot open the database ${file}: ${(error as Error).message}. Check that the data ` +
        `folder exists and is writable, or choose another one (--data DIR).`,
      { cause: error },
    );
  }
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    assertKnownVersion(db, file, migrations);
    // WAL: readers (gallery, status) never block the engine's writes
    db.pragma('journal_mode = WAL');
    // with WAL, NORMAL loses at most the last commits on power loss, never consistency
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // the scheduler's indexes and the hot pages stay in memory (the default cache is 2 MB);
    // 16 MB measured no faster over 100,000 jobs, and held the run's peak 36 MB higher
    db.pragma('cache_size = -8192');
    db.pragma('temp_store = MEMORY');
    // checkpoint less often: fewer fsyncs while a batch runs, the WAL kept under ~64 MB
    db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    db.pragma('journal_size_limit = 67108864');
    migrate(db, migrations);
    return db;
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_NOTADB') {
      throw new Error(
        `${file} is not an Atelier database (it is not SQLite). Move it away or choose another ` +
          `data folder (--data DIR).`,
        { cause: error },
      );
    }
    throw error;
  }
}
