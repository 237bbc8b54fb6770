import type { z } from 'zod';
import type {
  AttemptSummary,
  JobDetail,
  JobSummary,
  VideoStatus,
} from '../../../shared/api/schemas/jobs.ts';
import { SUMMARY_PROMPT_CHARS } from '../../../shared/api/schemas/jobs.ts';
import type { BatchSummary } from '../../../shared/api/schemas/batches.ts';
import type { ImageSummary } from '../../../shared/api/schemas/images.ts';
import type { DownloadCounts } from '../store/image-repository.ts';
import type { StateCounts } from '../store/job-repository.ts';
import type { GalleryImage } from '../store/gallery-queries.ts';
import type { Attempt, Batch, Job, Transition } from '../store/rows.ts';
import { attemptOutcomeWords, FAILURE_KIND_WORDS } from '../../../shared/jobs/words.ts';

/** Store rows become the contract's shapes here, and only here. */

export function cutPrompt(prompt: string): string {
  return prompt.length <= SUMMARY_PROMPT_CHARS ? prompt : prompt.slice(0, SUMMARY_PROMPT_CHARS);
}

export function batchSummary(
  batch: Batch,
  jobs: StateCounts,
  downloads: DownloadCounts,
  spent: z.input<typeof BatchSummary>['spent'],
  videos: number,
): z.input<typeof BatchSummary> {
  return {
    id: batch.id,
    name: batch.name,
    source: batch.source,
    createdAt: batch.createdAt,
    paused: batch.paused,
    pauseReason: batch.pauseReason,
    priority: batch.priority,
    jobCount: batch.jobCount,
    dirName: batch.dirName,
    jobs,
    videos,
    downloads,
    spent,
  };
}

const PHASES: Record<string, z.infer<typeof VideoStatus>['phase']> = {
  QUEUED: 'submitted',
  IN_PROGRESS: 'in-progress',
  SUCCESS: 'succeeded',
  FAILURE: 'failed',
};

/** A video job's way on the platform; `now` counts the elapsed time of one still running. */
export function videoStatus(job: Job, now: number): z.infer<typeof VideoStatus> {
  const submitted = job.videoTaskId !== null;
  const progress = job.videoTaskProgress === null ? NaN : Number.parseFloat(job.videoTaskProgress);
  const end = job.finishedAt ?? now;
  return {
    phase: !submitted
      ? 'waiting'
      : job.videoTaskStatus === null
        ? 'submitted'
        : (PHASES[job.videoTaskStatus] ?? 'pending'),
    platformStatus: job.videoPlatformStatus ?? job.videoTaskStatus,
    progress: Number.isFinite(progress) ? Math.min(100, Math.max(0, progress)) : null,
    taskId: job.videoTaskId,
    // the submission is the job's last attempt: polls are not attempts
    requestId: submitted ? job.lastRequestId : null,
    upstreamRequestId: submitted ? job.lastUpstreamRequestId : null,
    checkRequestId: job.videoCheckRequestId,
    submittedAt: job.videoSubmittedAt,
    checkedAt: job.videoCheckedAt,
    elapsedMs: job.videoSubmittedAt === null ? null : Math.max(0, end - job.videoSubmittedAt),
    overdue: job.videoOverdueAt !== null && job.state === 'running',
    overdueSince: job.videoOverdueAt,
  };
}

/** A job's row; `failedDownloads`: of its images, those whose download failed. */
export function jobSummary(
  job: Job,
  now: number,
  failedDownloads: number,
): z.input<typeof JobSummary> {
  return {
    id: job.id,
    batchId: job.batchId,
    position: job.position,
    kind: job.kind,
    prompt: cutPrompt(job.prompt),
    promptChars: job.prompt.length,
    name: job.name,
    model: job.model,
    size: job.size,
    n: job.n,
    seed: job.seed,
    state: job.state,
    paused: job.paused,
    tries: job.tries,
    failureKind: job.failureKind,
    failureText: job.failureKind && FAILURE_KIND_WORDS[job.failureKind],
    errorCode: job.errorCode,
    errorMessage: job.errorMessage,
    lastRequestId: job.lastRequestId,
    returnedN: job.returnedN,
    failedDownloads,
    nextAttemptAt: job.nextAttemptAt,
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
    ...(job.kind === 'video' ? { video: videoStatus(job, now) } : {}),
  };
}

export function jobDetail(
  job: Job,
  now: number,
  images: Array<z.input<typeof ImageSummary>>,
  transitions: Transition[],
  attempts: number,
): z.input<typeof JobDetail> {
  return {
    ...jobSummary(job, now, images.filter((image) => image.downloadState === 'failed').length),
    attempts,
    prompt: job.prompt,
    params: job.params,
    stateReason: job.stateReason,
    lastUpstreamRequestId: job.lastUpstreamRequestId,
    retryOf: job.retryOf,
    images,
    transitions: transitions.map(({ from, to, at, reason }) => ({ from, to, at, reason })),
  };
}

export function attemptSummary(attempt: Attempt): z.input<typeof AttemptSummary> {
  return {
    id: attempt.id,
    startedAt: attempt.startedAt,
    endedAt: attempt.endedAt,
    httpStatus: attempt.httpStatus,
    outcome: attempt.outcome,
    outcomeText: attemptOutcomeWords(attempt.outcome),
    decision: attempt.decision,
    errorCode: attempt.errorCode,
    errorMessage: attempt.errorMessage,
    requestId: attempt.requestId,
    upstreamRequestId: attempt.upstreamRequestId,
    retryAfterMs: attempt.retryAfterMs,
  };
}

/**
 * An image as the gallery lists it. `thumbRelPath` is the path to ask for under the thumbnail
 * route (`/thumbs/…`, `atelier://thumbs/…`): the image's own path, from which the host
 * derives where the thumbnail is kept; null when thumbnails are not made.
 */
export function imageSummary(
  image: GalleryImage,
  thumbnails: boolean,
): z.input<typeof ImageSummary> {
  return {
    id: image.id,
    jobId: image.jobId,
    batchId: image.batchId,
    idx: image.idx,
    kind: image.kind,
    relPath: image.relPath,
    thumbRelPath: thumbnails && image.relPath ? image.relPath : null,
    width: image.width,
    height: image.height,
    format: image.format,
    bytes: image.bytes,
    model: image.model,
    size: image.size,
    favorite: image.favorite,
    downloadState: image.downloadState,
    failureCode: image.failureCode,
    failureReason: image.failureReason,
    createdAt: image.createdAt,
    prompt: cutPrompt(image.prompt),
  };
}
