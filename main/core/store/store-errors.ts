import { dirname } from 'node:path';

/** Why the database's disk refuses writes: it is full, read-only, or failing. */
export type StoreDiskProblem = 'full' | 'read-only' | 'io';

function sqliteCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/**
 * The disk's failure rather than one write's (SQLITE_FULL, SQLITE_READONLY…, SQLITE_IOERR…):
 * every later write fails the same way until the person acts. Null for anything else (a
 * constraint, a busy lock: those concern one write, or pass).
 */
export function storeDiskProblem(error: unknown): StoreDiskProblem | null {
  const code = sqliteCode(error);
  if (code === 'SQLITE_FULL') return 'full';
  if (code.startsWith('SQLITE_READONLY')) return 'read-only';
  if (code.startsWith('SQLITE_IOERR') || code === 'SQLITE_CANTOPEN') return 'io';
  return null;
}

/**
 * The data folder stopped taking writes in the middle of a run. The engine stops sending
 * requests and keeps what it receives aside (see engine/unrecorded-answers.ts); `code` is the
 * pause code it reports.
 */
export class StoreDiskError extends Error {
  readonly problem: StoreDiskProblem;
  readonly dataDir: string;
  readonly code: `data-folder-${StoreDiskProblem}`;

  constructor(file: string, problem: StoreDiskProblem, cause: unknown) {
    const dataDir = dirname(file);
    const sqlite = sqliteCode(cause) || 'unknown error';
    const what = {
      full: [`The disk holding the data folder ${dataDir} is full`, 'Free some space on it'],
      'read-only': [`The data folder ${dataDir} became read-only`, 'Make it writable again'],
      io: [`The disk holding the data folder ${dataDir} failed to write`, 'Check the disk'],
    }[problem];
    super(
      `${what[0]} (${sqlite}): Atelier cannot record its work there. ${what[1]}, then ` +
        'resume; no request is sent until then.',
      { cause },
    );
    this.name = 'StoreDiskError';
    this.problem = problem;
    this.dataDir = dataDir;
    this.code = `data-folder-${problem}`;
  }
}

/** Why a database cannot be opened: the person's to fix, never a bug. */
export type StoreOpenProblem = 'not-a-database' | 'damaged' | 'read-only' | 'cannot-open';

export class StoreOpenError extends Error {
  readonly problem: StoreOpenProblem;

  constructor(problem: StoreOpenProblem, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'StoreOpenError';
    this.problem = problem;
  }
}
