import type { Database, Transaction } from 'better-sqlite3';

type Runner = Transaction<(fn: () => unknown) => unknown>;

/**
 * better-sqlite3 builds a new wrapper on every `db.transaction(fn)` call, which costs more
 * than a small transaction itself; one runner per database, reused, removes that cost.
 * Nested calls join the open transaction.
 */
const runners = new WeakMap<Database, Runner>();

export function transact<T>(
  db: Database,
  fn: () => T,
  mode: 'deferred' | 'immediate' = 'deferred',
): T {
  // Inside a transaction already: join it. A throw still rolls the whole outer one back, and no
  // caller catches an inner failure to carry on, so a savepoint per call would buy nothing.
  if (db.inTransaction) return fn();
  let runner = runners.get(db);
  if (!runner) {
    runner = db.transaction((body: () => unknown) => body());
    runners.set(db, runner);
  }
  return (mode === 'immediate' ? runner.immediate(fn) : runner(fn)) as T;
}
