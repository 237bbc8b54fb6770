import type { Database } from 'better-sqlite3';

/** The tables whose ids a client holds on to and acts on later. */
const TABLES = ['batches', 'jobs', 'images'] as const;
const NAMES_ANY = new RegExp(`\\b(${TABLES.join('|')})\\b`);

/**
 * Version 5: batch, job and image ids are never reused. With a plain INTEGER PRIMARY KEY,
 * deleting the newest image freed its id for the next one, so a stale window's "delete image
 * 26" could trash a newer image. AUTOINCREMENT keeps ids growing whatever is deleted.
 *
 * Each table is rebuilt from its own stored definition (the columns later versions added
 * included), with AUTOINCREMENT on its id, its rows copied with their ids; the indexes and
 * triggers that name any of them are dropped first and created again from their own stored
 * text. Foreign keys are off meanwhile (the migration asks for it: dropping a table others
 * refer to would otherwise cascade), and checked before it commits. The prompt search keeps
 * its index: it follows the jobs by id, and every id is kept.
 */
export function schemaV5(db: Database): void {
  const dependents = db
    .prepare(
      `SELECT type, name, tbl_name, sql FROM sqlite_master
       WHERE sql IS NOT NULL AND type IN ('index', 'trigger')`,
    )
    .all()
    .filter((row) => {
      const { tbl_name: table, sql } = row as { tbl_name: string; sql: string };
      return (TABLES as readonly string[]).includes(table) || NAMES_ANY.test(sql);
    }) as Array<{ type: 'index' | 'trigger'; name: string; sql: string }>;
  for (const { type, name } of dependents) db.exec(`DROP ${type.toUpperCase()} "${name}"`);
  for (const table of TABLES) {
    const rebuilt = `${table}_v5`;
    db.exec(withAutoincrement(tableSql(db, table), table, rebuilt));
    db.exec(`INSERT INTO ${rebuilt} SELECT * FROM ${table}`);
  }
  for (const table of TABLES) db.exec(`DROP TABLE ${table}`);
  for (const table of TABLES) db.exec(`ALTER TABLE ${table}_v5 RENAME TO ${table}`);
  for (const { sql } of dependents) db.exec(sql);
}

function tableSql(db: Database, table: string): string {
  const row = db
    .prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`)
    .get(table) as { sql: string } | undefined;
  if (!row) throw new Error(`The table ${table} is missing: the database is not one Atelier made.`);
  return row.sql;
}

/** `CREATE TABLE <table> (id INTEGER PRIMARY KEY, …)` as `<rebuilt>` with AUTOINCREMENT. */
function withAutoincrement(sql: string, table: string, rebuilt: string): string {
  const head = new RegExp(`^CREATE TABLE "?${table}"? \\(`);
  const id = /^(\s*id\s+INTEGER\s+PRIMARY\s+KEY)(\s*,)/m;
  if (!head.test(sql) || !id.test(sql)) {
    throw new Error(`The table ${table} has no "id INTEGER PRIMARY KEY" to keep growing.`);
  }
  return sql.replace(head, `CREATE TABLE ${rebuilt} (`).replace(id, '$1 AUTOINCREMENT$2');
}
