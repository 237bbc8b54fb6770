import type { GatewayTimeouts } from '../../../../shared/gateway/profile.ts';

/** Atelier's own time-out; its phase says whether an answer had begun to arrive. */
export class PhaseTimeout extends Error {
  readonly phase: 'response' | 'body';
  readonly afterMs: number;
  constructor(phase: 'response' | 'body', afterMs: number) {
    super(`${phase} time-out after ${afterMs} ms`);
    this.phase = phase;
    this.afterMs = afterMs;
  }
}

export interface PhaseTimers {
  /** Aborted by a time-out or by the caller's cancel; given to the transport. */
  signal: AbortSignal;
  /** The headers arrived: only the total time-out is left. */
  answered(): void;
  stop(): void;
  /** The time-out that fired, if one did. */
  timedOut(): PhaseTimeout | null;
}

/**
 * The response time-out (no headers yet) and the total one (the body too), plus the caller's
 * cancel, on one signal. The cancel is linked by a listener removed in stop() rather than
 * AbortSignal.any, which costs noticeably more per request.
 */
export function startPhaseTimers(
  timeouts: Pick<GatewayTimeouts, 'responseMs' | 'totalMs'>,
  cancel: AbortSignal | undefined,
): PhaseTimers {
  const controller = new AbortController();
  const onCancel = () => controller.abort(cancel?.reason);
  const responseTimer = setTimeout(
    () => controller.abort(new PhaseTimeout('response', timeouts.responseMs)),
    timeouts.responseMs,
  );
  const totalTimer = setTimeout(() => {
    controller.abort(new PhaseTimeout('body', timeouts.totalMs));
    // An answer nobody reads or closes must not keep a listener on a long-lived signal.
    cancel?.removeEventListener('abort', onCancel);
  }, timeouts.totalMs);
  // The timers guard a request; they must not keep a finished CLI process alive on their own.
  responseTimer.unref();
  totalTimer.unref();
  cancel?.addEventListener('abort', onCancel, { once: true });

  return {
    signal: controller.signal,
    answered: () => clearTimeout(responseTimer),
    stop() {
      clearTimeout(responseTimer);
      clearTimeout(totalTimer);
      cancel?.removeEventListener('abort', onCancel);
    },
    timedOut() {
      const reason: unknown = controller.signal.aborted ? controller.signal.reason : null;
      return reason instanceof PhaseTimeout ? reason : null;
    },
  };
}
