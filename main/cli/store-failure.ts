import { storeDiskProblem } from '../core/store/store-errors.ts';

/**
 * A database failure that reached the command unhandled but is the disk's or the file's, not
 * a bug: what to say (exit 2), or null for anything else.
 */
export function describeStoreFailure(error: unknown): string | null {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (storeDiskProblem(error)) {
    return (
      `the data folder's disk refused a write (${String(code)}: ${String(message)}). Free ` +
      'some space on it or make it writable again, then run the command again.'
    );
  }
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') {
    return (
      `the data folder's database is damaged (${String(message)}). Restore it from a ` +
      'backup, or choose another data folder (--data DIR).'
    );
  }
  return null;
}
