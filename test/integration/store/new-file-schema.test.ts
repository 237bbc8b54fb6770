import type BetterSqlite3 from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../main/core/store/database.ts';
import { latestVersion, MIGRATIONS } from '../../../main/core/store/migrations.ts';
import { NEW_FILE_MODULE, newFileModule } from '../../../scripts/new-file-schema.ts';
import { tempDir } from './temp-store.ts';

let cleanup = () => {};
afterEach(() => cleanup());

/** Everything a file holds: its schema as stored, every table's rows (shadow ones too). */
function contents(db: BetterSqlite3.Database) {
  const master = db
    .prepare(
      `SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name, tbl_name, sql`,
    )
    .all() as Array<{ type: string; name: string }>;
  const rows = Object.fromEntries(
    master
      .filter((entry) => entry.type === 'table')
      .map((entry) => [entry.name, db.prepare(`SELECT * FROM "${entry.name}" ORDER BY 1`).all()]),
  );
  return {
    master,
    rows,
    version: db.pragma('user_version', { simple: true }),
    foreignKeys: db.pragma('foreign_key_check'),
    integrity: db.pragma('integrity_check', { simple: true }),
  };
}

describe("a new file's schema in one script (schema/new-file.ts)", () => {
  it('is what the migrations leave today: scripts/new-file-schema.ts was run after the last', () => {
    expect(
      readFileSync(NEW_FILE_MODULE, 'utf8') === newFileModule(),
      'the migrations changed: run `node scripts/new-file-schema.ts`',
    ).toBe(true);
  });

  it('creates the same file as the migrations applied one by one', () => {
    const temp = tempDir();
    cleanup = temp.cleanup;
    const fromScript = openDatabase(path.join(temp.dir, 'script.db'));
    // (migrations given: the step-by-step way, as for a file of an older version)
    const stepByStep = openDatabase(path.join(temp.dir, 'steps.db'), {
      migrations: [...MIGRATIONS],
    });
    try {
      const made = contents(fromScript);
      expect(made.version).toBe(latestVersion());
      expect(made.master.length).toBeGreaterThan(40);
      expect(made.rows['job_transition_rules']).not.toHaveLength(0);
      expect(made).toEqual(contents(stepByStep));
    } finally {
      fromScript.close();
      stepByStep.close();
    }
  });
});
