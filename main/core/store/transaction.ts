import type { Database, Transaction } from 'better-sqlite3';

type Runner = Transaction<(fn: () => unknown) => unknown>;

/**
 * better-sqlite3 builds a new wrapper on every `db.transaction(fn)` call, which costs more
 * than a small transaction itself; one runner per database, reused, removes that cost.
 * Nested calls join the open transaction.
 */
const runners = new WeakMap<Database, Runner>();

function runnerOf(db: Database): Runner {
  let runner = runners.get(db);
  if (!runner) {
    runner = db.transaction((body: () => unknown) => body());
    runners.set(db, runner);
  }
  return runner;
}

export function transact<T>(
  db: Database,
  fn: () => T,
  mode: 'deferred' | 'immediate' = 'deferred',
): T {
  // Inside a transaction already: join it. A throw still rolls the whole outer one back, and no
  // caller catches an inner failure to carry on, so a savepoint per call would buy nothing.
  if (db.inTransaction) return fn();
  const runner = runnerOf(db);
  return (mode === 'immediate' ? runner.immediate(fn) : runner(fn)) as T;
}

/** Inside an open transaction: `fn` in a savepoint of its own, rolled back alone if it throws. */
export function savepoint<T>(db: Database, fn: () => T): T {
  if (!db.inTransaction) throw new Error('savepoint() runs inside an open transaction only.');
  // (better-sqlite3 turns a transaction function called inside a transaction into a savepoint)
  return runnerOf(db)(fn) as T;
}

/** How a group of writes is committed: one transaction, each write in its own savepoint. */
export interface WriteScopes {
  transaction(fn: () => void): void;
  savepoint<T>(fn: () => T): T;
}

export function writeScopes(db: Database): WriteScopes {
  return {
    transaction: (fn) => transact(db, fn, 'immediate'),
    savepoint: (fn) => savepoint(db, fn),
  };
}
