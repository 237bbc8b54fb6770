/**
 * How long a browser may keep a library file it was served. Only a URL that names the image's
 * version (shared/api/media-version.ts) is kept: a path can be reused by a newer image, whose
 * URL names another version. The image standing in for a thumbnail not made yet is never kept:
 * the thumbnail replaces it at the same URL.
 */
export function mediaCacheControl(o: {
  versioned: boolean;
  fallback: boolean;
  /** How long the URL itself stays valid (a signed URL's expiry). */
  maxAgeS: number;
}): string {
  if (o.fallback || !o.versioned) return 'private, no-cache';
  return `private, max-age=${Math.max(0, Math.floor(o.maxAgeS))}, immutable`;
}
