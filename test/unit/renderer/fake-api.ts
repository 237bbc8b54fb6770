import type { ApiError, Result } from '../../../shared/api/errors.ts';
import { buildRawApi } from '../../../shared/api/raw-client.ts';
import type {
  Api,
  EventListener,
  EventSource,
  RawApi,
  StreamLostListener,
} from '../../../shared/api/types.ts';
import { unwrap } from '../../../shared/api/unwrap.ts';
import type {
  BatchSummary,
  ImageDetail,
  ImageSummary,
  JobSummary,
  Progress,
  QueueState,
} from '../../../renderer/src/data/types.ts';
import type { JobState } from '../../../shared/jobs/states.ts';

export type Handler = (input: never) => unknown;

/** Thrown by a handler to answer with an error Result. */
export class Refusal {
  readonly error: ApiError;
  constructor(error: ApiError) {
    this.error = error;
  }
}

export interface Fake {
  api: Api;
  raw: RawApi;
  /** Every call, as "area.method" and its input. */
  calls: Array<{ name: string; input: unknown }>;
  /** Delivers to every subscriber. */
  emit: EventListener;
  /** Tells every subscriber its stream was lost, as the HTTP transport does. */
  lose: StreamLostListener;
  subscribers: () => number;
}

/** An Api over `buildRawApi` whose methods answer from `handlers` ("area.method" → fn). */
export function fakeApi(handlers: Record<string, Handler> = {}): Fake {
  const calls: Fake['calls'] = [];
  const listeners = new Set<EventListener>();
  const losers = new Set<StreamLostListener>();
  const events: EventSource = {
    subscribe(_cursor, listener, onLost) {
      listeners.add(listener);
      if (onLost) losers.add(onLost);
      return () => {
        listeners.delete(listener);
        if (onLost) losers.delete(onLost);
      };
    },
  };
  const raw = buildRawApi(async (area, method, input): Promise<Result<unknown>> => {
    const name = `${area}.${method}`;
    calls.push({ name, input });
    const handler = handlers[name];
    if (!handler) {
      return { ok: false, error: { code: 'internal', message: `${name} not faked` } };
    }
    try {
      // a copy, as every transport gives (IPC, JSON): the window never shares the fake's objects
      return {
        ok: true,
        value: structuredClone(await (handler as (i: unknown) => unknown)(input)),
      };
    } catch (error) {
      if (error instanceof Refusal) return { ok: false, error: error.error };
      throw error;
    }
  }, events);
  return {
    api: unwrap(raw),
    raw,
    calls,
    emit: (batch) => {
      for (const listener of listeners) listener(batch);
    },
    lose: (lost) => {
      for (const onLost of losers) onLost(lost);
    },
    subscribers: () => listeners.size,
  };
}

export const zeroJobs = () => ({
  queued: 0,
  running: 0,
  retrying: 0,
  succeeded: 0,
  failed: 0,
  canceled: 0,
});
export const zeroDownloads = () => ({ pending: 0, downloading: 0, done: 0, failed: 0 });

export function batch(id: number, jobs: Partial<BatchSummary['jobs']> = {}): BatchSummary {
  const counts = { ...zeroJobs(), ...jobs };
  return {
    id,
    name: `batch ${id}`,
    source: null,
    createdAt: 1_700_000_000_000 + id,
    paused: false,
    pauseReason: null,
    priority: 0,
    jobCount: Object.values(counts).reduce((a, b) => a + b, 0),
    dirName: `batch-${id}`,
    jobs: counts,
    videos: 0,
    downloads: zeroDownloads(),
  };
}

export function job(id: number, state: JobState = 'queued', batchId = 1): JobSummary {
  return {
    id,
    batchId,
    position: id,
    kind: 'image',
    prompt: `prompt ${id}`,
    promptChars: 8,
    name: null,
    model: 'gpt-image-1',
    size: '1024x1024',
    n: 1,
    seed: null,
    state,
    paused: false,
    tries: 0,
    failureKind: null,
    errorCode: null,
    errorMessage: null,
    lastRequestId: null,
    returnedN: null,
    failedDownloads: 0,
    nextAttemptAt: null,
    createdAt: 1_700_000_000_000,
    startedAt: null,
    finishedAt: null,
  };
}

/** A written 512×512 image of batch 1, as images.byIds answers it, with what a test changes. */
export function imageSummary(id: number, patch: Partial<ImageSummary> = {}): ImageSummary {
  return {
    id,
    jobId: id,
    batchId: 1,
    idx: 0,
    kind: 'image',
    relPath: `batch/${id}.png`,
    thumbRelPath: `batch/${id}.png`,
    width: 512,
    height: 512,
    format: 'png',
    bytes: 1000,
    model: 'flux-schnell',
    size: '512x512',
    favorite: false,
    downloadState: 'done',
    failureCode: null,
    failureReason: null,
    createdAt: 1_700_000_000_000 + id,
    prompt: `prompt ${id}`,
    ...patch,
  };
}

/** An image's details as `images.get` answers, from its summary (nothing else known). */
export function imageDetail(summary: ImageSummary): ImageDetail {
  return {
    ...summary,
    revisedPrompt: null,
    negativePrompt: null,
    seed: null,
    params: {},
    batchName: 'batch',
    requestId: null,
    upstreamRequestId: null,
    sha256: null,
    path: null,
  };
}

export function progress(jobs: Partial<Progress['jobs']> = {}): Progress {
  return {
    jobs: { ...zeroJobs(), ...jobs },
    downloads: zeroDownloads(),
    inFlight: 0,
    downloading: 0,
    jobsPerSecond: 0,
    requestsSent: 0,
    imagesWritten: 0,
    bytesWritten: 0,
  };
}

/** The queue's state as queue.state answers it: running, `queued` jobs waiting. */
export function queueState(queued: number): QueueState {
  return {
    paused: null,
    engine: 'running',
    runner: null,
    problem: null,
    limits: { concurrency: 8, current: 8, requestsPerMinute: null },
    progress: progress({ queued }),
  };
}
