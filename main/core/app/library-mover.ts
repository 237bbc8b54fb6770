import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { lstat, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { LibraryMove } from '../../../shared/api/schemas/app.ts';
import {
  checkMoveTarget,
  copyOne,
  listLibrary,
  removeListed,
  totalBytes,
  type LibraryFile,
} from '../library/library-move.ts';
import { removeStaleTempFiles } from '../library/library-fs.ts';
import type { Logger } from '../logger.ts';
import { lazy } from '../../../shared/api/define.ts';
import { AppError } from './app-error.ts';
import { writeFileAtomic } from './atomic-file.ts';

export type LibraryMoveValue = z.infer<typeof LibraryMove>;

/** The move's journal in the data folder: what a start after a crash resumes or rolls back. */
export const MOVE_JOURNAL = 'library-move.json';

const Journal = lazy(() =>
  z.object({
    version: z.literal(1),
    id: z.string(),
    from: z.string(),
    to: z.string(),
    phase: z.enum(['copying', 'removing']),
    startedAt: z.number(),
  }),
);
type Journal = z.infer<typeof Journal>;

/** Files left where they were, listed at most. */
const MAX_LEFT_BEHIND = 100;

export interface LibraryMoverOptions {
  dataDir: string;
  /** Sends a `library.move` event. */
  publish(move: LibraryMoveValue): void;
  logger: Logger;
  /** The library folder the settings name now. */
  library(): string;
  /** The settings name `to` as the library (the switch: one atomic write of the settings). */
  switchLibrary(to: string): Promise<void>;
  /**
   * Nothing may write into the library while its files move: the queue stops (its requests
   * in flight finish) and may not start until `release`. Resolves once it stopped.
   */
  hold(): Promise<void>;
  release(): Promise<void>;
  /** Why the library cannot move now (another process runs the queue, a download is under way). */
  busy(): string | null;
  /** Shortest time between two progress events (100 ms); the last is never held. */
  intervalMs?: number;
}

/**
 * Moves the library to a new, empty folder, crash-safe: the files are copied first (each to a
 * temp file, flushed, renamed into place), and the settings switch to the new folder only
 * once every one is there; then the old copies go. A journal in the data folder says where it
 * stood, so a move cut off (a crash, a closed app) leaves a library that works — the old
 * folder, whole, while copying; the new one once switched — and can be resumed, or, while it
 * was copying, rolled back. The containment rule holds: no link is followed out of the library.
 */
export class LibraryMover {
  private readonly options: LibraryMoverOptions;
  private readonly journalPath: string;
  private current: LibraryMoveValue | null = null;
  private task: Promise<void> | null = null;
  private abort: AbortController | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastSent = 0;
  /** The service closes: a move cut off now is interrupted, not canceled. */
  private closing = false;

  constructor(options: LibraryMoverOptions) {
    this.options = options;
    this.journalPath = join(options.dataDir, MOVE_JOURNAL);
    const journal = this.readJournal();
    if (journal) {
      // the switch was written, and the crash came before the journal said so
      const phase = options.library() === journal.to ? 'removing' : journal.phase;
      this.current = { ...this.blank(journal), phase, state: 'interrupted' };
    }
  }

  /** A move is copying or removing now. */
  get moving(): boolean {
    return this.task !== null;
  }

  status(): LibraryMoveValue | null {
    return this.current;
  }

  async start(to: string): Promise<LibraryMoveValue> {
    if (this.moving) throw new AppError('conflict', 'The library is being moved already.');
    if (this.current?.state === 'interrupted') {
      throw new AppError(
        'conflict',
        `A move of the library to ${this.current.to} was cut off: resume it, or roll it back, first.`,
      );
    }
    const from = this.options.library();
    await this.refusedIf(() => checkMoveTarget(from, to));
    await this.options.hold();
    const busy = this.options.busy();
    if (busy) {
      await this.options.release();
      throw new AppError('library-busy', busy);
    }
    try {
      await mkdir(to, { recursive: true });
      const journal: Journal = {
        version: 1,
        id: randomUUID(),
        from,
        to,
        phase: 'copying',
        startedAt: Date.now(),
      };
      this.writeJournal(journal);
      this.run(journal);
    } catch (error) {
      await this.options.release();
      throw new AppError(
        'disk',
        `The library cannot be moved to ${to}: ${(error as Error).message}`,
      );
    }
    return this.current!;
  }

  /** Carries on an interrupted move. */
  async resume(): Promise<LibraryMoveValue> {
    const journal = this.interrupted();
    await this.options.hold();
    this.run(journal, this.current!.phase);
    return this.current!;
  }

  /** Undoes an interrupted move that was still copying: its copies go, the library stays. */
  async rollback(): Promise<LibraryMoveValue> {
    const journal = this.interrupted();
    if (this.current!.phase !== 'copying') {
      throw new AppError(
        'conflict',
        `The library is in ${journal.to} already; only the old folder's copies are left to remove: resume the move.`,
      );
    }
    await this.undoCopies(journal);
    this.finish('canceled', null);
    return this.current!;
  }

  /** Stops a move while it copies (its copies are removed); null when none runs. */
  async cancel(): Promise<LibraryMoveValue | null> {
    if (!this.moving) return this.current;
    if (this.current!.phase !== 'copying') {
      throw new AppError(
        'conflict',
        'The library is in its new folder already; the old copies are being removed.',
      );
    }
    this.abort!.abort();
    await this.task;
    return this.current;
  }

  /** The service closes: a move under way stops where it is (as a crash would), to resume. */
  async close(): Promise<void> {
    this.closing = true;
    this.abort?.abort();
    await this.task;
  }

  private run(journal: Journal, phase: Journal['phase'] = 'copying'): void {
    this.abort = new AbortController();
    const { signal } = this.abort;
    this.current = { ...this.blank(journal), phase, state: 'running' };
    this.send();
    this.task = this.move(journal, phase, signal)
      .then(
        () => this.finish('done', null),
        async (error: unknown) => {
          if (signal.aborted && this.closing) {
            this.current = { ...this.current!, state: 'interrupted' };
            return;
          }
          if (signal.aborted) {
            await this.undoCopies(journal).catch((undo: unknown) =>
              this.options.logger.error('undoing the canceled library move', undo),
            );
            return this.finish('canceled', null);
          }
          this.options.logger.error(`moving the library to ${journal.to}`, error);
          // (the library works where the settings say; the journal stays for a resume)
          this.current = {
            ...this.current!,
            state: 'interrupted',
            error: `The move stopped: ${(error as Error).message}. The library works where it is; resume the move, or roll it back.`,
          };
          this.send();
        },
      )
      .finally(async () => {
        this.task = null;
        this.abort = null;
        await this.options.release();
      });
  }

  private async move(
    journal: Journal,
    phase: Journal['phase'],
    signal: AbortSignal,
  ): Promise<void> {
    const left: LibraryMoveValue['leftBehind'] = [];
    const files = await listLibrary(journal.from, ({ rel, reason }) => {
      if (left.length < MAX_LEFT_BEHIND) left.push({ path: rel, reason });
    });
    this.update({ total: files.length, totalBytes: totalBytes(files), leftBehind: left });
    if (phase === 'copying') {
      let done = 0;
      let bytes = 0;
      for (const file of files) {
        if (signal.aborted) throw new Error('canceled');
        await copyOne(journal.from, journal.to, file);
        done += 1;
        bytes += file.bytes;
        this.update({ done, bytes });
      }
      // every file is in the new folder: the library is there from now on
      await this.options.switchLibrary(journal.to);
      this.writeJournal({ ...journal, phase: 'removing' });
      this.update({ phase: 'removing' });
    }
    await removeListed(journal.from, await copied(journal, files));
    this.update({ done: files.length, bytes: totalBytes(files) });
  }

  /** The copies a move made in its new folder go (a file that differs there is left). */
  private async undoCopies(journal: Journal): Promise<void> {
    const files = await listLibrary(journal.from, () => {});
    await removeListed(journal.to, files);
    await removeStaleTempFiles(journal.to, { olderThanMs: 0 }).catch(() => 0);
  }

  private finish(state: 'done' | 'canceled', error: string | null): void {
    rmSync(this.journalPath, { force: true });
    this.current = { ...this.current!, state, error };
    this.send();
  }

  private interrupted(): Journal {
    const journal = this.readJournal();
    if (this.moving || this.current?.state !== 'interrupted' || !journal) {
      throw new AppError('conflict', 'No move of the library is waiting to be resumed.');
    }
    return journal;
  }

  private async refusedIf(check: () => Promise<unknown>): Promise<void> {
    try {
      await check();
    } catch (error) {
      if (error instanceof Error && error.name === 'LibraryMoveRefused') {
        throw new AppError('invalid-argument', error.message);
      }
      throw error;
    }
  }

  private blank(journal: Journal): LibraryMoveValue {
    return {
      id: journal.id,
      state: 'running',
      phase: journal.phase,
      from: journal.from,
      to: journal.to,
      done: 0,
      total: 0,
      bytes: 0,
      totalBytes: 0,
      leftBehind: [],
      error: null,
    };
  }

  private readJournal(): Journal | null {
    let text: string;
    try {
      text = readFileSync(this.journalPath, 'utf8');
    } catch {
      return null;
    }
    const parsed = Journal.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  }

  private writeJournal(journal: Journal): void {
    writeFileAtomic(this.journalPath, `${JSON.stringify(journal, null, 2)}\n`);
  }

  private update(change: Partial<LibraryMoveValue>): void {
    this.current = { ...this.current!, ...change };
    if (this.timer) return;
    const wait = this.lastSent + (this.options.intervalMs ?? 100) - Date.now();
    if (wait <= 0) return this.send();
    this.timer = setTimeout(() => this.send(), wait);
    this.timer.unref();
  }

  private send(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.lastSent = Date.now();
    if (this.current) this.options.publish(this.current);
  }
}

/** The files of the old folder whose copy is in the new one: what may be removed. */
async function copied(journal: Journal, files: readonly LibraryFile[]): Promise<LibraryFile[]> {
  const kept: LibraryFile[] = [];
  for (const file of files) {
    const copy = await lstat(join(journal.to, file.rel)).catch(() => null);
    if (copy?.isFile() && copy.size === file.bytes) kept.push(file);
  }
  return kept;
}
