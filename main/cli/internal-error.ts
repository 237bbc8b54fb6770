import { redact } from '../../shared/gateway/redact.ts';
import { printable } from '../../shared/text/printable.ts';
import {
  exitAfterWriting,
  type ExitAfterWriteOptions,
  type WriteTarget,
} from './exit-after-write.ts';

/**
 * A bug, not a result: EX_SOFTWARE from sysexits.h. Kept apart from 1 (some work failed) and
 * 2 (usage or configuration), so a script can tell a crash from failed jobs.
 */
export const INTERNAL_ERROR_EXIT_CODE = 70;

/**
 * What went wrong in one line and what to do, then the stack for the report. The key is
 * removed by value, and any `sk-…` or `Bearer …` by shape: a stack can quote a request.
 */
export function describeInternalError(
  error: unknown,
  secrets: ReadonlyArray<string | null | undefined> = [],
): string {
  const message = oneLine(error instanceof Error ? error.message : String(error));
  const stack = error instanceof Error && error.stack ? error.stack : null;
  const summary =
    `atelier: internal error: ${message || 'unknown error'}. ` +
    'This is a bug in Atelier; please report it with the details below.';
  const text = redact(stack ? `${summary}\n\n${stack}` : summary, ...secrets);
  return `${printable(text, { multiline: true })}\n`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
}

export interface InternalErrorIO extends ExitAfterWriteOptions {
  stderr?: WriteTarget;
  env?: NodeJS.ProcessEnv;
}

/**
 * The last stop for an error no command handled (thrown, uncaught, or a rejection nobody
 * awaited): prints it and ends the process with 70 without waiting for work in flight (the
 * next start's crash recovery settles it, as after a kill).
 */
export function internalErrorHandler(io: InternalErrorIO = {}): (error: unknown) => void {
  const exit = io.exit ?? ((code: number) => process.exit(code));
  let reporting = false;
  return (error) => {
    // a second error while the first is being reported (stderr closed…): just leave
    if (reporting) return exit(INTERNAL_ERROR_EXIT_CODE);
    reporting = true;
    let text: string;
    try {
      text = describeInternalError(error, [(io.env ?? process.env).ATELIER_API_KEY]);
    } catch {
      text = 'atelier: internal error (it could not be described). This is a bug in Atelier.\n';
    }
    exitAfterWriting(io.stderr ?? process.stderr, text, INTERNAL_ERROR_EXIT_CODE, {
      ...io,
      exit,
    });
  };
}
