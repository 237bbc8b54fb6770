import { describe, expect, it, vi } from 'vitest';
import {
  firstScreenTiles,
  firstThumbnails,
  rememberFirstScreen,
} from '../../../../renderer/src/screens/gallery/first-thumbnails.ts';
import { imageSummary } from '../fake-api.ts';

describe("a new list's first thumbnails, asked for with its details", () => {
  it("asks for the thumbnails the first screen's tiles draw, and no more", () => {
    const asked: Array<[string, number]> = [];
    const warm = firstThumbnails(
      {
        thumbnail: (path, owner) => {
          asked.push([path, owner.id]);
          return Promise.resolve(new Blob());
        },
      },
      () => ({ tiles: 4, inView: 4, perRow: 4 }),
      true,
      async () => undefined,
    )!;
    warm([
      imageSummary(1),
      imageSummary(2, { downloadState: 'failed', relPath: null, thumbRelPath: null }),
      imageSummary(3, { kind: 'video', thumbRelPath: 'batch/3.webp' }),
      imageSummary(4, { thumbRelPath: null }), // thumbnails off: the tile shows the image
      imageSummary(5), // past the first screen
    ]);
    expect(asked).toEqual([['batch/1.png', 1]]);
  });

  it('decodes ahead only the thumbnails in view, not the overscan rows', () => {
    const decoded: number[] = [];
    const warm = firstThumbnails(
      { thumbnail: () => Promise.resolve(new Blob()) },
      () => ({ tiles: 5, inView: 2, perRow: 2 }),
      true,
      async (_path, owner) => void decoded.push(owner.id),
    )!;
    warm([1, 2, 3, 4, 5, 6].map((id) => imageSummary(id)));
    expect(decoded).toEqual([1, 2]);
  });

  it("settles once the top row's decodes have, or when it has waited long enough", async () => {
    vi.useFakeTimers();
    const decodes: Array<() => void> = [];
    const warm = firstThumbnails(
      { thumbnail: () => Promise.resolve(new Blob()) },
      () => ({ tiles: 3, inView: 3, perRow: 2 }),
      true,
      () => new Promise<void>((resolve) => decodes.push(resolve)),
      250,
    )!;
    let settled = false;
    // the top row's two: the third, in view on the next row, is not waited for
    void warm([imageSummary(1), imageSummary(2), imageSummary(3)]).then(() => (settled = true));
    decodes[0]!();
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    decodes[1]!();
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);

    let late = false;
    void warm([imageSummary(4)]).then(() => (late = true));
    await vi.advanceTimersByTimeAsync(249);
    expect(late).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(late).toBe(true);
    vi.useRealTimers();
  });

  it('leaves each tile to ask where tiles draw no bitmaps', () => {
    expect(
      firstThumbnails(
        { thumbnail: () => Promise.reject(new Error('no')) },
        () => ({ tiles: 4, inView: 4, perRow: 4 }),
        false,
      ),
    ).toBeNull();
  });

  it('bounds the first screen by the window until a grid has told its own', () => {
    // 1280×800 in tiles of 176 (8 between): 7 columns by 5 rows, and the 3 overscan rows
    expect(firstScreenTiles({ innerWidth: 1280, innerHeight: 800 }, 176)).toEqual({
      tiles: 56,
      inView: 35,
      perRow: 7,
    });
    rememberFirstScreen({ tiles: 30, inView: 15, perRow: 5 });
    expect(firstScreenTiles({ innerWidth: 1280, innerHeight: 800 }, 176)).toEqual({
      tiles: 30,
      inView: 15,
      perRow: 5,
    });
  });
});
