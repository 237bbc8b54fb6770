import type { DownloadState } from '../../../shared/jobs/downloads.ts';
import type { AttemptOutcome, FailureKind } from '../../../shared/jobs/outcomes.ts';
import type { JobState } from '../../../shared/jobs/states.ts';

/** What the store hands out: camelCase, JSON parsed, flags as booleans. */

export interface Batch {
  id: number;
  name: string;
  dirName: string;
  createdAt: number;
  settings: Record<string, unknown>;
  source: string | null;
  paused: boolean;
  pauseReason: string | null;
  priority: number;
  jobCount: number;
}

export type JobKind = 'image' | 'video';

export interface Job {
  id: number;
  batchId: number;
  position: number;
  priority: number;
  kind: JobKind;
  prompt: string;
  name: string | null;
  model: string;
  size: string | null;
  n: number;
  seed: number | null;
  params: Record<string, unknown>;
  state: JobState;
  stateReason: string | null;
  paused: boolean;
  tries: number;
  nextAttemptAt: number | null;
  failureKind: FailureKind | null;
  errorCode: string | null;
  errorMessage: string | null;
  lastRequestId: string | null;
  lastUpstreamRequestId: string | null;
  returnedN: number | null;
  retryOf: number | null;
  imageOffset: number;
  videoTaskId: string | null;
  videoTaskStatus: string | null;
  videoTaskProgress: string | null;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

export interface Transition {
  id: number;
  jobId: number;
  from: JobState;
  to: JobState;
  at: number;
  reason: string | null;
}

export interface Attempt {
  id: number;
  jobId: number;
  startedAt: number;
  endedAt: number | null;
  httpStatus: number | null;
  requestId: string | null;
  upstreamRequestId: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  decision: string | null;
  outcome: AttemptOutcome | null;
  retryAfterMs: number | null;
}

export interface Image {
  id: number;
  jobId: number;
  idx: number;
  sourceUrl: string | null;
  hasPayload: boolean;
  revisedPrompt: string | null;
  downloadState: DownloadState;
  downloadTries: number;
  nextDownloadAt: number;
  failureCode: string | null;
  failureReason: string | null;
  relPath: string | null;
  bytes: number | null;
  sha256: string | null;
  width: number | null;
  height: number | null;
  format: string | null;
  favorite: boolean;
  createdAt: number;
  updatedAt: number;
}

type Row = Record<string, unknown>;

/** Column names seen so far and their camelCase: the conversion runs once per name, not per row. */
const camelNames = new Map<string, string>();

function camelName(key: string): string {
  let name = camelNames.get(key);
  if (name === undefined) {
    name = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    camelNames.set(key, name);
  }
  return name;
}

/** snake_case columns to camelCase fields; JSON and flags decoded where named. */
function camel(row: Row): Row {
  const out: Row = {};
  for (const key in row) out[camelName(key)] = row[key];
  return out;
}

export function toBatch(row: Row): Batch {
  const batch = camel(row);
  batch.settings = JSON.parse(row.settings as string);
  batch.paused = row.paused === 1;
  // the uniqueness key is the store's business
  delete batch.dirKey;
  return batch as unknown as Batch;
}

export function toJob(row: Row): Job {
  const job = camel(row);
  job.params = JSON.parse(row.params as string);
  job.paused = row.paused === 1;
  return job as unknown as Job;
}

export function toTransition(row: Row): Transition {
  return {
    id: row.id as number,
    jobId: row.job_id as number,
    from: row.from_state as JobState,
    to: row.to_state as JobState,
    at: row.at as number,
    reason: row.reason as string | null,
  };
}

export function toAttempt(row: Row): Attempt {
  return camel(row) as unknown as Attempt;
}

export function toImage(row: Row): Image {
  const image = camel(row);
  image.hasPayload = row.has_payload === 1;
  image.favorite = row.favorite === 1;
  delete image.pathKey;
  return image as unknown as Image;
}
