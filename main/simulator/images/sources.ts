import { createHash } from 'node:crypto';

/**
 * Input pictures of edits, by content digest, held while a link or a render may need them.
 * Counted references: the same upload shared by many links is held once.
 */
export class SourceStore {
  private readonly held = new Map<string, { bytes: Buffer; refs: number }>();

  /** Holds `bytes` (one more reference) and returns its digest. */
  retain(bytes: Buffer): string {
    const digest = createHash('sha256').update(bytes).digest('hex');
    const entry = this.held.get(digest);
    if (entry) entry.refs++;
    else this.held.set(digest, { bytes, refs: 1 });
    return digest;
  }

  /** Adds a reference to an already held digest. */
  share(digest: string): void {
    const entry = this.held.get(digest);
    if (entry) entry.refs++;
  }

  release(digest: string): void {
    const entry = this.held.get(digest);
    if (entry && --entry.refs <= 0) this.held.delete(digest);
  }

  get(digest: string): Buffer | undefined {
    return this.held.get(digest)?.bytes;
  }

  get size(): number {
    return this.held.size;
  }
}
