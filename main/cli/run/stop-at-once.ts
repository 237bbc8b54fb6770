import { redact } from '../../../shared/gateway/redact.ts';
import {
  exitAfterWriting,
  type ExitAfterWriteOptions,
  type WriteTarget,
} from '../exit-after-write.ts';
import { interruptedExitCode, type StopSignal } from './interrupt.ts';

/** The summary as printed (JSON or text) and the exit code it carries. */
export interface FinalWords {
  text: string;
  exitCode: number;
}

export interface StopIO extends ExitAfterWriteOptions {
  stdout?: WriteTarget;
  stderr?: WriteTarget;
}

const STOPPED_NOTICE =
  '\nStopped at once. Requests still in flight will be marked uncertain (never resent ' +
  'silently); "atelier resume" continues the rest.\n';

/**
 * The second Ctrl+C (or signal): prints the summary of what the database holds now (a script
 * reading `--json` still gets its object), then leaves without waiting for the requests in
 * flight; they stay `running` for the next start's recovery. A summary that cannot be read
 * does not keep the process here: it leaves with `signal`'s interrupted code all the same.
 */
export function stopAtOnce(
  render: () => FinalWords,
  io: StopIO = {},
  signal: StopSignal = 'SIGINT',
): void {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  stderr.write(STOPPED_NOTICE, () => {});
  let words: FinalWords;
  try {
    words = render();
  } catch (error) {
    const message = redact(error instanceof Error ? error.message : String(error));
    const text =
      `Could not read the summary (${message}); "atelier status" shows where the queue ` +
      'stands.\n';
    return exitAfterWriting(stderr, text, interruptedExitCode(signal), io);
  }
  exitAfterWriting(stdout, words.text, words.exitCode, io);
}
