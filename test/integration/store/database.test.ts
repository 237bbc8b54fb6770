import BetterSqlite3 from 'better-sqlite3';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, WAL_SIZE_LIMIT } from '../../../main/core/store/database.ts';
import {
  MIGRATIONS,
  StoreVersionError,
  latestVersion,
  type Migration,
} from '../../../main/core/store/migrations.ts';
import { tempDir } from './temp-store.ts';

let cleanup = () => {};
afterEach(() => cleanup());

function dbFile(): string {
  const temp = tempDir();
  cleanup = temp.cleanup;
  return path.join(temp.dir, 'atelier.db');
}

const tables = (db: BetterSqlite3.Database) =>
  (
    db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as Array<{
      name: string;
    }>
  ).map((row) => row.name);

describe('openDatabase', () => {
  it('creates the schema from an empty file at the latest version', () => {
    const db = openDatabase(dbFile());
    expect(db.pragma('user_version', { simple: true })).toBe(latestVersion());
    expect(tables(db)).toEqual(
      expect.arrayContaining([
        'attempts',
        'batch_state_counts',
        'batches',
        'image_payloads',
        'images',
        'job_transition_rules',
        'job_transitions',
        'jobs',
        'jobs_fts',
        'queue_state',
      ]),
    );
    db.close();
  });

  it('sets WAL, foreign keys, synchronous NORMAL and a busy timeout', () => {
    const file = dbFile();
    const db = openDatabase(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    db.prepare(
      `INSERT INTO batches (name, dir_name, dir_key, created_at) VALUES ('b', 'b', 'b', 0)`,
    ).run();
    expect(existsSync(`${file}-wal`)).toBe(true);
    db.close();
    // (a new file is made without fsyncs: the setting must be NORMAL again once it is, and on
    // every later open)
    const again = openDatabase(file);
    expect(again.pragma('synchronous', { simple: true })).toBe(1);
    again.close();
  });

  it('cuts the WAL file back when it starts over, so that closing has little to delete', () => {
    const file = dbFile();
    const db = openDatabase(file);
    db.exec('CREATE TABLE filler (bytes BLOB)');
    const insert = db.prepare('INSERT INTO filler (bytes) VALUES (?)');
    // (past the limit while a reader holds the WAL: nothing can be checkpointed meanwhile)
    const reader = new BetterSqlite3(file);
    reader.exec('BEGIN; SELECT count(*) FROM batches;');
    for (let i = 0; i < 80; i++) insert.run(Buffer.alloc(100_000, i));
    reader.exec('COMMIT');
    reader.close();
    const walSize = () => statSync(`${file}-wal`).size;
    expect(walSize()).toBeGreaterThan(WAL_SIZE_LIMIT);
    db.pragma('wal_checkpoint(PASSIVE)');
    insert.run(Buffer.alloc(10, 0)); // the WAL starts over, from its first frame
    expect(walSize()).toBeLessThanOrEqual(WAL_SIZE_LIMIT);
    db.close();
  });

  it('enforces foreign keys', () => {
    const db = openDatabase(dbFile());
    expect(() =>
      db
        .prepare(
          `INSERT INTO jobs (batch_id, position, prompt, model, created_at, updated_at)
           VALUES (999, 1, 'p', 'm', 0, 0)`,
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
    db.close();
  });

  it('keeps data and does not migrate again on reopen', () => {
    const file = dbFile();
    let applied = 0;
    const next = latestVersion() + 1;
    const counting: Migration[] = [
      ...MIGRATIONS,
      { version: next, name: 'count', up: () => void applied++ },
    ];
    const first = openDatabase(file, { migrations: counting });
    first.prepare(`UPDATE queue_state SET pause_reason = 'kept'`).run();
    first.close();
    const second = openDatabase(file, { migrations: counting });
    expect(applied).toBe(1);
    expect(second.pragma('user_version', { simple: true })).toBe(next);
    expect(second.prepare('SELECT pause_reason FROM queue_state').pluck().get()).toBe('kept');
    second.close();
  });

  it('refuses a database from a newer Atelier and leaves the file unchanged', () => {
    const file = dbFile();
    const future = new BetterSqlite3(file);
    future.exec('CREATE TABLE from_the_future (x)');
    future.pragma('user_version = 99');
    future.close();

    let error: unknown;
    try {
      openDatabase(file);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StoreVersionError);
    expect((error as Error).message).toContain('schema version 99');
    expect((error as Error).message).toContain(`versions up to ${latestVersion()}`);
    expect((error as Error).message).toContain('Update Atelier');

    const after = new BetterSqlite3(file);
    expect(after.pragma('user_version', { simple: true })).toBe(99);
    expect(after.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(tables(after)).toEqual(['from_the_future']);
    after.close();
  });

  it('rolls a failed migration back whole, version included', () => {
    const file = dbFile();
    const broken: Migration[] = [
      ...MIGRATIONS,
      {
        version: latestVersion() + 1,
        name: 'half done',
        up: (db) => {
          db.exec('CREATE TABLE half_done (x)');
          throw new Error('boom');
        },
      },
    ];
    expect(() => openDatabase(file, { migrations: broken })).toThrow('boom');
    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(latestVersion());
    expect(tables(db)).not.toContain('half_done');
    db.close();
  });

  it('refuses migrations numbered with a gap', () => {
    const next = latestVersion() + 1;
    const gap: Migration[] = [...MIGRATIONS, { version: next + 1, name: 'gap', up: '' }];
    expect(() => openDatabase(dbFile(), { migrations: gap })).toThrow(`expected ${next}`);
  });

  it('explains a file that is not a database', () => {
    const file = dbFile();
    writeFileSync(file, 'this is not sqlite, just some text that is long enough'.repeat(20));
    expect(() => openDatabase(file)).toThrow(/is not an Atelier database/);
  });
});
