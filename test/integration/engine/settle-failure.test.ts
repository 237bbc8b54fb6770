import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayFailure } from '../../../shared/gateway/outcome.ts';
import { AdaptiveConcurrency } from '../../../main/core/engine/adaptive-concurrency.ts';
import { DEFAULT_BACKOFF } from '../../../main/core/engine/backoff.ts';
import { ENGINE_STOPPING, type EngineContext } from '../../../main/core/engine/context.ts';
import { settleFailure } from '../../../main/core/engine/job-failure.ts';
import type { Job } from '../../../main/core/store/rows.ts';
import { tempStore } from '../store/temp-store.ts';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

/** A store with one running job and its open attempt; outcomes commit one turn later, as in the engine. */
function setup() {
  const temp = tempStore();
  cleanup = temp.cleanup;
  const { store } = temp;
  store.batches.create({ name: 'b' }, [{ prompt: 'p', model: 'm' }], 1);
  const [job] = store.jobs.claimRunnable(1, 2) as [Job];
  const attemptId = store.attempts.start(job.id, 2);
  const ctx = {
    store,
    now: () => 3,
    random: () => 0.5,
    backoff: DEFAULT_BACKOFF,
    aimd: new AdaptiveConcurrency({ max: 4 }),
    commit: (write: () => void) =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          store.transaction(write);
          resolve();
        }),
      ),
    wakeAt: () => {},
    pauseQueue: () => {},
    queuePaused: () => {},
  } as unknown as EngineContext;
  return { store, job, attemptId, ctx };
}

const failure = (sent: boolean): GatewayFailure => ({
  ok: false,
  decision: 'retry-backoff',
  kind: 'server',
  message: 'Server error.',
  status: sent ? 503 : null,
  code: null,
  type: null,
  retryAfterMs: null,
  sent,
  requestIds: { requestId: 'req_1', upstreamRequestId: null },
});

describe('settleFailure decides an aborted request when its write runs', () => {
  it('a cancel that lands while the outcome waits for its commit still cancels the job', async () => {
    const { store, job, attemptId, ctx } = setup();
    const controller = new AbortController();
    const settled = settleFailure(ctx, job, attemptId, failure(true), controller.signal);
    controller.abort(); // the person cancels in the same turn, after the answer came
    await settled;
    expect(store.jobs.get(job.id)!.state).toBe('canceled');
    expect(store.attempts.listForJob(job.id)[0]!.outcome).toBe('canceled');
  });

  it('a stop with abort fails a sent request as uncertain, never retried silently', async () => {
    const { store, job, attemptId, ctx } = setup();
    const controller = new AbortController();
    controller.abort(ENGINE_STOPPING);
    await settleFailure(ctx, job, attemptId, failure(true), controller.signal);
    expect(store.jobs.get(job.id)).toMatchObject({ state: 'failed', failureKind: 'uncertain' });
    expect(store.attempts.listForJob(job.id)[0]!.outcome).toBe('interrupted');
  });

  it('a stop with abort hands back a request that never left', async () => {
    const { store, job, attemptId, ctx } = setup();
    const controller = new AbortController();
    controller.abort(ENGINE_STOPPING);
    await settleFailure(ctx, job, attemptId, failure(false), controller.signal);
    expect(store.jobs.get(job.id)!.state).toBe('queued');
  });

  it('without an abort, a retryable answer schedules a retry', async () => {
    const { store, job, attemptId, ctx } = setup();
    await settleFailure(ctx, job, attemptId, failure(true), new AbortController().signal);
    expect(store.jobs.get(job.id)!.state).toBe('retrying');
  });

  it('decides a pause and a smaller pool inside the write, so a claim later in the commit sees them', async () => {
    const { store, job, attemptId, ctx } = setup();
    const seen: Array<{ paused: boolean; limit: number }> = [];
    const announced: string[] = [];
    Object.assign(ctx, {
      commit: (write: () => void) =>
        new Promise<void>((resolve) =>
          setImmediate(() => {
            store.transaction(() => {
              write();
              // what the turn's claim, the commit's last write, would see
              seen.push({ paused: store.queue.get().paused, limit: ctx.aimd.limit });
            });
            resolve();
          }),
        ),
      queuePaused: (reason: string) => announced.push(reason),
    });
    const limited: GatewayFailure = {
      ...failure(true),
      decision: 'retry-after',
      kind: 'rate-limited',
      status: 429,
    };
    await settleFailure(ctx, job, attemptId, limited, new AbortController().signal);
    expect(seen.at(-1)).toEqual({ paused: false, limit: 2 });

    store.batches.create({ name: 'c' }, [{ prompt: 'q', model: 'm' }], 4);
    const second = store.jobs.claimRunnable(1, 5)[0]!;
    const refused: GatewayFailure = {
      ...failure(true),
      decision: 'pause-queue',
      kind: 'auth',
      status: 401,
      code: 'invalid_api_key',
    };
    const attempt = store.attempts.start(second.id, 5);
    await settleFailure(ctx, second, attempt, refused, new AbortController().signal);
    expect(seen.at(-1)!.paused).toBe(true);
    expect(store.jobs.get(second.id)!.state).toBe('queued');
    expect(announced).toHaveLength(1);
  });
});
