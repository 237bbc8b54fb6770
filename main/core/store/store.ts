import type { Database } from 'better-sqlite3';
import { AttemptRepository } from './attemptRepository.ts';
import { BatchRepository } from './batchRepository.ts';
import { openDatabase, type OpenDatabaseOptions } from './database.ts';
import { ImageRepository } from './imageRepository.ts';
import { JobRepository } from './jobRepository.ts';
import { QueueRepository } from './queueRepository.ts';
import { transact } from './transaction.ts';

/** The database and its repositories, statements prepared once per open. */
export interface Store {
  readonly db: Database;
  readonly queue: QueueRepository;
  readonly batches: BatchRepository;
  readonly jobs: JobRepository;
  readonly attempts: AttemptRepository;
  readonly images: ImageRepository;
  /** Runs `fn` in one transaction; repository calls inside join it. */
  transaction<T>(fn: () => T): T;
  close(): void;
}

export function openStore(file: string, options: OpenDatabaseOptions = {}): Store {
  const db = openDatabase(file, options);
  const jobs = new JobRepository(db);
  return {
    db,
    queue: new QueueRepository(db),
    batches: new BatchRepository(db, jobs),
    jobs,
    attempts: new AttemptRepository(db),
    images: new ImageRepository(db),
    transaction: (fn) => transact(db, fn),
    close: () => db.close(),
  };
}
