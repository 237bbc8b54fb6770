let installed = false;

/**
 * A closed terminal or a reader that went away (logout, SIGHUP, `| head`) makes every write
 * to stdout and stderr fail (EPIPE, EIO). Unhandled, that error would end the process as a
 * crash with requests in flight; nothing printed is worth that, so from the first request on
 * such errors are dropped and the run drains and saves its results as usual.
 */
export function keepRunningWithoutTerminal(): void {
  if (installed) return;
  installed = true;
  const ignore = () => {};
  process.stdout.on('error', ignore);
  process.stderr.on('error', ignore);
}
