/**
 * A small LRU of encoded pictures. It holds promises, so a picture asked for twice at once
 * (url + b64_json, or two downloads) is rendered once; failed renders are forgotten.
 */
export class RenderCache {
  private readonly entries = new Map<string, { bytes: Promise<Buffer>; size: number }>();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private bytes = 0;
  renders = 0;

  constructor(maxEntries = 1024, maxBytes = 64 * 1024 * 1024) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
  }

  get(key: string, render: () => Promise<Buffer>): Promise<Buffer> {
    const hit = this.entries.get(key);
    if (hit) {
      // Re-insert: Map order is the recency order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.bytes;
    }
    this.renders++;
    const entry = { bytes: render(), size: 0 };
    this.entries.set(key, entry);
    entry.bytes.then(
      (buffer) => {
        if (this.entries.get(key) !== entry) return;
        entry.size = buffer.length;
        this.bytes += buffer.length;
        this.evict();
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    this.evict();
    return entry.bytes;
  }

  get size(): number {
    return this.entries.size;
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) return;
      this.entries.delete(key);
      this.bytes -= entry.size;
    }
  }
}
