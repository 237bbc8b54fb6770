import type { Database } from 'better-sqlite3';
import { schemaV1 } from './schema/v1.ts';
import { schemaV2 } from './schema/v2.ts';
import { schemaV3 } from './schema/v3.ts';
import { schemaV4 } from './schema/v4.ts';
import { schemaV5 } from './schema/v5.ts';
import { schemaV6 } from './schema/v6.ts';
import { schemaV7 } from './schema/v7.ts';
import { schemaV8 } from './schema/v8.ts';
import { schemaV9 } from './schema/v9.ts';
import { transact } from './transaction.ts';

/** Brings the schema from `version - 1` to `version`. Runs inside a transaction. */
export interface Migration {
  version: number;
  name: string;
  up: string | ((db: Database) => void);
  /**
   * It rebuilds tables that others refer to: foreign keys are off while it runs (SQLite
   * cannot switch them inside a transaction, and dropping such a table would cascade), and
   * checked before it commits.
   */
  rebuildsTables?: boolean;
}

/** In order; a version is never edited once released, only followed by a new one. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'batches, jobs, attempts, images, transitions, prompt search', up: schemaV1 },
  { version: 2, name: 'download counts per batch, kept by triggers', up: schemaV2 },
  {
    version: 3,
    name: 'pause kind; image batch, model, size, done_at; paging indexes',
    up: schemaV3,
  },
  { version: 4, name: 'transition ids never reused (the events cursor)', up: schemaV4 },
  {
    version: 5,
    name: 'batch, job and image ids never reused',
    up: schemaV5,
    rebuildsTables: true,
  },
  { version: 6, name: 'edits: the picture and mask a job sends, the image it edits', up: schemaV6 },
  {
    version: 7,
    name: "a video job's submission, last check, platform status and overdue mark",
    up: schemaV7,
  },
  {
    version: 8,
    name: 'spend by day, gateway, batch and model; budget pauses; image seeds; gallery facets',
    up: schemaV8,
  },
  { version: 9, name: "a batch's video jobs, counted from an index", up: schemaV9 },
];

export function latestVersion(migrations: readonly Migration[] = MIGRATIONS): number {
  return migrations.at(-1)?.version ?? 0;
}

/** The file was written by a newer Atelier: opening it here could corrupt what it knows. */
export class StoreVersionError extends Error {
  readonly fileVersion: number;
  readonly knownVersion: number;

  constructor(file: string, fileVersion: number, knownVersion: number) {
    super(
      `The database ${file} has schema version ${fileVersion}, but this Atelier only knows ` +
        `versions up to ${knownVersion}: it was written by a newer Atelier. Update Atelier, or ` +
        `use another data folder (--data DIR). The file was left unchanged.`,
    );
    this.name = 'StoreVersionError';
    this.fileVersion = fileVersion;
    this.knownVersion = knownVersion;
  }
}

export function userVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Refuses a database from the future before anything is written to it. */
export function assertKnownVersion(
  db: Database,
  file: string,
  migrations: readonly Migration[] = MIGRATIONS,
): void {
  const current = userVersion(db);
  const known = latestVersion(migrations);
  if (current > known) throw new StoreVersionError(file, current, known);
}

/** What `migrations` leave in a new file, as one script (schema/new-file.ts). */
export interface SchemaSnapshot {
  version: number;
  sql: string;
}

/**
 * Applies each pending migration in its own transaction, together with its user_version
 * bump: a failed migration leaves the file exactly at the previous version. A new file (at
 * version 0) gets `snapshot` instead when it is of the latest version: the same schema in one
 * script and one transaction, in a fraction of the time (nine migrations, one of them
 * rebuilding three tables, each change making SQLite read its schema again).
 * Returns the versions applied.
 */
export function migrate(
  db: Database,
  migrations: readonly Migration[] = MIGRATIONS,
  snapshot: SchemaSnapshot | null = null,
): number[] {
  checkOrder(migrations);
  if (snapshot?.version === latestVersion(migrations) && userVersion(db) === 0) {
    transact(
      db,
      () => {
        db.exec(snapshot.sql);
        db.pragma(`user_version = ${snapshot.version}`);
      },
      'immediate',
    );
    return migrations.map((migration) => migration.version);
  }
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version <= userVersion(db)) continue;
    const keysOff =
      migration.rebuildsTables === true && db.pragma('foreign_keys', { simple: true });
    if (keysOff) db.pragma('foreign_keys = OFF');
    try {
      transact(
        db,
        () => {
          if (typeof migration.up === 'string') db.exec(migration.up);
          else migration.up(db);
          if (keysOff) checkForeignKeys(db, migration);
          // user_version lives in the file header and is rolled back with the transaction
          db.pragma(`user_version = ${migration.version}`);
        },
        'immediate',
      );
    } finally {
      if (keysOff) db.pragma('foreign_keys = ON');
    }
    applied.push(migration.version);
  }
  return applied;
}

function checkForeignKeys(db: Database, migration: Migration): void {
  const broken = db.pragma('foreign_key_check') as Array<{ table: string; rowid: number }>;
  if (broken.length > 0) {
    const first = broken[0]!;
    throw new Error(
      `Migration ${migration.version} ("${migration.name}") would leave ${broken.length} ` +
        `rows pointing at nothing (the first: ${first.table} row ${first.rowid}); it was not ` +
        'applied and the file is unchanged.',
    );
  }
}

function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((migration, i) => {
    if (migration.version !== i + 1) {
      throw new Error(
        `Migration "${migration.name}" has version ${migration.version}, expected ${i + 1}: ` +
          `migrations must be numbered 1, 2, 3… without gaps.`,
      );
    }
  });
}
