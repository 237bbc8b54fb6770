/**
 * Client job states and the one table of legal transitions between them.
 *
 * These are Atelier's own business states, kept apart from the platform's task states
 * (`SUCCESS`, `FAILURE`, `IN_PROGRESS`), which only describe a video task on the gateway.
 * Pausing is not a state: a paused queue, batch or job keeps its jobs `queued` (or
 * `retrying`) behind a flag, so the six states stay exact.
 */
export const JOB_STATES = [
  'queued',
  'running',
  'retrying',
  'succeeded',
  'failed',
  'canceled',
] as const;

export type JobState = (typeof JOB_STATES)[number];

/**
 * Every legal `from → to`, each with the reason it exists. Anything absent is illegal.
 * The store enforces the same table in SQLite, so no write can bypass it.
 */
export const JOB_TRANSITIONS: { readonly [From in JobState]: Partial<Record<JobState, string>> } = {
  queued: {
    running: 'claimed by the scheduler; committed before the request is sent',
    canceled: 'canceled before it started',
  },
  running: {
    succeeded: 'the gateway returned images (a partial success too; a top-up is a new job)',
    failed:
      'not retryable, retries exhausted, or outcome uncertain (504/524, time-out after sending, crash)',
    retrying: 'retryable answer (429, 5xx, connection failed before any answer); waits for backoff',
    canceled: 'canceled in flight; the request was aborted',
    queued: 'handed back unsent or refused before billing by a pause-queue error (auth, balance)',
  },
  retrying: {
    running: 'backoff elapsed, claimed again',
    canceled: 'canceled while waiting for its next attempt',
  },
  succeeded: {},
  failed: {
    queued: 'retried by the person ("retry", or "retry anyway" for an uncertain outcome)',
  },
  canceled: {
    queued: 'retried by the person after a cancel',
  },
};

export function isJobState(value: unknown): value is JobState {
  return typeof value === 'string' && (JOB_STATES as readonly string[]).includes(value);
}

export function canTransition(from: JobState, to: JobState): boolean {
  return JOB_TRANSITIONS[from][to] !== undefined;
}

export class IllegalTransitionError extends Error {
  readonly from: string;
  readonly to: string;

  constructor(from: string, to: string, subject?: string) {
    const allowed = isJobState(from) ? Object.keys(JOB_TRANSITIONS[from]) : [];
    super(
      `${subject ? `${subject}: ` : ''}a job cannot go from "${from}" to "${to}". ` +
        (allowed.length > 0
          ? `From "${from}" it may only go to: ${allowed.join(', ')}.`
          : `"${from}" is final: create a new job instead.`),
    );
    this.name = 'IllegalTransitionError';
    this.from = from;
    this.to = to;
  }
}

/** Throws an IllegalTransitionError naming both states unless the table allows the move. */
export function assertTransition(from: JobState, to: JobState, subject?: string): void {
  if (!canTransition(from, to)) throw new IllegalTransitionError(from, to, subject);
}

/** The states from which `to` can be reached: used to build bulk updates from the table. */
export function statesLeadingTo(to: JobState): JobState[] {
  return JOB_STATES.filter((from) => canTransition(from, to));
}

/** No way out but a new job. */
export function isFinal(state: JobState): boolean {
  return Object.keys(JOB_TRANSITIONS[state]).length === 0;
}

/** Every legal pair, for the store's enforcement table and for tests. */
export function allTransitions(): Array<{ from: JobState; to: JobState }> {
  return JOB_STATES.flatMap((from) =>
    (Object.keys(JOB_TRANSITIONS[from]) as JobState[]).map((to) => ({ from, to })),
  );
}
