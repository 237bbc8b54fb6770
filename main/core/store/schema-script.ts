import type { Database } from 'better-sqlite3';

interface MasterRow {
  type: 'table' | 'index' | 'trigger' | 'view';
  name: string;
  sql: string;
}

/**
 * A database's whole schema and rows as one script that builds it again in an empty file:
 * its tables (virtual ones create their own shadow tables), their rows, then its indexes,
 * triggers and views, each as SQLite stored its text. The rows go in before the triggers
 * exist, so none fires: the copy holds the rows as they are, not what inserting them again
 * would add. Meant for a schema's seed rows (a few), not for data.
 */
export function schemaScript(db: Database): string {
  const shadowOrInternal = new Set(
    (db.pragma('table_list') as Array<{ schema: string; name: string; type: string }>)
      .filter((table) => table.schema === 'main')
      .filter((table) => table.type === 'shadow' || table.name.startsWith('sqlite_'))
      .map((table) => table.name),
  );
  const rows = (
    db
      .prepare(`SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid`)
      .all() as MasterRow[]
  ).filter((row) => !shadowOrInternal.has(row.name));
  const ofType = (type: MasterRow['type']) =>
    rows.filter((row) => row.type === type).map((row) => `${row.sql};`);
  const plainTables = rows
    .filter((row) => row.type === 'table' && !/^CREATE VIRTUAL TABLE/i.test(row.sql))
    .map((row) => row.name);
  // (sqlite_sequence exists once a table has AUTOINCREMENT; its rows are the ids given so far)
  const withRows = shadowOrInternal.has('sqlite_sequence')
    ? [...plainTables, 'sqlite_sequence']
    : plainTables;
  return [
    ...ofType('table'),
    ...withRows.flatMap((table) => insertsOf(db, table)),
    ...ofType('index'),
    ...ofType('trigger'),
    ...ofType('view'),
  ].join('\n');
}

/** `table`'s rows as INSERT statements, each value as SQLite quotes it. */
function insertsOf(db: Database, table: string): string[] {
  const name = `"${table.replaceAll('"', '""')}"`;
  const columns = (db.pragma(`table_info(${name})`) as Array<{ name: string }>).map(
    (column) => `quote("${column.name.replaceAll('"', '""')}")`,
  );
  return db
    .prepare(
      `SELECT 'INSERT INTO ${name} VALUES(' || ${columns.join(` || ',' || `)} || ');' FROM ${name}`,
    )
    .pluck()
    .all() as string[];
}
