import { randomBytes } from 'node:crypto';
import type { RenderSpec } from './render.ts';
import { EXTENSIONS } from './render.ts';

export type LinkLookup =
  { state: 'live'; spec: RenderSpec } | { state: 'expired' } | { state: 'unknown' };

const RANDOM_CHARS = 20;

/**
 * Temporary download links. A link holds the render parameters, not the bytes: a download
 * re-renders (through the cache). The expiry is written into the id, so a link swept long ago
 * is still answered "expired" rather than "unknown".
 */
export class FileLinks {
  private readonly links = new Map<string, { spec: RenderSpec; expiresAt: number }>();
  private readonly ttlMs: number;
  private readonly onForget: (spec: RenderSpec) => void;
  private readonly now: () => number;

  constructor(
    ttlMs: number,
    onForget: (spec: RenderSpec) => void = () => {},
    now: () => number = Date.now,
  ) {
    this.ttlMs = ttlMs;
    this.onForget = onForget;
    this.now = now;
  }

  /** Returns the path of a new link: `/files/<id>.<ext>`. */
  create(spec: RenderSpec, now = this.now()): string {
    this.sweep(now);
    const expiresAt = now + this.ttlMs;
    const id = randomBytes(RANDOM_CHARS / 2).toString('hex') + expiresAt.toString(36);
    this.links.set(id, { spec, expiresAt });
    return `/files/${id}.${EXTENSIONS[spec.format]}`;
  }

  lookup(id: string, extension: string, now = this.now()): LinkLookup {
    this.sweep(now);
    const link = this.links.get(id);
    if (link && EXTENSIONS[link.spec.format] === extension) {
      return link.expiresAt > now ? { state: 'live', spec: link.spec } : { state: 'expired' };
    }
    const expiresAt = parseInt(id.slice(RANDOM_CHARS), 36);
    const wellFormed = /^[0-9a-f]+$/.test(id.slice(0, RANDOM_CHARS)) && Number.isFinite(expiresAt);
    return wellFormed && !link && expiresAt <= now ? { state: 'expired' } : { state: 'unknown' };
  }

  get size(): number {
    return this.links.size;
  }

  /** Drops expired links. All links share one TTL, so insertion order is expiry order. */
  sweep(now = this.now()): void {
    for (const [id, link] of this.links) {
      if (link.expiresAt > now) return;
      this.links.delete(id);
      this.onForget(link.spec);
    }
  }
}
