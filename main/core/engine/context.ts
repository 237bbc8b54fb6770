import type { GatewayClient } from '../gateway/client.ts';
import type { Store } from '../store/store.ts';
import type { AdaptiveConcurrency } from './adaptive-concurrency.ts';
import type { BackoffPolicy } from './backoff.ts';

/** What the job and download runners share with the engine that drives them. */
export interface EngineContext {
  store: Store;
  client: GatewayClient;
  libraryDir: string;
  namingTemplate: string;
  backoff: BackoffPolicy;
  downloadBackoff: BackoffPolicy;
  responseFormat: 'url' | 'b64_json' | undefined;
  output: { sidecar: boolean; manifest: boolean; thumbnails: boolean };
  videoPoll: { initialMs: number; maxMs: number };
  aimd: AdaptiveConcurrency;
  now: () => number;
  random: () => number;
  /** Counters the summary reports. */
  stats: { requestsSent: number; imagesWritten: number; bytesWritten: number };
  /**
   * Commits a job's outcome together with the others that arrived in the same turn of the
   * event loop; resolves once it is durable.
   */
  commit(write: () => void): Promise<void>;
  /** Video jobs now polling a submitted task: safe to stop, the next start polls again. */
  pollingVideos: Set<number>;
  /** Wake the scheduler at this time (a retry or a download falls due). */
  wakeAt(at: number): void;
  /** Every later request would fail the same way (key, permission, balance, full disk). */
  pauseQueue(reason: string, code: string): void;
}

/** The abort reason of work cut short because the engine stops (not a person's cancel). */
export const ENGINE_STOPPING = 'engine stopping';
