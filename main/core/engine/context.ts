import type { PauseKind } from '../../../shared/jobs/pause.ts';
import type { FilePlacer } from '../library/file-placer.ts';
import type { GatewayClient } from '../gateway/client.ts';
import type { Logger } from '../logger.ts';
import type { CompiledTemplate } from '../library/naming.ts';
import type { Batch } from '../store/rows.ts';
import type { Store } from '../store/store.ts';
import type { AdaptiveConcurrency } from './adaptive-concurrency.ts';
import type { BackoffPolicy } from './backoff.ts';
import type { ImageWritten, PreparedDownload } from './download-types.ts';
import type { DownloadLimits } from './download-limits.ts';
import type { UnrecordedAnswer } from './unrecorded-answers.ts';

/** What the job and download runners share with the engine that drives them. */
export interface EngineContext {
  store: Store;
  client: GatewayClient;
  libraryDir: string;
  /**
   * The library folder's real path, resolved once for the engine's run (asked again while it
   * cannot be): a folder swapped for a link afterwards is refused, never followed.
   */
  libraryRoot(): Promise<string | null>;
  /** The file name template, compiled once. */
  namingTemplate: CompiledTemplate;
  backoff: BackoffPolicy;
  downloadBackoff: BackoffPolicy;
  responseFormat: 'url' | 'b64_json' | undefined;
  output: { sidecar: boolean; manifest: boolean; thumbnails: boolean };
  /** Video status checks: the first wait, the longest, the longest once a task is overdue. */
  videoPoll: VideoPoll;
  /** What one download may cost at most (bytes, idle time) and an image's pixels. */
  limits: DownloadLimits;
  aimd: AdaptiveConcurrency;
  now: () => number;
  random: () => number;
  /** Where background failures are said (a job that threw, a sidecar not written). */
  log: Logger;
  /** Writes images whose bytes are in memory from its own thread. */
  placer: FilePlacer;
  /** Counters the summary reports. */
  stats: { requestsSent: number; imagesWritten: number; bytesWritten: number };
  /**
   * Commits a job's outcome (its last write: its request slot frees with it) together with
   * the others that arrived in the same turn of the event loop; resolves once it is durable.
   */
  commit(write: () => void): Promise<void>;
  /**
   * Commits a download's write (its file name's reservation) together with the others that
   * arrived in the same turn of the event loop; resolves once it is committed.
   */
  commitWrite(write: () => void): Promise<void>;
  /**
   * Asked inside an outcome's write: may `count` images, whose bytes are in hand, go straight
   * to the download pool (claimed in that write, started after its commit)? Yes while the
   * pool and its backlog have room; then the slots are held until `startDownloads` or
   * `releaseDownloads`. No: they wait in the database like any pending download.
   */
  reserveDownloads(count: number): boolean;
  /** Starts downloads claimed in a committed write, giving back `reserved` slots. */
  startDownloads(prepared: PreparedDownload[], reserved: number): void;
  /** The write that reserved `count` slots failed: nothing was claimed. */
  releaseDownloads(count: number): void;
  batchOf(batchId: number): Batch;
  /** Video jobs now polling a submitted task: safe to stop, the next start polls again. */
  pollingVideos: Set<number>;
  /** Wake the scheduler at this time (a retry or a download falls due). */
  wakeAt(at: number): void;
  /** Every later request would fail the same way (key, permission, balance, full disk). */
  pauseQueue(reason: string, code: string, kind: PauseKind): void;
  /** The queue was paused inside a committed write: tell the listeners. */
  queuePaused(reason: string, code: string, kind: PauseKind): void;
  /**
   * The data folder's disk refused to record a paid answer (`error`): the engine stops, and
   * the answer is kept in the library for the next start to record.
   */
  keepUnrecorded(answer: UnrecordedAnswer, error: unknown): Promise<void>;
  /** An image is committed as done and its extras are written (the engine's `imageWritten`). */
  imageWritten(event: ImageWritten): void;
  /** What the platform said of a video job's task was recorded (the engine's `video`). */
  videoChanged(job: { id: number; batchId: number }): void;
  /**
   * A download ended without the image: failed, or pending again after a backoff (the
   * engine's `downloadChanged`), so that windows showing it follow.
   */
  downloadChanged(image: { id: number; jobId: number; batchId: number }): void;
}

export interface VideoPoll {
  initialMs: number;
  maxMs: number;
  /** Once a task is past its model's usual time, checks slow down to this (60 s). */
  overdueMaxMs?: number;
}

/** The abort reason of work cut short because the engine stops (not a person's cancel). */
export const ENGINE_STOPPING = 'engine stopping';
