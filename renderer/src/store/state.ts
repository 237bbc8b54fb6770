import type { StateCreator } from 'zustand/vanilla';
import type { ApiEventOf } from '../../../shared/api/events.ts';
import type { Api, InputOf, OutputOf } from '../../../shared/api/types.ts';
import type { JobState } from '../../../shared/jobs/states.ts';
import type { SettingsSlice } from './settings-slice.ts';
import type { ComposeSlice } from './compose-slice.ts';
import type { QueueScreenSlice } from './queue-screen-slice.ts';
import type { GallerySlice } from './gallery-slice.ts';

export type QueueState = OutputOf<'queue', 'state'>;
export type Progress = QueueState['progress'];
export type PauseInfo = NonNullable<QueueState['paused']>;
export type Limits = QueueState['limits'];
export type BatchSummary = OutputOf<'batches', 'list'>['items'][number];
export type JobSummary = OutputOf<'jobs', 'byIds'>[number];
export type AppInfo = OutputOf<'app', 'info'>;
export type KeyStatus = OutputOf<'key', 'status'>;
export type Settings = OutputOf<'settings', 'get'>;
export type SettingsPatch = InputOf<'settings', 'update'>;
export type FinishedNotice = ApiEventOf<'batch.finished'>['payload'];
export type BatchCounts = Pick<BatchSummary, 'jobs' | 'downloads'>;

export interface QueueSlice {
  engine: QueueState['engine'] | null;
  runner: QueueState['runner'];
  limits: Limits | null;
  /** From queue.state, then from every progress event. */
  progress: Progress | null;
  paused: PauseInfo | null;
  /** What the last queue call that failed said. */
  queueError: string | null;
  loadQueue(): Promise<void>;
  resumeQueue(): Promise<void>;
  pauseQueue(reason?: string): Promise<void>;
}

export interface BatchesSlice {
  batches: ReadonlyMap<number, BatchSummary>;
  /** In the service's order (newest first). */
  batchIds: readonly number[];
  batchesNext: string | null;
  batchesLoading: boolean;
  /** A batch newer than the list appeared, or events were missed: reload the list. */
  batchesStale: boolean;
  batchesError: string | null;
  /** Counts from events that arrived while a page was loading, laid over its (older) answer. */
  batchCountsLate: ReadonlyMap<number, BatchCounts> | null;
  finishedBatches: ReadonlySet<number>;
  /** Finished batches not yet dismissed, oldest first (for toasts). */
  finishedNotices: readonly FinishedNotice[];
  loadBatches(): Promise<void>;
  loadMoreBatches(): Promise<void>;
  dismissNotice(batchId: number): void;
}

/** Ids of a batch's jobs in some states: the list a virtual view scrolls through. */
export interface JobIdList {
  ids: readonly number[];
  next: string | null;
  /** Every id the filter matches, loaded or not. */
  total: number;
  /** Jobs moved in or out of the filter since: refetch when convenient. */
  stale: boolean;
}

export interface JobsSlice {
  /** Keyed by `jobsKey(batchId, states)`: "batchId:state,state". */
  jobIdsByKey: ReadonlyMap<string, JobIdList>;
  jobsById: ReadonlyMap<number, JobSummary>;
  /** Ids asked for and not yet answered, with the last state events gave them meanwhile. */
  jobsPending: ReadonlyMap<number, JobState | null>;
  jobsError: string | null;
  fetchIds(key: string): Promise<void>;
  fetchMoreIds(key: string): Promise<void>;
  /** Details of the ids at [start, end) of the list, fetching only those not cached. */
  fetchRange(key: string, start: number, end: number): Promise<void>;
}

export interface AppSlice {
  info: AppInfo | null;
  keyStatus: KeyStatus | null;
  settings: Settings | null;
  /** Settings changed elsewhere, or events were missed: reload them. */
  settingsStale: boolean;
  appError: string | null;
  loadApp(): Promise<void>;
  loadSettings(): Promise<void>;
  /** Saves a change; the service's answer (every setting) replaces the local copy. Throws. */
  updateSettings(patch: SettingsPatch): Promise<Settings>;
}

export type Connection = 'connecting' | 'live' | 'closed';

export interface EventsSlice {
  /** Where a resubscription resumes. */
  cursor: string | null;
  connection: Connection;
  /** Deliveries applied so far: loaders compare it to know whether events raced them. */
  eventSeq: number;
  /** Times the service said events were missed; views refetch when it changes. */
  resyncs: number;
  resyncReason: string | null;
}

export type AppState = QueueSlice &
  BatchesSlice &
  JobsSlice &
  AppSlice &
  EventsSlice &
  SettingsSlice &
  ComposeSlice &
  QueueScreenSlice &
  GallerySlice;

/** One slice of the combined store, given the API its actions call. */
export type SliceCreator<T> = (api: Api) => StateCreator<AppState, [], [], T>;
