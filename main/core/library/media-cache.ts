/**
 * How long a browser may keep a library file it was served. Only a URL that names the image's
 * version (`?v=<id>.<time>`, renderer/src/api/client.ts) is kept: a path can be reused by a newer
 * image (a batch deleted, then made again under its name), and its URL then names another
 * version. The image standing in for a thumbnail not made yet is never kept: the thumbnail
 * replaces it at the same URL.
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

/** The query parameter a media URL carries its image's version in. */
export const MEDIA_VERSION_PARAM = 'v';
