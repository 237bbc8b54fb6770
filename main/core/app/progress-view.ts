import type { z } from 'zod';
import type { PauseInfo } from '../../../shared/api/schemas/counts.ts';
import type { Progress } from '../../../shared/api/schemas/queue.ts';
import type { BudgetStopSchema } from '../../../shared/api/schemas/spend.ts';
import type { EngineProgress } from '../engine/progress.ts';
import { PAUSE_KIND_WORDS } from '../../../shared/jobs/words.ts';
import { localDate } from '../store/gallery-runs.ts';
import type { Store } from '../store/store.ts';
import type { SettingsValue } from './settings-store.ts';
import { totalsView } from './spend.ts';

type ProgressValue = z.infer<typeof Progress> & { paused: z.infer<typeof PauseInfo> | null };
type Pause = z.infer<typeof PauseInfo>;

/** What the progress figures need besides the engine's: the store and the settings. */
export interface ProgressSources {
  store: Store;
  settings: SettingsValue;
  now: number;
}

/** The engine's figures as the contract says them. */
export function liveProgress(p: EngineProgress, sources: ProgressSources): ProgressValue {
  return {
    jobs: p.jobs,
    downloads: p.downloads,
    inFlight: p.inFlight,
    downloading: p.downloading,
    jobsPerSecond: p.jobsPerSecond,
    requestsSent: p.requestsSent,
    imagesWritten: p.imagesWritten,
    bytesWritten: p.bytesWritten,
    spentToday: spentToday(sources),
    paused: p.paused && withBudget(p.paused, sources.store),
  };
}

/** With no engine running: the stored counts, nothing in flight. */
export function idleProgress(sources: ProgressSources): ProgressValue {
  const { store } = sources;
  return {
    jobs: store.jobs.counts(),
    downloads: store.images.counts(),
    inFlight: 0,
    downloading: 0,
    jobsPerSecond: 0,
    requestsSent: 0,
    imagesWritten: 0,
    bytesWritten: 0,
    spentToday: spentToday(sources),
    paused: pauseOf(store),
  };
}

export function pauseOf(store: Store): Pause | null {
  const queue = store.queue.get();
  if (!queue.paused) return null;
  return withBudget(
    {
      reason: queue.pauseReason ?? 'Paused.',
      code: queue.pauseCode,
      kind: queue.pauseKind ?? 'other',
    },
    store,
  );
}

/** A budget pause with the cap it stopped before, what was spent and the next cost. */
export function withBudget(pause: Omit<Pause, 'budget' | 'title'>, store: Store): Pause {
  const titled = { ...pause, title: PAUSE_KIND_WORDS[pause.kind] };
  if (pause.kind !== 'budget') return titled;
  const detail = store.queue.get().pauseDetail as z.infer<typeof BudgetStopSchema> | null;
  return { ...titled, budget: detail };
}

function spentToday({ store, settings, now }: ProgressSources) {
  const day = localDate(now);
  return totalsView(store.spend.totals({ fromDay: day, toDay: day }), settings);
}
