export interface InterruptActions {
  /** Stop taking work; requests in flight finish (they may be paid for). */
  pause(): void;
  /** Leave now; the next start's crash recovery settles what was in flight. */
  exitNow(): void;
}

export interface InterruptHandler {
  /** The SIGINT listener. */
  handle(): void;
  /** Whether Ctrl+C was pressed at least once. */
  readonly interrupted: boolean;
}

/**
 * Ctrl+C once pauses cleanly; Ctrl+C again leaves at once. Later presses change nothing:
 * leaving is under way, and a second summary on stdout would break `--json`.
 */
export function createInterruptHandler(actions: InterruptActions): InterruptHandler {
  let presses = 0;
  return {
    handle() {
      presses++;
      if (presses === 1) actions.pause();
      else if (presses === 2) actions.exitNow();
    },
    get interrupted() {
      return presses > 0;
    },
  };
}

/** What a shell reports for a process ended by SIGINT (128 + 2): scripts see "interrupted". */
export const INTERRUPTED_EXIT_CODE = 130;
