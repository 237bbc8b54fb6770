// Types of cli-bundle.js, which stays plain JavaScript (see there).
export const MANIFEST_VERSION: number;

/** A source the bundle was built from, by its path from the checkout, as it was then. */
export interface BundledSource {
  path: string;
  mtimeMs: number;
  ctimeMs: number;
  size: number;
}

/** out/cli/manifest.json: the build in use (its entries, from out/cli) and its sources. */
export interface BundleManifest {
  version: number;
  entries: { index: string; internalError: string };
  sources: BundledSource[];
}

export function bundleFolder(root: string): string;
export function freshCliBundle(
  root: string,
  env?: NodeJS.ProcessEnv,
): { index: string; internalError: string } | null;
export function isFresh(manifest: BundleManifest, root: string): boolean;
