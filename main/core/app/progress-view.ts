import type { z } from 'zod';
import type { PauseInfo } from '../../../shared/api/schemas/counts.ts';
import type { Progress } from '../../../shared/api/schemas/queue.ts';
import type { EngineProgress } from '../engine/progress.ts';
import type { Store } from '../store/store.ts';

type ProgressValue = z.infer<typeof Progress> & { paused: z.infer<typeof PauseInfo> | null };

/** The engine's figures as the contract says them. */
export function liveProgress(p: EngineProgress): ProgressValue {
  return {
    jobs: p.jobs,
    downloads: p.downloads,
    inFlight: p.inFlight,
    downloading: p.downloading,
    jobsPerSecond: p.jobsPerSecond,
    requestsSent: p.requestsSent,
    imagesWritten: p.imagesWritten,
    bytesWritten: p.bytesWritten,
    paused: p.paused,
  };
}

/** With no engine running: the stored counts, nothing in flight. */
export function idleProgress(store: Store): ProgressValue {
  return {
    jobs: store.jobs.counts(),
    downloads: store.images.counts(),
    inFlight: 0,
    downloading: 0,
    jobsPerSecond: 0,
    requestsSent: 0,
    imagesWritten: 0,
    bytesWritten: 0,
    paused: pauseOf(store),
  };
}

export function pauseOf(store: Store): z.infer<typeof PauseInfo> | null {
  const queue = store.queue.get();
  if (!queue.paused) return null;
  return {
    reason: queue.pauseReason ?? 'Paused.',
    code: queue.pauseCode,
    kind: queue.pauseKind ?? 'other',
  };
}
