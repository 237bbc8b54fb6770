import type { ApiError } from '../../shared/api/errors.ts';
import type { ApiEvent, EventBatch } from '../../shared/api/events.ts';
import type { EventListener, EventSource, Handlers } from '../../shared/api/types.ts';
import { AppError } from '../../main/core/app/app-error.ts';
import { NO_SPEND, NO_SPEND_CHECK } from './spend-fixtures.ts';
import type { ServedApp } from '../../main/core/app/host.ts';

/**
 * An event source driven by hand: each `emit` is one delivery with cursor `c<n>`; a
 * subscriber with a cursor first gets every delivery after it, each as it was, so a
 * reconnect can be checked for gaps, duplicates and order.
 */
export class ManualEvents implements EventSource {
  readonly delivered: EventBatch[] = [];
  private readonly listeners = new Set<EventListener>();

  emit(events: ApiEvent[]): EventBatch {
    const batch = { cursor: `c${this.delivered.length + 1}`, events };
    this.delivered.push(batch);
    for (const listener of this.listeners) listener(batch);
    return batch;
  }

  subscribe(cursor: string | null, listener: EventListener): () => void {
    const known = cursor === null ? 0 : /^c(\d+)$/.exec(cursor)?.[1];
    const replay =
      known === undefined
        ? [{ cursor: this.cursor(), events: [resync('unknown cursor')] }]
        : this.delivered.slice(Number(known));
    this.listeners.add(listener);
    // as the real hub: after subscribe returns, before any later delivery
    queueMicrotask(() => {
      for (const batch of replay) if (this.listeners.has(listener)) listener(batch);
    });
    return () => this.listeners.delete(listener);
  }

  get subscribers(): number {
    return this.listeners.size;
  }

  private cursor(): string {
    return `c${this.delivered.length}`;
  }
}

function resync(reason: string): ApiEvent {
  return { type: 'resync', payload: { reason } };
}

const zeroJobs = { queued: 0, running: 0, retrying: 0, succeeded: 0, failed: 0, canceled: 0 };
const zeroDownloads = { pending: 0, downloading: 0, done: 0, failed: 0 };

export const APP_INFO = {
  version: '0.1.0',
  host: 'web',
  demo: true,
  notice: 'Demo mode: images come from the built-in simulator, nothing is charged.',
  gateway: null,
  capabilities: { pathImport: true, reveal: false, openWithViewer: false, notifications: false },
  recoveredSettings: null,
} as const;

export const QUEUE_STATE = {
  paused: null,
  engine: 'running',
  runner: null,
  problem: null,
  limits: { concurrency: 4, current: 4, requestsPerMinute: null },
  progress: {
    jobs: zeroJobs,
    downloads: zeroDownloads,
    inFlight: 0,
    downloading: 0,
    jobsPerSecond: 0,
    requestsSent: 0,
    imagesWritten: 0,
    bytesWritten: 0,
    spentToday: NO_SPEND,
  },
} as const;

export function batchSummary(id: number, name: string) {
  return {
    id,
    name,
    source: null,
    createdAt: 1_700_000_000_000,
    paused: false,
    pauseReason: null,
    priority: 0,
    jobCount: 0,
    dirName: `batch-${id}`,
    jobs: zeroJobs,
    videos: 0,
    downloads: zeroDownloads,
    spent: NO_SPEND,
  };
}

/** The methods the fake implements for real; the rest are absent (a call fails as internal). */
type Implemented = {
  app: Pick<Handlers['app'], 'info'>;
  queue: Pick<Handlers['queue'], 'state' | 'pause'>;
  batches: Pick<Handlers['batches'], 'list' | 'get' | 'check' | 'rename'>;
  jobs: Pick<Handlers['jobs'], 'get'>;
  library: Pick<Handlers['library'], 'info'>;
  key: Pick<Handlers['key'], 'test'>;
};

export interface FakeApp extends ServedApp {
  events: ManualEvents;
  /** Inputs the handlers received, as parsed by dispatch. */
  calls: Array<{ method: string; input: unknown }>;
}

/**
 * A `ServedApp` with hand-written handlers. `leak` is planted where a buggy service could
 * put a secret: in `library.info`'s output and `key.test`'s error message. Its `toApiError`
 * redacts nothing, so only the web host stands between the secret and the client.
 */
export function fakeApp(o: { libraryDir: string; leak?: string }): FakeApp {
  const calls: FakeApp['calls'] = [];
  const seen = (method: string, input: unknown) => calls.push({ method, input });
  const implemented: Implemented = {
    app: { info: async () => APP_INFO },
    queue: {
      state: async () => QUEUE_STATE,
      pause: async (input) => {
        seen('queue.pause', input);
        throw new AppError('conflict', 'The queue is already paused.');
      },
    },
    batches: {
      list: async (input) => {
        seen('batches.list', input);
        return { items: [batchSummary(1, 'First'), batchSummary(2, 'Second')], next: null };
      },
      get: async ({ id }) => {
        throw new AppError('not-found', `Batch ${id} does not exist.`);
      },
      check: async (input) => {
        seen('batches.check', input);
        return {
          rows: 1,
          jobs: 1,
          images: 1,
          errors: [],
          bad: 0,
          models: {},
          spend: NO_SPEND_CHECK,
        };
      },
      rename: async () => {
        throw new Error('database is locked');
      },
    },
    jobs: {
      get: async () => {
        throw new AppError('gateway-unreachable', 'The gateway did not answer.');
      },
    },
    library: {
      info: async () => ({
        libraryDir: o.libraryDir,
        dataDir: `/data/${o.leak ?? 'data'}`,
        example: 'x.png',
      }),
    },
    key: {
      test: async () => {
        throw new Error(`the gateway refused key ${o.leak ?? ''}`);
      },
    },
  };
  return {
    api: implemented as unknown as Handlers,
    events: new ManualEvents(),
    calls,
    libraryDir: () => o.libraryDir,
    toApiError: (error: unknown): ApiError =>
      error instanceof AppError
        ? { code: error.code, message: error.message }
        : { code: 'internal', message: (error as Error).message },
    close: async () => {},
  };
}
