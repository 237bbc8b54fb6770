/**
 * What every gateway call ends as. The engine acts on `decision` without knowing HTTP.
 *
 * - retry-backoff: nothing was charged and a later attempt may work; back off with jitter.
 * - retry-after:   the gateway said when to come back (`retryAfterMs`); 429 also means
 *                  "lower the concurrency".
 * - never-replay:  the outcome is uncertain (504, 524, a time-out after sending): the work
 *                  may have finished and been charged. Only a person may choose to retry.
 * - fail:          this request will not work as it is (parameters, unknown model…).
 * - pause-queue:   every later request would fail the same way (key, permission, balance).
 */
export type Decision = 'retry-backoff' | 'retry-after' | 'never-replay' | 'fail' | 'pause-queue';

export type FailureKind =
  | 'invalid-request'
  | 'not-found'
  | 'auth'
  | 'permission'
  | 'balance'
  | 'rate-limited'
  | 'server'
  | 'uncertain'
  | 'network'
  | 'empty-result'
  | 'bad-response'
  | 'task-failed'
  | 'expired-link'
  | 'not-an-image'
  | 'canceled';

/** `X-Svc-Request-Id` (or the profile's header) and `upstream_request_id`: what support asks for. */
export interface RequestIds {
  requestId: string | null;
  upstreamRequestId: string | null;
}

export const NO_REQUEST_IDS: RequestIds = Object.freeze({
  requestId: null,
  upstreamRequestId: null,
});

export interface GatewayFailure {
  ok: false;
  decision: Decision;
  kind: FailureKind;
  /** What went wrong and what to do, for a person; never contains the key. */
  message: string;
  /**
   * What the gateway itself said, as "status code: message" (`403 model_not_allowed: …`), for
   * callers that word their own advice; absent when it said nothing (a network failure).
   */
  said?: string;
  status: number | null;
  /** The gateway's error code (`insufficient_user_quota`…), or a network error code. */
  code: string | null;
  type: string | null;
  /** Set with decision retry-after: how long to wait, already capped. */
  retryAfterMs: number | null;
  /** Whether the request left this machine (false: refused by validation or never connected). */
  sent: boolean;
  requestIds: RequestIds;
}

export interface Success<T> {
  ok: true;
  value: T;
  status: number;
  requestIds: RequestIds;
}

export type Outcome<T> = Success<T> | GatewayFailure;

export interface GeneratedImage {
  index: number;
  url: string | null;
  b64Json: string | null;
  revisedPrompt: string | null;
  /** The seed the gateway says it used for this image; null when its answer does not say. */
  seed: number | null;
}

/** `n > 1` with fewer images back (interface 2.5 rule 3): offer to top up the missing ones. */
export interface PartialSuccess {
  requestedN: number | null;
  returnedN: number;
  failedRequests: number | null;
  /** The metadata as the gateway sent it, for diagnosis. */
  raw: Record<string, unknown>;
}

export interface ImageResult {
  images: GeneratedImage[];
  created: number | null;
  partial: PartialSuccess | null;
}

export interface ChatResult {
  content: string;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number } | null;
  raw: unknown;
}

export interface ResponsesResult {
  text: string;
  raw: unknown;
}

/** Platform task states (interface 3), kept apart from the client's job states. */
export type TaskState = 'SUCCESS' | 'FAILURE' | 'IN_PROGRESS' | 'QUEUED' | 'UNKNOWN';

export interface VideoTask {
  id: string;
  /** Which video API the task lives on: poll it there. */
  api: 'videos' | 'video-generations';
  state: TaskState;
  /** The status as the platform spelled it (`state` is the known state it maps to, or UNKNOWN). */
  platformStatus: string | null;
  /** 0..100 when the gateway says. */
  progress: number | null;
  failReason: string | null;
  errorCode: string | null;
  raw: unknown;
}

export interface Download {
  /** The bytes as they come (built on first use: read this or `whole`, never both). */
  readonly body: ReadableStream<Uint8Array>;
  /**
   * The whole body at once, for a small one: no stream built per chunk. Resolves with the
   * bytes, or with why it stopped after `received` bytes, as `body` would have failed (a
   * GatewayError), or past `maxBytes` or after `idleMs` without data (the connection released).
   */
  whole(limits: {
    maxBytes: number;
    idleMs: number;
  }): Promise<{ bytes: Uint8Array } | { error: Error; received: number }>;
  contentType: string | null;
  contentLength: number | null;
}
