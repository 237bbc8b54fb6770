import { constants } from 'node:os';

/**
 * The signals that stop a run cleanly: Ctrl+C (SIGINT), what `timeout`, docker stop and
 * systemd send (SIGTERM), and what a closed terminal or a logout sends (SIGHUP).
 */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

export interface InterruptActions {
  /** Stop taking work; requests in flight finish (they may be paid for). */
  pause(signal: StopSignal): void;
  /** Leave now; the next start's crash recovery settles what was in flight. */
  exitNow(signal: StopSignal): void;
}

export interface InterruptHandler {
  /** The listener for each of STOP_SIGNALS. */
  handle(signal: StopSignal): void;
  /** Whether a stop signal arrived at least once. */
  readonly interrupted: boolean;
  /** The last signal acted upon (the one that paused, or the one that stopped at once). */
  readonly signal: StopSignal | null;
}

/**
 * A first signal pauses cleanly; a second, of any of the kinds, leaves at once. Later ones
 * change nothing: leaving is under way, and a second summary on stdout would break `--json`.
 */
export function createInterruptHandler(actions: InterruptActions): InterruptHandler {
  let received = 0;
  let acted: StopSignal | null = null;
  return {
    handle(signal) {
      received++;
      if (received > 2) return;
      acted = signal;
      if (received === 1) actions.pause(signal);
      else actions.exitNow(signal);
    },
    get interrupted() {
      return received > 0;
    },
    get signal() {
      return acted;
    },
  };
}

/**
 * What a shell reports for a process ended by the signal, 128 + its number: 130 for SIGINT,
 * 143 for SIGTERM, 129 for SIGHUP. Scripts and supervisors read it as "stopped by that signal".
 */
export function interruptedExitCode(signal: StopSignal = 'SIGINT'): number {
  return 128 + constants.signals[signal];
}

/** How the signal is named to a person: Ctrl+C is what they pressed, the others by name. */
export function signalName(signal: StopSignal): string {
  return signal === 'SIGINT' ? 'Ctrl+C' : signal;
}
