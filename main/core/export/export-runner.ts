import { randomUUID } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import type { z } from 'zod';
import type { ExportProgress as ExportProgressSchema } from '../../../shared/api/schemas/images.ts';
import type { Logger } from '../logger.ts';
import type { ExportRecord } from './manifest-rows.ts';
import { writeExportZip } from './zip-export.ts';

export type ExportProgress = z.infer<typeof ExportProgressSchema>;

export interface ExportRunnerOptions {
  /** Sends an `export.progress` event. */
  publish(progress: ExportProgress): void;
  logger: Logger;
  /** Shortest time between two progress events of one export (100 ms); the last is never held. */
  intervalMs?: number;
  /** Finished exports remembered for `get` and downloads (the newest 50). */
  keep?: number;
}

export interface ExportPlan {
  path: string;
  /** The file at `path` the person agreed to replace, held open (see writeExportZip). */
  replaces?: FileHandle | null;
  total: number;
  records: Iterable<ExportRecord> | AsyncIterable<ExportRecord>;
}

interface Running {
  progress: ExportProgress;
  abort: AbortController;
  task: Promise<void>;
  timer: NodeJS.Timeout | null;
  lastSent: number;
}

/**
 * The exports of this process: each runs in the background and says how far it got, at most
 * about ten times a second and always when it ends; it can be canceled; the ones that ended
 * are remembered (a bounded number) so a client can still ask, or download the zip.
 */
export class ExportRunner {
  private readonly running = new Map<string, Running>();
  private readonly ended = new Map<string, ExportProgress>();
  private readonly intervalMs: number;
  private readonly keep: number;
  private readonly options: ExportRunnerOptions;

  constructor(options: ExportRunnerOptions) {
    this.options = options;
    this.intervalMs = options.intervalMs ?? 100;
    this.keep = options.keep ?? 50;
  }

  start(plan: ExportPlan): string {
    const id = randomUUID();
    const progress: ExportProgress = {
      id,
      state: 'running',
      path: plan.path,
      done: 0,
      total: plan.total,
      bytes: 0,
      error: null,
    };
    const abort = new AbortController();
    const run: Running = { progress, abort, task: Promise.resolve(), timer: null, lastSent: 0 };
    this.running.set(id, run);
    this.send(run);
    run.task = writeExportZip({
      dest: plan.path,
      replaces: plan.replaces ?? null,
      records: plan.records,
      signal: abort.signal,
      onProgress: ({ done, bytes }) => {
        run.progress = { ...run.progress, done, bytes };
        this.sendSoon(run);
      },
    }).then(
      () => this.end(run, 'done', null),
      (error: unknown) => {
        if (abort.signal.aborted) return this.end(run, 'canceled', null);
        const message = error instanceof Error ? error.message : String(error);
        this.options.logger.error(`export ${id} to ${plan.path} failed`, error);
        this.end(run, 'failed', `The export failed: ${message}`);
      },
    );
    return id;
  }

  get(id: string): ExportProgress | undefined {
    return this.running.get(id)?.progress ?? this.ended.get(id);
  }

  /** Whether an export is writing to this path now. */
  writes(path: string): boolean {
    return [...this.running.values()].some((run) => run.progress.path === path);
  }

  /** Stops a running export (its part file removed); false when the id is unknown. */
  async cancel(id: string): Promise<boolean> {
    const run = this.running.get(id);
    if (!run) return this.ended.has(id);
    run.abort.abort();
    await run.task;
    return true;
  }

  /** Cancels what runs and waits for it to clean up (the service is closing). */
  async close(): Promise<void> {
    await Promise.all([...this.running.keys()].map((id) => this.cancel(id)));
  }

  private end(run: Running, state: ExportProgress['state'], error: string | null): void {
    run.progress = { ...run.progress, state, error };
    this.running.delete(run.progress.id);
    this.ended.set(run.progress.id, run.progress);
    for (const id of this.ended.keys()) {
      if (this.ended.size <= this.keep) break;
      this.ended.delete(id);
    }
    this.send(run);
  }

  /** The latest progress within the interval, one event at its end. */
  private sendSoon(run: Running): void {
    if (run.timer) return;
    const wait = run.lastSent + this.intervalMs - Date.now();
    if (wait <= 0) return this.send(run);
    run.timer = setTimeout(() => this.send(run), wait);
    run.timer.unref();
  }

  private send(run: Running): void {
    if (run.timer) clearTimeout(run.timer);
    run.timer = null;
    run.lastSent = Date.now();
    this.options.publish(run.progress);
  }
}
