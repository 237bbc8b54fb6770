// Types of code-cache.js, which stays plain JavaScript (see there).
export interface CachedScript {
  /** The bundle's file. */
  filename: string;
  /** Its cache file; null without a cache folder. */
  file: string | null;
  /** What its compile found. */
  state: 'none' | 'missing' | 'rejected' | 'accepted';
}

export interface CodeCache {
  load(path: string): unknown;
  scripts: CachedScript[];
  save(): void;
  uninstall(): void;
}

export function installCodeCache(options: {
  root: string;
  folder: string | null;
  scope?: string;
  versionTag?: () => number;
}): CodeCache;
export function bundleLoader(
  root: string,
  scope: string,
  env?: NodeJS.ProcessEnv,
): (path: string) => unknown;
