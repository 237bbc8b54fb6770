import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  decodeAhead,
  takeDecoded,
  takeReady,
} from '../../../../renderer/src/screens/gallery/decoded-ahead.ts';

/** A decoded bitmap as the tests see it: closed or not. */
class FakeBitmap {
  closed = false;
  close() {
    this.closed = true;
  }
}

let owner = 0;
const next = () => ({ id: ++owner, createdAt: 1000 });

describe('thumbnails decoded ahead of their tiles', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('createImageBitmap', () => Promise.resolve(new FakeBitmap()));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('hands a ready bitmap to its tile, once, and keeps it open for the tile', async () => {
    const image = next();
    decodeAhead('a.webp', image, Promise.resolve(new Blob()));
    await vi.advanceTimersByTimeAsync(0);
    const taken = takeDecoded('a.webp', image);
    expect(taken && 'bitmap' in taken && (taken.bitmap as unknown as FakeBitmap).closed).toBe(
      false,
    );
    expect(takeDecoded('a.webp', image)).toBeNull();
    await vi.advanceTimersByTimeAsync(60_000);
    expect((taken as unknown as { bitmap: FakeBitmap }).bitmap.closed).toBe(false);
  });

  it('hands a decode still running to its tile, which gets the bitmap open', async () => {
    const image = next();
    let arrive!: (blob: Blob) => void;
    decodeAhead('b.webp', image, new Promise<Blob>((resolve) => (arrive = resolve)));
    const taken = takeDecoded('b.webp', image);
    expect(taken && 'decoding' in taken).toBe(true);
    arrive(new Blob());
    const bitmap = (await (taken as unknown as { decoding: Promise<FakeBitmap> })
      .decoding) as FakeBitmap;
    expect(bitmap.closed).toBe(false);
  });

  it('gives a tile being committed only a bitmap that is ready, and leaves a running decode', async () => {
    const image = next();
    let arrive!: (blob: Blob) => void;
    decodeAhead('f.webp', image, new Promise<Blob>((resolve) => (arrive = resolve)));
    expect(takeReady('f.webp', image)).toBeNull();
    arrive(new Blob());
    await vi.advanceTimersByTimeAsync(0);
    expect(takeReady('f.webp', image)).toBeInstanceOf(FakeBitmap);
    expect(takeDecoded('f.webp', image)).toBeNull();
  });

  it('closes a bitmap no tile came for, and then has nothing to give', async () => {
    const image = next();
    const made: FakeBitmap[] = [];
    vi.stubGlobal('createImageBitmap', () => {
      made.push(new FakeBitmap());
      return Promise.resolve(made.at(-1));
    });
    decodeAhead('c.webp', image, Promise.resolve(new Blob()));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(made.map((b) => b.closed)).toEqual([true]);
    expect(takeDecoded('c.webp', image)).toBeNull();
  });

  it("tells another image's thumbnail at the same path from this one's", async () => {
    const image = next();
    decodeAhead('d.webp', image, Promise.resolve(new Blob()));
    await vi.advanceTimersByTimeAsync(0);
    expect(takeDecoded('d.webp', { id: image.id, createdAt: 2000 })).toBeNull();
    expect(takeDecoded('d.webp', image)).not.toBeNull();
  });

  it('gives nothing for a thumbnail whose bytes did not come: the tile asks on its own', async () => {
    const image = next();
    decodeAhead('e.webp', image, Promise.reject(new Error('not made yet')));
    await vi.advanceTimersByTimeAsync(0);
    expect(takeDecoded('e.webp', image)).toBeNull();
  });
});
