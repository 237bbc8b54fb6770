/** A file the build writes; `mtimeMs` null when it is not there. */
export interface BuildOutput {
  path: string;
  mtimeMs: number | null;
}

/** A source file, by its path from the project's root. */
export interface SourceFile {
  path: string;
  mtimeMs: number;
}

/**
 * Why the app must be built before it runs, or null when its build is up to date: an output is
 * missing, or a source changed after the oldest output was written (the build writes them all
 * at once, so the oldest is the last build). `newest` is the most recently changed source.
 */
export function whyBuild(
  outputs: readonly BuildOutput[],
  newest: SourceFile | null,
): string | null {
  const missing = outputs.find((output) => output.mtimeMs === null);
  if (missing) return `${missing.path} is missing`;
  if (newest === null || outputs.length === 0) return null;
  const oldest = outputs.reduce((a, b) => (b.mtimeMs! < a.mtimeMs! ? b : a));
  return newest.mtimeMs > oldest.mtimeMs!
    ? `${newest.path} changed after ${oldest.path} was built`
    : null;
}

/** The most recently changed of `files`, or null when there are none. */
export function newestOf(files: Iterable<SourceFile>): SourceFile | null {
  let newest: SourceFile | null = null;
  for (const file of files) if (newest === null || file.mtimeMs > newest.mtimeMs) newest = file;
  return newest;
}
