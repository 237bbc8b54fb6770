import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { KeySource } from '../../main/core/gateway/context.ts';
import { createGatewayClient, type GatewayClient } from '../../main/core/gateway/client.ts';
import { Engine, type EngineOptions } from '../../main/core/engine/engine.ts';
import { isTempFileName } from '../../main/core/library/library-fs.ts';
import { startGateway, type GatewayOptions } from '../../main/simulator/index.ts';
import type { RunningGateway } from '../../main/simulator/index.ts';
import type { NewJob } from '../../main/core/store/job-repository.ts';
import type { Batch, Job } from '../../main/core/store/rows.ts';
import { openStore, type Store } from '../../main/core/store/store.ts';
import { canTransition } from '../../shared/jobs/states.ts';
import { createCatalogue, type Catalogue } from '../../shared/gateway/catalogue.ts';
import type { GatewayProfileInput } from '../../shared/gateway/profile.ts';

/** Small, quick retries: the rules are what is tested, not the waiting. */
export const FAST_BACKOFF = { baseMs: 5, capMs: 20, maxAttempts: 5, maxRetryAfterMs: 200 };

export interface EngineRig {
  dir: string;
  libraryDir: string;
  dbFile: string;
  store: Store;
  gateway: RunningGateway;
  client: GatewayClient;
  engine: Engine;
  /** A batch of image jobs (flux-schnell, 16x16 by default) straight into the store. */
  batch(
    jobs: number | Array<Partial<NewJob>>,
    options?: { name?: string; priority?: number; paused?: boolean },
  ): Batch;
  /** A fresh engine on the same store and client (the previous one must be stopped). */
  newEngine(options?: Partial<EngineOptions>): Engine;
  close(): Promise<void>;
}

export interface RigOptions {
  gateway?: GatewayOptions;
  engine?: Partial<EngineOptions>;
  apiKey?: KeySource;
  catalogue?: Catalogue;
  /** Profile settings besides the simulator's address (e.g. short time-outs). */
  profile?: Omit<GatewayProfileInput, 'baseUrl'>;
  /** Don't start the engine (the test starts it, e.g. after breaking the library). */
  start?: boolean;
  /** Where the database goes in the rig's folder (e.g. on a small disk the test mounts). */
  dbFile?: (dir: string) => string;
}

export function baseJob(i: number, overrides: Partial<NewJob> = {}): NewJob {
  return { prompt: `prompt ${i}`, model: 'flux-schnell', size: '16x16', ...overrides };
}

export async function engineRig(options: RigOptions = {}): Promise<EngineRig> {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-engine-'));
  const libraryDir = join(dir, 'library');
  const dbFile = options.dbFile?.(dir) ?? join(dir, 'atelier.db');
  const store = openStore(dbFile);
  const gateway = await startGateway(options.gateway ?? {});
  const catalogue = options.catalogue ?? createCatalogue();
  const client = createGatewayClient({
    profile: { ...options.profile, baseUrl: gateway.url },
    apiKey: options.apiKey ?? gateway.key,
    catalogue,
  });
  const engineOptions = (extra: Partial<EngineOptions> = {}): EngineOptions => ({
    store,
    client,
    libraryDir,
    concurrency: 4,
    backoff: FAST_BACKOFF,
    downloadBackoff: FAST_BACKOFF,
    ...options.engine,
    ...extra,
  });
  let engine = new Engine(engineOptions());
  let counter = 0;
  const rig: EngineRig = {
    dir,
    libraryDir,
    dbFile,
    store,
    gateway,
    client,
    get engine() {
      return engine;
    },
    batch(jobs, batchOptions = {}) {
      const list = typeof jobs === 'number' ? Array.from({ length: jobs }, () => ({})) : jobs;
      return store.batches.create(
        { name: batchOptions.name ?? `batch ${++counter}`, ...batchOptions },
        list.map((job, i) => baseJob(i + 1, job)),
        Date.now(),
      );
    },
    newEngine(extra) {
      engine = new Engine(engineOptions(extra));
      return engine;
    },
    async close() {
      await engine.stop({ abort: true }).catch(() => {});
      await client.close();
      await gateway.close();
      if (store.db.open) store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  if (options.start !== false) await engine.start();
  return rig;
}

/** The person fixes what paused the queue and resumes it: it runs to the end, no longer paused. */
export async function resumeAfterFix(rig: EngineRig, fix: (rig: EngineRig) => void): Promise<void> {
  fix(rig);
  rig.engine.resume();
  expect(await rig.engine.whenIdle()).toBe('done');
  await rig.gateway.idle();
  expect(rig.engine.progress().paused).toBeNull();
}

export function jobsOf(store: Store, batchId: number): Job[] {
  return store.jobs.listInBatch(batchId, { position: 0, id: 0 }, 1_000_000);
}

/** Ledger entries of the request ids a job's attempts recorded. */
export function ledgerOfJob(store: Store, gateway: RunningGateway, jobId: number) {
  const ids = new Set(
    store.attempts
      .listForJob(jobId)
      .map((a) => a.requestId)
      .filter((id): id is string => id !== null),
  );
  return gateway.ledger.entries().filter((entry) => ids.has(entry.requestId));
}

/** Every transition of the job is one the shared table allows, and they chain from `queued`. */
export function assertLegalPath(store: Store, jobId: number): string[] {
  const log = store.jobs.transitionsOf(jobId);
  let state = 'queued';
  for (const t of log) {
    if (t.from !== state) throw new Error(`job ${jobId}: log jumps from ${state} to ${t.from}`);
    if (!canTransition(t.from, t.to)) throw new Error(`job ${jobId}: ${t.from}→${t.to} is illegal`);
    state = t.to;
  }
  const current = store.jobs.get(jobId)!.state;
  if (current !== state) throw new Error(`job ${jobId}: log ends at ${state}, job is ${current}`);
  return log.map((t) => `${t.from}→${t.to}`);
}

export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Files under the library (relative paths), temp files included. */
export function libraryFiles(libraryDir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    let names: string[];
    try {
      names = readdirSync(join(libraryDir, rel));
    } catch {
      return;
    }
    for (const name of names) {
      const path = rel ? `${rel}/${name}` : name;
      if (statSync(join(libraryDir, path)).isDirectory()) walk(path);
      else out.push(path);
    }
  };
  walk('');
  return out.sort();
}

export function tempFiles(libraryDir: string): string[] {
  return libraryFiles(libraryDir).filter((path) => isTempFileName(path.split('/').pop()!));
}
