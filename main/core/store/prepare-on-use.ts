import type { ColumnDefinition, Database, RunResult, Statement } from 'better-sqlite3';

/**
 * Statements prepared on their first use: a repository names all of its statements at open,
 * but a run uses a third of them, and preparing the ~150 took 6-7 ms before a run's first
 * request. openStore still prepares every one at once for a database found on disk
 * (`prepareEveryStatement`), so a missing table or column shows at open, never mid-run; one
 * this process has just made from the schema has nothing to find.
 */

/** Per database, the statements named and not yet prepared. */
const unprepared = new WeakMap<Database, Set<StatementOnUse<unknown[], unknown>>>();

/** As `db.prepare(source)`, prepared when first used. */
export function prepareOnUse<P extends unknown[] = unknown[], R = unknown>(
  db: Database,
  source: string,
): Statement<P, R> {
  const statement = new StatementOnUse<P, R>(db, source);
  let waiting = unprepared.get(db);
  if (!waiting) unprepared.set(db, (waiting = new Set()));
  waiting.add(statement as unknown as StatementOnUse<unknown[], unknown>);
  // (the alias better-sqlite3 exports is conditional on P; a test checks every member is here)
  return statement as unknown as Statement<P, R>;
}

/** A repository's `sql(source)`: prepareOnUse on `db`, the row's type named per statement. */
export function sqlOn(db: Database) {
  return <Row = unknown>(source: string) => prepareOnUse<unknown[], Row>(db, source);
}

/**
 * Prepares every statement of `db` named by prepareOnUse and not used yet (SQLite's error
 * when one names a table or column the database lacks); how many it prepared.
 */
export function prepareEveryStatement(db: Database): number {
  const waiting = unprepared.get(db);
  if (!waiting) return 0;
  let count = 0;
  for (const statement of [...waiting]) {
    statement.prepared();
    count++;
  }
  return count;
}

// (a toggle is passed on as given: better-sqlite3 refuses an explicit undefined)
class StatementOnUse<P extends unknown[], R> {
  readonly database: Database;
  readonly source: string;
  private statement: Statement<P, R> | null = null;

  constructor(database: Database, source: string) {
    this.database = database;
    this.source = source;
  }

  prepared(): Statement<P, R> {
    if (this.statement) return this.statement;
    this.statement = this.database.prepare<P, R>(this.source);
    unprepared.get(this.database)?.delete(this as unknown as StatementOnUse<unknown[], unknown>);
    return this.statement;
  }

  get reader(): boolean {
    return this.prepared().reader;
  }

  get readonly(): boolean {
    return this.prepared().readonly;
  }

  get busy(): boolean {
    return this.statement?.busy ?? false;
  }

  run(...params: P): RunResult {
    return this.prepared().run(...params);
  }

  get(...params: P): R | undefined {
    return this.prepared().get(...params);
  }

  all(...params: P): R[] {
    return this.prepared().all(...params);
  }

  iterate(...params: P): IterableIterator<R> {
    return this.prepared().iterate(...params);
  }

  pluck(...toggleState: [boolean?]): this {
    this.prepared().pluck(...toggleState);
    return this;
  }

  expand(...toggleState: [boolean?]): this {
    this.prepared().expand(...toggleState);
    return this;
  }

  raw(...toggleState: [boolean?]): this {
    this.prepared().raw(...toggleState);
    return this;
  }

  bind(...params: P): this {
    this.prepared().bind(...params);
    return this;
  }

  columns(): ColumnDefinition[] {
    return this.prepared().columns();
  }

  safeIntegers(...toggleState: [boolean?]): this {
    this.prepared().safeIntegers(...toggleState);
    return this;
  }
}
