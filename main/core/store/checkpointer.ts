import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { consoleLogger, type Logger } from '../logger.ts';
import { AUTOCHECKPOINT_PAGES } from './database.ts';
import { storeDiskProblem } from './store-errors.ts';

/**
 * Checkpoints the WAL from a worker thread, so the thread that commits never stalls on it.
 *
 * A checkpoint copies the WAL's pages into the database file and fsyncs it: tens of ms, up
 * to hundreds on a slow disk. Run by the committing connection (SQLite's auto-checkpoint), it
 * freezes the engine's event loop, and with it every answer waiting to be read. Here a second
 * connection in a worker does PASSIVE checkpoints (they never block writers) every
 * `intervalMs`. The main connection keeps an auto-checkpoint as a backstop, raised so that it
 * only runs when the WAL grows past `backstopPages`: by then the worker has copied nearly
 * everything, so the backstop's own work (and stall) is small, and it lets the WAL restart
 * from the beginning, which a checkpoint running beside continuous writes rarely can.
 */
export interface BackgroundCheckpoints {
  /**
   * Stops the worker and gives the main connection its usual auto-checkpoint back; resolves
   * once the worker's connection is closed (the database may then be closed by its last one).
   */
  stop(): Promise<void>;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
// never wait for a lock: a checkpoint that finds one busy is simply tried at the next tick
db.pragma('busy_timeout = 0');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
// each failure said once: a full disk fails every tick, and the engine says that itself
const said = new Set();
const timer = setInterval(() => {
  try { checkpoint.run(); } catch (error) {
    if (error.code !== 'SQLITE_BUSY' && error.code !== 'SQLITE_LOCKED' && !said.has(error.code)) {
      said.add(error.code);
      parentPort.postMessage({ code: String(error.code), message: String(error.message) });
    }
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  // said once the connection is closed: the main thread need not wait for this thread's end
  parentPort.postMessage({ closed: true });
  parentPort.close();
});
`;

export function checkpointInBackground(
  db: Database,
  options: { intervalMs?: number; backstopPages?: number; log?: Logger } = {},
): BackgroundCheckpoints {
  const log = options.log ?? consoleLogger;
  if (db.memory) return { stop: async () => {} };
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, file: db.name, intervalMs: options.intervalMs ?? 200 },
  });
  // A checkpoint the worker cannot do leaves the WAL to the backstop: worth a line, no more;
  // none for a disk that refuses writes (the engine stops on it, and says so once).
  // the worker's connection closed (said by it, or its thread gone): the database may close
  const { promise: released, resolve: closed } = Promise.withResolvers<void>();
  worker.once('exit', () => closed());
  worker.on('message', (message: { closed: true } | { code: string; message: string }) => {
    if ('closed' in message) return closed();
    if (!storeDiskProblem(message)) log.warn(`background checkpoint: ${message.message}`);
  });
  worker.on('error', (error) => {
    // The worker is gone: the main connection checkpoints for itself again.
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    log.warn(`background checkpoints stopped: ${error.message}`);
  });
  worker.unref();
  db.pragma(`wal_autocheckpoint = ${options.backstopPages ?? 16_000}`);
  let stopped: Promise<void> | null = null;
  return {
    stop() {
      stopped ??= (async () => {
        if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
        worker.ref(); // a caller awaiting stop() must not see the process end under it
        worker.postMessage('stop'); // (ignored by a worker that already exited)
        await released;
        // The thread's own end (3-4 ms) holds nothing: the process may exit under it.
        worker.unref();
      })();
      return stopped;
    },
  };
}
