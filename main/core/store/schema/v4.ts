import type { Database } from 'better-sqlite3';

/**
 * Version 4: transition ids are never reused. They are the events' cursor; with a plain
 * INTEGER PRIMARY KEY, deleting the newest batch freed its ids and the next transitions took
 * them again, below what clients had already been sent, so they never heard of those changes.
 * AUTOINCREMENT keeps ids growing whatever is deleted. The table is rebuilt; its index and the
 * triggers that name it are dropped and created again from their own stored text.
 */
export function schemaV4(db: Database): void {
  const dependents = db
    .prepare(
      `SELECT type, name, sql FROM sqlite_master
       WHERE sql IS NOT NULL AND type IN ('index', 'trigger')
         AND (tbl_name = 'job_transitions' OR sql LIKE '%job_transitions%')`,
    )
    .all() as Array<{ type: 'index' | 'trigger'; name: string; sql: string }>;
  for (const { type, name } of dependents) db.exec(`DROP ${type.toUpperCase()} "${name}"`);
  db.exec(`
    CREATE TABLE job_transitions_v4 (
      id         INTEGER PRIMARY KEY AUTOINCREMENT,
      job_id     INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
      from_state TEXT NOT NULL,
      to_state   TEXT NOT NULL,
      at         INTEGER NOT NULL,
      reason     TEXT
    );
    INSERT INTO job_transitions_v4 (id, job_id, from_state, to_state, at, reason)
      SELECT id, job_id, from_state, to_state, at, reason FROM job_transitions;
    DROP TABLE job_transitions;
    ALTER TABLE job_transitions_v4 RENAME TO job_transitions;
  `);
  for (const { sql } of dependents) db.exec(sql);
}
