import { extname } from 'node:path';
import type { Logger } from '../logger.ts';
import { resolveMediaPath, resolveThumbnailSource } from './media-path.ts';
import { writeThumbnail } from './thumbnail.ts';

export interface ThumbnailMakerOptions {
  /** Thumbnails made at once (default 2): the grid asks for dozens in a burst. */
  concurrency?: number;
  /**
   * Makes the thumbnail of an image of the library (default writeThumbnail, beside it in
   * `.thumbs`, inside the library only).
   */
  make?: (imagePath: string, libraryDir: string) => Promise<unknown>;
  /** Told once per image whose thumbnail could not be made (default: a warning in `logger`). */
  onFailure?: (imagePath: string, error: Error) => void;
  logger?: Pick<Logger, 'warn'>;
}

/** What the thumbnail route serves: the thumbnail, or the image itself when it has none. */
export interface ThumbnailToServe {
  path: string;
  /** True when this is the image itself: not to be cached as the thumbnail. */
  fallback: boolean;
}

const VIDEO_EXTENSIONS = new Set(['.mp4']);
/** Images whose thumbnail failed are not tried again until this many have failed. */
const FORGET_FAILURES_AFTER = 10_000;

/**
 * Makes thumbnails the first time they are asked for (an image written while thumbnails were
 * off, or whose thumbnail was deleted), never more than `concurrency` at once and one make per
 * image at a time however often it is asked. Videos are skipped: their poster is another job.
 */
export class ThumbnailMaker {
  private readonly concurrency: number;
  private readonly makeOne: (imagePath: string, libraryDir: string) => Promise<unknown>;
  private readonly onFailure: (imagePath: string, error: Error) => void;
  private readonly inFlight = new Map<string, Promise<boolean>>();
  private readonly failed = new Set<string>();
  private readonly waiting: Array<() => void> = [];
  private running = 0;

  constructor(options: ThumbnailMakerOptions = {}) {
    this.concurrency = options.concurrency ?? 2;
    this.makeOne = options.make ?? ((imagePath, library) => writeThumbnail(imagePath, { library }));
    this.onFailure =
      options.onFailure ??
      ((path, error) =>
        options.logger?.warn(`could not make the thumbnail of ${path}: ${error.message}`));
  }

  /**
   * What to serve for `/thumbs/<rawPath>`: the thumbnail (made now if missing), or the image
   * when making it failed, or null when the library has no such image (or it is a video
   * without a thumbnail).
   */
  async thumbnailFor(libraryDir: string, rawPath: string): Promise<ThumbnailToServe | null> {
    const source = await resolveThumbnailSource(libraryDir, rawPath);
    if (!source) return null;
    if ('thumbnail' in source) return { path: source.thumbnail, fallback: false };
    if (isVideo(source.image)) return null;
    if (await this.make(source.image, libraryDir)) {
      const made = await resolveMediaPath(libraryDir, rawPath, 'thumb');
      if (made) return { path: made, fallback: false };
    }
    return { path: source.image, fallback: true };
  }

  /**
   * Makes the thumbnail of an image of the library `libraryDir`; true once it is written,
   * false if it could not be.
   */
  make(imagePath: string, libraryDir: string): Promise<boolean> {
    if (isVideo(imagePath) || this.failed.has(imagePath)) return Promise.resolve(false);
    let pending = this.inFlight.get(imagePath);
    if (!pending) {
      pending = this.run(imagePath, libraryDir).finally(() => this.inFlight.delete(imagePath));
      this.inFlight.set(imagePath, pending);
    }
    return pending;
  }

  private async run(imagePath: string, libraryDir: string): Promise<boolean> {
    // a finishing make hands its slot straight to the next waiting one
    if (this.running < this.concurrency) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      await this.makeOne(imagePath, libraryDir);
      return true;
    } catch (error) {
      if (this.failed.size >= FORGET_FAILURES_AFTER) this.failed.clear();
      this.failed.add(imagePath);
      this.onFailure(imagePath, error instanceof Error ? error : new Error(String(error)));
      return false;
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

function isVideo(path: string): boolean {
  return VIDEO_EXTENSIONS.has(extname(path).toLowerCase());
}
