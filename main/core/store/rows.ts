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
  /** The platform's status as it spelled it (videoTaskStatus is the known state it maps to). */
  videoPlatformStatus: string | null;
  videoSubmittedAt: number | null;
  /** The last answer about the task (the submission's, then each status check's). */
  videoCheckedAt: number | null;
  videoCheckRequestId: string | null;
  /** Since when the task is past its model's usual time; null while it is not. */
  videoOverdueAt: number | null;
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
  batchId: number;
  /** The job's model and requested size, copied in for the gallery's filters. */
  model: string;
  size: string | null;
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
  /** When the file was written; null until then. */
  doneAt: number | null;
  /** The seed the gateway said it used for this image; null when its answer did not say. */
  seed: number | null;
}

type Row = Record<string, unknown>;

// Each mapper names every field, so all objects of a type share one shape, which V8 reads fast.
// A generic snake_case→camelCase copy with computed keys, and `delete` for the store's private
// columns, gave objects V8 reads slowly, and the engine reads thousands of rows a second.

export function toBatch(row: Row): Batch {
  return {
    id: row.id as number,
    name: row.name as string,
    dirName: row.dir_name as string,
    createdAt: row.created_at as number,
    settings: JSON.parse(row.settings as string) as Record<string, unknown>,
    source: row.source as string | null,
    paused: row.paused === 1,
    pauseReason: row.pause_reason as string | null,
    priority: row.priority as number,
    jobCount: row.job_count as number,
  };
}

export function toJob(row: Row): Job {
  return {
    id: row.id as number,
    batchId: row.batch_id as number,
    position: row.position as number,
    priority: row.priority as number,
    kind: row.kind as JobKind,
    prompt: row.prompt as string,
    name: row.name as string | null,
    model: row.model as string,
    size: row.size as string | null,
    n: row.n as number,
    seed: row.seed as number | null,
    params: JSON.parse(row.params as string) as Record<string, unknown>,
    state: row.state as JobState,
    stateReason: row.state_reason as string | null,
    paused: row.paused === 1,
    tries: row.tries as number,
    nextAttemptAt: row.next_attempt_at as number | null,
    failureKind: row.failure_kind as FailureKind | null,
    errorCode: row.error_code as string | null,
    errorMessage: row.error_message as string | null,
    lastRequestId: row.last_request_id as string | null,
    lastUpstreamRequestId: row.last_upstream_request_id as string | null,
    returnedN: row.returned_n as number | null,
    retryOf: row.retry_of as number | null,
    imageOffset: row.image_offset as number,
    videoTaskId: row.video_task_id as string | null,
    videoTaskStatus: row.video_task_status as string | null,
    videoTaskProgress: row.video_task_progress as string | null,
    videoPlatformStatus: row.video_platform_status as string | null,
    videoSubmittedAt: row.video_submitted_at as number | null,
    videoCheckedAt: row.video_checked_at as number | null,
    videoCheckRequestId: row.video_check_request_id as string | null,
    videoOverdueAt: row.video_overdue_at as number | null,
    createdAt: row.created_at as number,
    updatedAt: row.updated_at as number,
    startedAt: row.started_at as number | null,
    finishedAt: row.finished_at as number | null,
  };
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
  return {
    id: row.id as number,
    jobId: row.job_id as number,
    startedAt: row.started_at as number,
    endedAt: row.ended_at as number | null,
    httpStatus: row.http_status as number | null,
    requestId: row.request_id as string | null,
    upstreamRequestId: row.upstream_request_id as string | null,
    errorCode: row.error_code as string | null,
    errorMessage: row.error_message as string | null,
    decision: row.decision as string | null,
    outcome: row.outcome as AttemptOutcome | null,
    retryAfterMs: row.retry_after_ms as number | null,
  };
}

export function toImage(row: Row): Image {
  return {
    id: row.id as number,
    jobId: row.job_id as number,
    batchId: row.batch_id as number,
    model: row.model as string,
    size: row.size as string | null,
    idx: row.idx as number,
    sourceUrl: row.source_url as string | null,
    hasPayload: row.has_payload === 1,
    revisedPrompt: row.revised_prompt as string | null,
    downloadState: row.download_state as DownloadState,
    downloadTries: row.download_tries as number,
    nextDownloadAt: row.next_download_at as number,
    failureCode: row.failure_code as string | null,
    failureReason: row.failure_reason as string | null,
    relPath: row.rel_path as string | null,
    bytes: row.bytes as number | null,
    sha256: row.sha256 as string | null,
    width: row.width as number | null,
    height: row.height as number | null,
    format: row.format as string | null,
    favorite: row.favorite === 1,
    createdAt: row.created_at as number,
    updatedAt: row.updated_at as number,
    doneAt: row.done_at as number | null,
    seed: row.seed as number | null,
  };
}
