/** The stream written to: process.stdout or process.stderr, or a test's stand-in. */
export interface WriteTarget {
  write(text: string, callback: (error?: Error | null) => void): unknown;
}

export interface ExitAfterWriteOptions {
  /** Leave after this long even if the text is not written (a reader that never reads). */
  timeoutMs?: number;
  exit?: (code: number) => void;
}

/** How long a last message may take to leave before the process ends without it. */
export const LAST_WRITE_TIMEOUT_MS = 2_000;

/**
 * Ends the process with `code` once `text` has been handed to the system. On POSIX a pipe
 * is written asynchronously, so calling process.exit() right after write() can lose the text
 * (a script reading `--json` would get nothing). Never waits longer than `timeoutMs`.
 */
export function exitAfterWriting(
  stream: WriteTarget,
  text: string,
  code: number,
  options: ExitAfterWriteOptions = {},
): void {
  const exit = options.exit ?? ((c: number) => process.exit(c));
  let left = false;
  const leave = () => {
    if (left) return;
    left = true;
    clearTimeout(timer);
    exit(code);
  };
  const timer = setTimeout(leave, options.timeoutMs ?? LAST_WRITE_TIMEOUT_MS);
  try {
    // called with an error too (EPIPE: the reader is gone): leave either way
    stream.write(text, () => leave());
  } catch {
    leave();
  }
}
