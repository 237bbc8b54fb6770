/**
 * Every media URL names the version of the image it shows, its id and the time it was made, in
 * this query parameter (`?v=26.lq2k`): a library path can be reused by a newer image (a batch
 * deleted, then made again under its name), and its URL must then differ, or a cache would show
 * the old picture. The hosts serve the file by its path alone, and keep only versioned answers.
 */
export const MEDIA_VERSION_PARAM = 'v';

/** The image a library file belongs to. */
export interface MediaOwner {
  id: number;
  createdAt: number;
}

/** The version a media URL carries: the image's id and time (base 36). */
export function mediaVersion(owner: MediaOwner): string {
  return `${owner.id}.${owner.createdAt.toString(36)}`;
}
