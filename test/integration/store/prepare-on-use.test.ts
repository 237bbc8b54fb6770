import BetterSqlite3 from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { prepareEveryStatement, prepareOnUse } from '../../../main/core/store/prepare-on-use.ts';
import { openStore, StoreDamagedError } from '../../../main/core/store/store.ts';
import { prompts, tempDir } from './temp-store.ts';

/** A database file's path in a new temp folder, removed after the test. */
function dbFile(): string {
  const temp = tempDir();
  onTestFinished(temp.cleanup);
  return path.join(temp.dir, 'atelier.db');
}

describe('statements prepared on use', () => {
  it('have every member of a prepared statement, and behave as one', () => {
    const db = new BetterSqlite3(':memory:');
    try {
      const real = db.prepare('SELECT ? AS n');
      const onUse = prepareOnUse<[number], { n: number }>(db, 'SELECT ? AS n');
      const members = [
        ...Object.getOwnPropertyNames(Object.getPrototypeOf(real)),
        ...Object.keys(real),
      ].filter((name) => name !== 'constructor');
      expect(members.length).toBeGreaterThan(10);
      for (const name of members) expect(name in onUse, name).toBe(true);
      expect(onUse.get(7)).toEqual({ n: 7 });
      expect(onUse.pluck().all(3)).toEqual([3]);
      expect(onUse.reader).toBe(true);
      expect(onUse.source).toBe('SELECT ? AS n');
    } finally {
      db.close();
    }
  });

  it('a new file: none prepared at open, each prepared when used, and every one is valid SQL', () => {
    const store = openStore(dbFile());
    try {
      const batch = store.batches.create({ name: 'b' }, prompts(2), 1);
      expect(store.jobs.counts(batch.id).queued).toBe(2);
      // the rest, prepared now against the schema a new file gets: a typo in any fails here
      expect(prepareEveryStatement(store.db)).toBeGreaterThan(100);
      expect(prepareEveryStatement(store.db)).toBe(0);
    } finally {
      store.close();
    }
  });

  it('a file found on disk: every statement prepared at open', () => {
    const file = dbFile();
    openStore(file).close();
    const store = openStore(file);
    try {
      expect(prepareEveryStatement(store.db)).toBe(0);
    } finally {
      store.close();
    }
  });

  it('a file found on disk without a table its statements name: refused at open', () => {
    const file = dbFile();
    openStore(file).close();
    const db = new BetterSqlite3(file);
    db.pragma('foreign_keys = OFF');
    db.exec('DROP TABLE attempts');
    db.close();
    expect(() => openStore(file)).toThrow(StoreDamagedError);
    expect(() => openStore(file)).toThrow(/no such table: attempts/);
  });
});
