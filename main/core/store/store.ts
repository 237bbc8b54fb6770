import type { Database } from 'better-sqlite3';
import { AttemptRepository } from './attempt-repository.ts';
import { BatchRepository } from './batch-repository.ts';
import { madeByThisOpen, openDatabase, type OpenDatabaseOptions } from './database.ts';
import { EditRepository } from './edit-repository.ts';
import { GalleryQueries } from './gallery-queries.ts';
import { ImageRepository } from './image-repository.ts';
import { JobRepository } from './job-repository.ts';
import { PageQueries } from './page-queries.ts';
import { prepareEveryStatement } from './prepare-on-use.ts';
import { QueueRepository } from './queue-repository.ts';
import { SpendRepository } from './spend-repository.ts';
import { transact } from './transaction.ts';

/** The database and its repositories (statements prepared on first use: prepare-on-use.ts). */
export interface Store {
  readonly db: Database;
  readonly queue: QueueRepository;
  readonly batches: BatchRepository;
  readonly jobs: JobRepository;
  readonly attempts: AttemptRepository;
  readonly images: ImageRepository;
  /** What edit jobs send, and the images they were made from. */
  readonly edits: EditRepository;
  /** The application's paged reads: batches, job ids by state, attempts. */
  readonly pages: PageQueries;
  /** The gallery's reads and favourites. */
  readonly gallery: GalleryQueries;
  /** What was spent, the prices in force, the caps run past. */
  readonly spend: SpendRepository;
  /** Runs `fn` in one transaction; repository calls inside join it. */
  transaction<T>(fn: () => T): T;
  close(): void;
}

/** SQLite, at a version Atelier knows, but without the tables and columns that version has. */
export class StoreDamagedError extends Error {}

export function openStore(file: string, options: OpenDatabaseOptions = {}): Store {
  const db = openDatabase(file, options);
  try {
    const edits = new EditRepository(db);
    const jobs = new JobRepository(db, edits);
    const store: Store = {
      db,
      queue: new QueueRepository(db),
      batches: new BatchRepository(db, jobs),
      jobs,
      attempts: new AttemptRepository(db),
      images: new ImageRepository(db),
      edits,
      pages: new PageQueries(db),
      gallery: new GalleryQueries(db),
      spend: new SpendRepository(db),
      transaction: (fn) => transact(db, fn),
      close: () => db.close(),
    };
    // A file found on disk has every statement prepared now: a missing table or column shows
    // at open, never mid-run. One this open made from the schema has nothing to show.
    if (!madeByThisOpen(db)) prepareEveryStatement(db);
    return store;
  } catch (error) {
    db.close();
    const { code, message } = error as { code?: string; message: string };
    if (code === 'SQLITE_ERROR' || code === 'SQLITE_CORRUPT') {
      throw new StoreDamagedError(
        `The database ${file} is damaged or was changed by another program (${message}). ` +
          'Restore it from a backup, or choose another data folder (--data DIR). The file ' +
          'was left as it is.',
        { cause: error },
      );
    }
    throw error;
  }
}
