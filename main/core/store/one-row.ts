import type { Statement } from 'better-sqlite3';

/** The row a query always returns (an aggregate, or a row the transaction knows exists). */
export function oneRow<R>(statement: Statement<unknown[], R>, ...params: unknown[]): R {
  const row = statement.get(...params);
  if (row === undefined) throw new Error('A query that always returns a row returned none.');
  return row;
}
